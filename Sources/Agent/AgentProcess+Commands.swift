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
}

/// A command the agent cannot carry out for a reason of its own (not the store's).
struct AgentError: Error, CustomStringConvertible {
    var kind: ErrorKind
    var description: String

    static func unknownID(_ name: String) -> AgentError {
        AgentError(kind: .notFound, description: "no object '\(name)' is known to this process yet")
    }
}

extension AgentProcess {
    /// Executes one request and replies; an error the step expected is a success.
    func handle(_ request: AgentRequest) {
        // What the hub delivered before this step was sent is handled first, between steps.
        if let deliveries = request.deliveries { settle(deliveries: deliveries) }
        currentSeq = request.seq
        currentStep = request.step
        defer { currentStep = nil }
        learn(request.ids)
        globalIDs = request.globalIDs.isEmpty ? globalIDs : request.globalIDs
        var outcome = CommandOutcome()
        do {
            try execute(request.command, into: &outcome)
            if let expected = request.expectError {
                // The step said it would fail; that it succeeded is what the check records.
                record(.check(CheckRecord(kind: .expectError, subject: expected.rawValue, passed: false, withinNanos: 0)))
            }
            reply(AgentReply(seq: request.seq, status: .ok, inserted: outcome.inserted,
                             deleted: outcome.deleted, lock: outcome.lock, globalIDs: outcome.globalIDs,
                             aliases: outcome.aliases))
        } catch {
            let record = errorRecord(error, expected: request.expectError)
            let status: AgentReply.Status = record.expected ? .ok : .failed
            reply(AgentReply(seq: request.seq, status: status, error: record))
        }
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
        if id.isTemporary { return id }
        return try view.existingObject(with: id)
    }

    func execute(_ command: AgentCommand, into outcome: inout CommandOutcome) throws {
        switch command {
        case .insert(let entity, let name, let values):
            let id = try view.insert(entity, values: try storeValues(values, entity: entity))
            ids.bind(name, to: id)
            dirty[id, default: []].formUnion(values.keys)
        case .update(let name, let values):
            let id = try resolve(name)
            try view.setValues(try storeValues(values, entity: id.entity), for: id)
            dirty[id, default: []].formUnion(values.keys)
        case .delete(let name):
            try view.delete(try resolve(name))
        case .relate(let name, let other, let relationship):
            try view.relate(try resolve(name), to: try resolve(other), via: relationship)
        case .unrelate(let name, let other, let relationship):
            try view.unrelate(try resolve(name), from: try resolve(other), via: relationship)
        case .save:
            try performSave(into: &outcome)
        case .rollback:
            view.rollback()
            forgetUnsaved()
        case .reset:
            view.reset()
            forgetUnsaved()
        case .fetch(let entity, let predicate, let sort):
            let request = FetchRequest(entity: entity, filter: predicate, sortKeys: sort.isEmpty ? nil : sort)
            _ = try currentContext.fetch(request)
            if !fetches.contains(request) { fetches.append(request) }
        case .refreshAll:
            refreshAll(reason: .step)
        case .refreshObject(let name, let merge):
            let id = try resolve(name)
            view.refresh(id, mergeChanges: merge)
            // Without merging, refresh(_:mergeChanges:) discards the object's unsaved changes.
            if !merge { dirty[id] = nil }
        case .runRefresh:
            runRefresh(reason: .manual)
        case .observe:
            startObserving()
            // Registering late, an app with history catches up from its persisted token.
            if settings.refresh == .history { runRefresh(reason: .observe) }
        case .post(let name):
            post(name)
        case .becomeActive:
            if settings.trigger == .activation { runRefresh(reason: .activation) }
        case .enterBackground:
            // A backgrounded app keeps running and receiving notifications: nothing changes here.
            break
        case .armCrashDuringSave:
            crashArmed = true
        case .advanceClock(let nanos):
            clock.advance(byNanos: nanos)
        case .lockState:
            outcome.lock = currentLock()
        case .read(let name, let expect, let absent, let within, let workload):
            try checkRead(name, expect: expect, absent: absent, withinNanos: within, workload: workload)
        case .count(let entity, let predicate, let expect, let within):
            try checkCount(entity, predicate: predicate, expect: expect, withinNanos: within)
        case .finalRefresh:
            runRefresh(reason: .final)
            recordFinalView()
        case .exit:
            break
        default:
            try executeStoreCommand(command, into: &outcome)
        }
    }

    /// The context checks and fetches use: the opened copy's view, or this store's.
    var currentContext: ObjectContext { openedCopy?.viewContext ?? view }

    func forgetUnsaved() {
        dirty.removeAll()
        ids.forgetTemporary()
    }

    /// What this process holds open on a shared store, for the runner's suspend check.
    func currentLock() -> LockKind? {
        if holdsBeginWrite { return .beginWrite }
        let open = coordinator.openTransactions
        return open.contains(.write) ? .write : open.first
    }

    /// The trace's record of `error`, with its kind, and whether the step expected it.
    func errorRecord(_ error: any Error, expected: ErrorKind?) -> ErrorRecord {
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
        return ErrorRecord(kind: kind, message: "\(error)", expected: expected == kind)
    }
}
