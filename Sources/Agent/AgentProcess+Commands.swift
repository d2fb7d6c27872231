import Basics
import Foundation
import SharedStore
import Trace

/// What a command produced besides success, for the reply.
struct CommandOutcome {
    var inserted: [String: ObjectRef] = [:]
    var deleted: [String] = []
    var lock: LockKind?
    var globalIDs: [String: String] = [:]
    var aliases: [String: [ObjectRef]] = [:]

    /// Takes what `other` made too: its objects win, its aliases add to these.
    mutating func merge(_ other: CommandOutcome) {
        inserted.merge(other.inserted) { $1 }
        deleted += other.deleted
        globalIDs.merge(other.globalIDs) { $1 }
        aliases.merge(other.aliases) { $0 + $1 }
    }
}

/// A command the agent cannot carry out for a reason of its own (not the store's).
struct AgentError: Error, CustomStringConvertible {
    var kind: ErrorKind
    var description: String

    static func unknownID(_ name: String) -> AgentError {
        AgentError(kind: .notFound, description: "no object '\(name)' is known to this process yet")
    }
}

/// A command met another process's lock and, as the runner asked (`LockWaitHandling.yield`), changed
/// nothing instead of waiting: the runner waits in virtual time and asks again.
struct LockWaitYield: Error {}

extension AgentProcess {
    /// Executes one request and replies; an error the step expected is a success.
    func handle(_ request: AgentRequest) {
        // What the hub delivered before this step was sent is handled first, between steps.
        if let t = request.virtualTime { time.pass(to: t) }
        notificationsHeld = request.notificationsHeld == true
        // A request that is not the waiting check's ends its hold: what it held back is handled first. A
        // lock wait asked again is no request of the process's own and leaves the hold alone.
        let held = request.command != .awaitLock && checkDeadline != nil && request.checkDeadline == nil
        if request.command != .awaitLock { checkDeadline = request.checkDeadline }
        // Set before the notifications are handled: a refresh they run that meets a lock yields as the
        // command would, and the command waits behind it.
        lockWaitHandling = request.lockWaits
        commandMayYield = request.command.yieldsOnLockWait
        defer {
            lockWaitHandling = nil
            commandMayYield = false
        }
        // Only a request that can wait for a lock tries the waiting purge again (not a clock advance, a
        // lifecycle change: the runner takes those once the wait is over, or beside it in `parallel`).
        if pendingPurge && lockWaitHandling != nil {
            retryPendingPurge()
            if !pendingPurge {
                // A background wait the runner timed out (`fail`) is over: what waited behind it, and the
                // request's own work beside it, meets the lock afresh and waits with a busy timeout of its own.
                if lockWaitHandling == .fail && Self.runsBesideALockWait(request.command) { lockWaitHandling = .yield }
                resumeAfterPurge()
            }
        }
        if held && inbox.count > 0 { handleNotifications() }
        // A `deliver`'s notifications are the step's own work: an error their refreshes meet is the one
        // its `expect-error` names, as an activation's refresh is a `resume`'s.
        let deliversAsItsWork = request.command.step == .deliver
        if deliversAsItsWork {
            expectedError = request.expectError
            metExpectedError = false
            expectationStep = request.step
        }
        if let deliveries = request.deliveries { settle(deliveries: deliveries) }
        if let notifications = request.notifications, !notifications.isEmpty { deliver(notifications) }
        if pendingPurge && lockWaitHandling == .yield && !Self.runsBesideALockWait(request.command) {
            // The refresh before this command waits for the lock: the command has not run. A check keeps
            // its hold on later notifications while it waits.
            isLastAttempt = request.lastAttempt ?? true
            lastCheckMatched = false
            // The runner counts the ids it sent as known from now on, and sends the command again without
            // them: a read by id of an object the refresh merged missed it.
            learn(request.ids)
            globalIDs = request.globalIDs.isEmpty ? globalIDs : request.globalIDs
            var answer = AgentReply(seq: request.seq, status: .blocked)
            answer.lockWaitPending = true
            reply(answer)
            return
        }
        isLastAttempt = request.lastAttempt ?? true
        expectedError = request.expectError
        if !deliversAsItsWork { metExpectedError = false }
        expectationStep = request.step
        defer { expectedError = nil }
        // A lock wait met before this command (by a refresh between requests) is not this command's.
        _ = coordinator.takeLockWait()
        lastCheckMatched = nil
        lastObservation = nil
        currentSeq = request.seq
        currentStep = request.step
        defer { currentStep = nil }
        learn(request.ids)
        globalIDs = request.globalIDs.isEmpty ? globalIDs : request.globalIDs
        contextOverride = request.context.map { namedContext($0, author: request.contextAuthor, mergePolicy: request.contextMergePolicy) }
        defer { contextOverride = nil }
        var outcome = CommandOutcome()
        // The runner sends a clock advance without awaiting a reply: answering it would fill the pipe
        // back to the runner after a few hundred of them, and both sides would block writing.
        if case .advanceClock(let nanos) = request.command {
            // A process waiting in a purge reads no request until the wait is over.
            if pendingPurge { purgeWait.postpone(.advanceClock(nanos: nanos)) } else { try? execute(request.command, into: &outcome) }
            return
        }
        // A write among the children of `parallel` in the deterministic mode keeps its transaction open.
        let holding = request.holdsCommit == true && mayHoldCommit(request.command)
        do {
            // Where the lock is taken already, the command meets it itself (and yields or fails as it does).
            if holding, (try? beginWrite()) != nil { heldWrite?.heldForRunner = true }
            // What the contexts processed since the last command (a notification's merge, a timer's
            // refresh) reaches their fetched-results controllers first, then what this one does.
            updateControllers()
            defer { updateControllers() }
            try execute(request.command, into: &outcome)
            // A write that changed nothing has nothing to hold the lock for.
            if holding, let held = heldWrite, held.commits.isEmpty && held.rows == 0 && held.afterCommit.isEmpty {
                // A save that reached its COMMIT with nothing left to write (every change gave way to the
                // store's) still dies there when a crash is armed, as in real time.
                if held.crashAtCommit { dieAtCommit() }
                try commitHeldWrite(into: &outcome)
            }
            // The step said it would fail; that it succeeded is what the check records (once its purge,
            // waiting for a lock, has succeeded, when one is).
            if let expected = request.expectError, !metExpectedError, purgeWait.expectation == nil {
                record(.check(CheckRecord(kind: .expectError, subject: expected.rawValue, passed: false, withinNanos: 0)))
            }
            var answer = AgentReply(seq: request.seq, status: .ok, inserted: outcome.inserted,
                                    deleted: outcome.deleted, lock: outcome.lock, globalIDs: outcome.globalIDs,
                                    aliases: outcome.aliases)
            answer.matched = lastCheckMatched
            answer.observed = lastObservation
            answer.unsaved = reportedUnsaved()
            if pendingPurge { answer.lockWaitPending = true }
            if holding, let held = heldWrite {
                answer.commitHeld = true
                answer.heldRows = held.rows
            }
            reply(answer)
        } catch {
            // What the held transaction's savepoint did is rolled back: it ends, committing nothing.
            if holding, holdsBeginWrite {
                heldWrite = nil
                try? coordinator.endWrite()
            }
            if yieldingLockWait(error) is LockWaitYield {
                reply(AgentReply(seq: request.seq, status: .blocked))
                return
            }
            let record = errorRecord(error, expected: request.expectError)
            if settings.framework == .swiftData, request.command.isSave {
                failedToSave.formUnion(unsavedObjects() ?? [])
            }
            let status: AgentReply.Status = record.expected ? .ok : .failed
            var answer = AgentReply(seq: request.seq, status: status, error: record)
            answer.unsaved = reportedUnsaved()
            if pendingPurge { answer.lockWaitPending = true }
            reply(answer)
        }
    }

    /// The objects with changes no save has committed, in the view context and the process's other
    /// contexts, by name; nil when there are none.
    func unsavedObjects() -> [String]? {
        var names: Set<String> = []
        for context in [coordinator.viewContext] + namedContexts.values where context.hasChanges {
            for id in context.insertedObjects + context.updatedObjects + context.deletedObjects { names.insert(ids.name(of: id)) }
        }
        return names.isEmpty ? nil : names.sorted()
    }

    /// What a reply says the process would lose if it ended now (`unsaved-changes-lost`): its unsaved
    /// objects but those a save tried and failed to commit (that failure is what loses them, reported as
    /// itself). **Choice**: only a SwiftData process says it; SwiftData persists changes to models unless the
    /// code rolls them back, while a Core Data process that ends without saving may mean to discard its
    /// changes (a cancelled share extension). Nothing is gathered for a Core Data process's replies.
    func reportedUnsaved() -> [String]? {
        guard settings.framework == .swiftData, var names = unsavedObjects() else { return nil }
        names.removeAll { failedToSave.contains($0) }
        return names.isEmpty ? nil : names
    }

    /// Whether `command` may keep its transaction open (`AgentRequest.holdsCommit`): a save to the store
    /// or a batch operation, outside a `begin-write` of the file's own, and not on a read-only copy. A save
    /// with a crash armed inside it holds its lock too, and dies at its COMMIT.
    func mayHoldCommit(_ command: AgentCommand) -> Bool {
        guard command.mayHoldItsCommit, !holdsBeginWrite, openedCopyName == nil else { return false }
        // A child context's save reaches its parent, not the store.
        return command.step != .save || view.parent == nil
    }

    /// The background context `name` of this process (a step's `context:`, or an App Intent's), made
    /// the first time a step uses it: the view context's settings, its saves authored by `author` (the
    /// process's own author when nil).
    ///
    /// A context the process declares under `contexts:` is made as declared: a child of the view context
    /// or of another declared context (made first), or a background context, with its automatic merge,
    /// author, merge policy and staleness.
    func namedContext(_ name: String, author: String?, mergePolicy: MergePolicy? = nil) -> ObjectContext {
        if let context = namedContexts[name] { return context }
        let declaration = settings.contexts.first { $0.name == name }
        let context: ObjectContext
        switch declaration?.parent ?? .store {
        case .store: context = coordinator.newBackgroundContext(name: name)
        case .view: context = coordinator.viewContext.newChildContext(name: name)
        case .context(let parent):
            context = namedContext(parent, author: nil).newChildContext(name: name)
        }
        // A step's own author and policy (an App Intent's), else the declaration's, else the process's.
        context.transactionAuthor = author ?? declaration?.author.map { $0.resolved(processName: config.process) } ?? settings.author
        context.mergePolicy = mergePolicy ?? declaration?.mergePolicy ?? settings.mergePolicy
        context.stalenessInterval = declaration?.staleness?.timeInterval ?? settings.staleness.timeInterval
        context.shouldDeleteInaccessibleFaults = settings.deleteInaccessibleFaults
        context.automaticallyMergesChangesFromParent = declaration?.automaticallyMerges ?? false
        namedContexts[name] = context
        return context
    }

    /// Binds the scenario ids the runner learned from other processes' saves.
    func learn(_ refs: [String: ObjectRef]) {
        for (name, ref) in refs {
            guard ref.entity != "", let id = try? coordinator.objectID(entity: ref.entity, primaryKey: ref.pk) else { continue }
            // A name this process bound itself (its own insert of that id) stays its own while its row
            // lives (a second row is a duplicate); a name it learned, or whose row was deleted, follows the
            // runner: an id inserted again after its row was deleted names the new row.
            if ids[name] == nil || ids[name] == learnedIDs[name] || !rowExists(ids[name]!) {
                ids.bind(name, to: id)
                learnedIDs[name] = id
            } else {
                ids.alias(name, to: id)
            }
        }
    }

    /// Whether `id`'s row is in the store now (read through the inspector, teaching the view nothing).
    func rowExists(_ id: ObjectID) -> Bool {
        guard !id.isTemporary, let context = inspectorContext("exists") else { return true }
        return (try? context.existingObject(with: id)) != nil
    }

    /// The object `name` in the view context, registering it by id (`existingObject(with:)`) when needed.
    func resolve(_ name: String) throws -> ObjectID {
        guard let id = ids[name] else { throw AgentError.unknownID(name) }
        // existingObject(with:) registers it and puts it in the view, registered or not.
        if id.isTemporary {
            // An unsaved insert lives in the context that made it; another context (a step's context:, an
            // App Intent's) finds nothing until it is saved, as in Core Data.
            guard view.canReach(id) else {
                throw AgentError(kind: .notFound, description: "'\(name)' is an unsaved insert of another context; it can be reached once it is saved")
            }
            return id
        }
        return try view.existingObject(with: id)
    }

    /// The context checks and fetches use: the opened copy's view, or this store's.
    var currentContext: ObjectContext { openedCopy?.viewContext ?? view }

    func forgetUnsaved() {
        dirty.removeAll()
        // What the children pushed into this context is discarded with its changes.
        pushedBaseVersions[ObjectIdentifier(view)] = nil
        ids.forgetTemporary()
    }

    /// What this process holds open on a shared store, for the runner's suspend check.
    func currentLock() -> LockKind? {
        if holdsBeginWrite { return .beginWrite }
        let open = coordinator.openTransactions
        return open.contains(.write) ? .write : open.first
    }

    /// `LockWaitYield` in place of `error` when it is a busy that a wait would have followed and the runner
    /// does the waiting (`LockWaitHandling.yield`); `error` otherwise.
    func yieldingLockWait(_ error: any Error) -> any Error {
        if error is LockWaitYield { return error }
        guard lockWaitHandling == .yield, commandMayYield, errorKind(of: error) == .busy, coordinator.takeLockWait() else { return error }
        return LockWaitYield()
    }

    /// Requests that are the process's own background work, run while a refresh's write waits for a lock:
    /// notifications handed over (by the harness, or a `deliver` step), the wait asked again, a poll (which
    /// merges and leaves the purge waiting), an activation's or backgrounding's refresh (the deterministic
    /// mode sends those among the children of `parallel` with `yield`: its purge waits beside them too).
    static func runsBesideALockWait(_ command: AgentCommand) -> Bool {
        command == .handleNotifications || command.step == .deliver || command == .awaitLock || command == .timerRefresh
            || command == .becomeActive || command == .enterBackground
    }

    /// Whether a refresh's write that failed with `error` yields instead (the runner waits for the lock in
    /// virtual time and asks again): a busy that a wait would have followed, under a request that lets
    /// its work yield.
    func refreshYields(_ error: any Error) -> Bool {
        lockWaitHandling == .yield && errorKind(of: error) == .busy && coordinator.takeLockWait()
    }

    /// Tries a history refresh's purge again that yielded on a lock, before the request's command: it
    /// yields again while the lock is held, fails with `busy` once the runner waited out the busy timeout
    /// (`LockWaitHandling.fail`), or purges.
    ///
    /// The outcome is the expectation's of the step whose refresh ran the purge (`PurgeWait.expectation`): its
    /// error expected, or its success an unmet expectation.
    func retryPendingPurge() {
        do {
            try purgeHistory(settings.purge)
            if let expectation = purgeWait.end() {
                trace.record(.check(CheckRecord(kind: .expectError, subject: expectation.kind.rawValue, passed: false, withinNanos: 0)),
                             step: expectation.step)
            }
        } catch {
            if refreshYields(error) { return }
            record(.error(errorRecord(error, expected: purgeWait.end()?.kind)))
        }
    }

    /// What waited behind a purge that has now succeeded or failed, as a run loop takes it up after SQLite's
    /// busy handler returns: the notifications left in the inbox first, then what was asked meanwhile, in
    /// order. A refresh whose own purge meets the lock stops it again.
    func resumeAfterPurge() {
        if !pendingPurge && inbox.count > 0 { handleNotifications() }
        while let work = purgeWait.nextPostponed() {
            switch work {
            case .refresh(let reason): runRefresh(reason: reason)
            case .advanceClock(let nanos): clock.advance(byNanos: nanos)
            }
        }
    }

    /// Records an error a refresh met (recorded, not thrown): expected when it is of the kind the running
    /// step expects, which then counts as the step's failing as it said it would.
    func recordRefreshError(_ error: any Error) {
        let record = errorRecord(error, expected: expectedError)
        if record.expected && record.kind == expectedError { metExpectedError = true }
        self.record(.error(record))
    }

    /// The trace's record of `error`, with its kind, and whether the step expected it.
    func errorRecord(_ error: any Error, expected: ErrorKind?) -> ErrorRecord {
        let error = migratedUnderneath(error) ?? error
        let kind = errorKind(of: error)
        // A lock met outside a command the runner waits for (a refresh a notification ran) is waited for as
        // SQLite waits: the busy timeout passes, in virtual time when the store reports lock waits instead.
        // (A command that cannot yield waits so under any request but one whose wait the runner timed out.)
        if kind == .busy, lockWaitHandling == nil || lockWaitHandling == .yield && !commandMayYield, coordinator.takeLockWait() {
            time.pass(by: settings.busyTimeout.nanos)
        }
        var isExpected = expected == kind
        if kind == .expiredToken {
            let token = coordinator.historyToken(for: config.process) ?? -1
            if isExpected { acceptedExpiries.insert(token) } else { isExpected = acceptedExpiries.contains(token) }
        }
        return ErrorRecord(kind: kind, message: "\(error)", expected: isExpected)
    }

    /// The kind of `error`, as the trace and the checkers name it.
    func errorKind(of error: any Error) -> ErrorKind {
        let error = migratedUnderneath(error) ?? error
        let kind: ErrorKind
        if let agentError = error as? AgentError {
            kind = agentError.kind
        } else if let syncError = error as? SyncError {
            switch syncError {
            case .store(let inner): kind = ErrorKind(inner) ?? .other
            case .historyExpired: kind = .expiredToken
            case .alreadyLeeched: kind = .alreadyLeeched
            default: kind = .syncFailed
            }
        } else {
            kind = ErrorKind(error) ?? .other
        }
        return kind
    }
}
