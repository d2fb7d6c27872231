import Basics
import Notify
import SharedStore
import Trace

extension AgentProcess {
    /// Runs this process's refresh strategy once and records what it did.
    ///
    /// - `staleness`: `refreshAllObjects()`; the faults it leaves fire by the view context's
    ///   `stalenessInterval` (so at -1 they refill from the row cache and keep the old values).
    /// - `history`: fetch the persistent history after the saved token, merge it; then (after the refresh
    ///   is recorded as ended) purge by setting.
    /// - `refetch`: re-run this process's fetches, keeping registered objects as they are, taking the
    ///   fetched values (`shouldRefreshRefetchedObjects`), or after `reset()`.
    /// - `none`: nothing; automatic merging never covers another process's saves.
    func runRefresh(reason: RefreshReason) {
        // A process whose purge waits for a lock is inside that wait: what asks for a refresh meanwhile
        // (a poll, an activation) is answered after it, once however often it asked (a run loop's timer
        // fires once for the fires it missed). The final view is not.
        if pendingPurge && reason != .final {
            purgeWait.postpone(.refresh(reason))
            return
        }
        var result = RefreshRecord(strategy: RefreshKind(settings.refresh), reason: reason)
        record(.refreshStarted(result))
        var merged = false
        switch settings.refresh {
        case .staleness:
            view.refreshAllObjects()
        case .history:
            if let counts = mergeHistoryForRefresh() {
                merged = true
                result.inserted = counts.inserted
                result.updated = counts.updated
                result.deleted = counts.deleted
            }
        case .refetch:
            refetch(settings.refetch)
        case .newContext:
            // The screen's fetches again, each in a new context: every model they return is read afresh.
            refetch(.refreshRefetched)
        case .historyObserver:
            if observeHistory() { refetch(.refreshRefetched) }
        case .none:
            break
        }
        record(.refreshEnded(result))
        // The refresh is over once the changes are in the context: the purge follows it, and a lock it waits
        // for (SQLite's busy handler in real time, a yield in the deterministic mode) delays no latency.
        if merged { purgeAfterRefresh() }
        // Each refresh is one objects-did-change notification for the controllers: however many land
        // between two steps (notifications in real time), each tells a controller once.
        updateControllers()
    }

    /// The `history-observer` strategy's check: reads the history after this process's token (by its
    /// `history-authors`, `history-entities` and `history-change-types`, as `HistoryObserver`'s observed
    /// models scope it) and moves the token past what it read, merging nothing; true when any of it changed
    /// an observed model (the observer's `eventCounter` moves, and the screen fetches again). An expired
    /// token is recorded and kept, and counts as a change: the observer cannot tell what it missed.
    func observeHistory() -> Bool {
        let filter = settings.historyAuthorFilter
        let before = coordinator.historyToken(for: config.process)
        do {
            let (result, changes) = try coordinator.observeHistory(
                consumer: config.process, filter: filter, ownAuthor: view.transactionAuthor, entities: settings.historyEntities,
                changeTypes: settings.historyChangeTypes.map(Set.init))
            record(.historyFetched(HistoryFetch(
                tokenBefore: result.tokenBefore, tokenAfter: result.tokenAfter,
                transactions: result.transactions.count + result.skipped, merged: 0, expired: false)))
            return !(changes.inserted.isEmpty && changes.updated.isEmpty && changes.deleted.isEmpty)
        } catch {
            let expired = error.code == .expiredToken
            record(.historyFetched(HistoryFetch(tokenBefore: before, tokenAfter: before, transactions: 0, merged: 0, expired: expired)))
            recordRefreshError(error)
            return expired
        }
    }

    /// A `refresh` step: `refreshAllObjects()` whatever the strategy.
    func refreshAll(reason: RefreshReason) {
        let result = RefreshRecord(strategy: .refreshAll, reason: reason)
        record(.refreshStarted(result))
        view.refreshAllObjects()
        record(.refreshEnded(result))
        updateControllers()
    }

    /// A `{ refresh: x }` step, recorded like every refresh, so the timeline draws it and no explanation
    /// says none ran.
    func refreshObject(_ id: ObjectID, mergeChanges: Bool) {
        let result = RefreshRecord(strategy: .refreshObject, reason: .step)
        record(.refreshStarted(result))
        view.refresh(id, mergeChanges: mergeChanges)
        record(.refreshEnded(result))
    }

    private func refetch(_ mode: RefetchMode) {
        switch mode {
        case .reset:
            view.reset()
            forgetUnsaved()
            view.shouldRefreshRefetchedObjects = false
        case .refreshRefetched:
            view.shouldRefreshRefetchedObjects = true
        case .keepRegistered:
            view.shouldRefreshRefetchedObjects = false
        }
        for request in fetches {
            do {
                _ = try view.fetch(request)
            } catch {
                recordRefreshError(error)
            }
        }
        // The setting belongs to the strategy's refetch, not to the process's later fetch steps.
        view.shouldRefreshRefetchedObjects = false
    }

    // MARK: Notifications

    /// Registers for the cross-process save notification (at launch, or at an `observe` step).
    func startObserving() {
        guard observer == nil, let center else { return }
        let inbox = inbox
        do {
            observer = try center.addObserver(settings.notificationName) { inbox.post($0) }
            if settings.trigger == .remoteChange, let name = settings.remoteChangeName {
                remoteChangeObserver = try center.addObserver(name) { inbox.post($0) }
            }
        } catch {
            record(.error(ErrorRecord(kind: .other, message: "cannot observe notifications: \(error)")))
        }
    }

    /// Posts the store's remote-change notification after a commit, when the store posts one.
    func postRemoteChange() {
        if let name = settings.remoteChangeName { post(name) }
    }

    /// Posts a payload-less notification through the hub.
    func post(_ name: String) {
        do {
            try center?.post(name)
            record(.notificationPosted(NotificationRecord(name: name, from: config.process)))
        } catch {
            record(.error(ErrorRecord(kind: .other, message: "cannot post \(name): \(error)")))
        }
    }

    /// Handles every notification that arrived: record it, and refresh when the trigger is `darwin`.
    ///
    /// A Darwin notification carries no sender, so an app cannot tell its own save's notification from
    /// another process's: its own triggers the refresh like any other (the hub's records keep the
    /// poster for the report; the agent never reads it).
    ///
    /// A refresh whose purge yields on a lock (the deterministic mode) stops the handling: the process
    /// is in SQLite's busy handler in real time, and the notifications after it wait in the inbox until
    /// the purge has succeeded or failed (`resumeAfterPurge()`).
    func handleNotifications() {
        let deadline = checkDeadline
        inbox.acknowledge()
        // What arrives while these are handled is handled at the next call (its byte wakes the loop), so a
        // stream of notifications cannot keep the loop from its requests.
        var arrived = inbox.count
        while arrived > 0, !pendingPurge, let delivery = inbox.takeFirst({ deadline == nil || $0.postedAt <= deadline! }) {
            arrived -= 1
            receivedNotifications += 1
            trace.record(.notificationReceived(NotificationRecord(name: delivery.name, postedAt: delivery.postedAt)),
                         step: currentStep, at: delivery.receivedAt)
            if settings.trigger == .darwin && delivery.name == settings.notificationName {
                runRefresh(reason: .darwin)
            } else if settings.trigger == .remoteChange && delivery.name == settings.remoteChangeName {
                runRefresh(reason: .remoteChange)
            }
        }
    }

    /// How long the loop may sleep before the next poll-triggered refresh; nil while the poll waits for a
    /// check (the check's next request wakes the loop).
    func pollTimeout() -> UInt64? {
        // In the deterministic mode the runner owns the timer (`timerRefresh`).
        guard settings.trigger == .poll, world.runsOwnTimers else { return nil }
        let now = time.now
        if nextPoll <= now, pollWaitsForCheck(now: now) { return nil }
        return nextPoll > now ? nextPoll - now : 0
    }

    /// Runs the refresh when `trigger: poll` and its interval has passed.
    func pollIfDue() {
        guard settings.trigger == .poll, world.runsOwnTimers else { return }
        let now = time.now
        guard now >= nextPoll, !pollWaitsForCheck(now: now) else { return }
        runRefresh(reason: .poll)
        nextPoll = now + settings.pollInterval.nanos
    }

    /// Whether a poll due now waits for the check under way: it would run past the check's deadline, and
    /// bring what was committed after it to the check's last attempt, which shows the view as of the
    /// deadline (`Observation.viewAsOf`). A poll the process was too busy to run by then (a batch insert
    /// beside the check) waits too, as the deterministic mode's timer does (`VirtualEnvironment.pollMayRun`).
    private func pollWaitsForCheck(now: UInt64) -> Bool {
        checkDeadline.map { nextPoll > $0 || now > $0 } ?? false
    }

    /// Handles notifications until `count` have arrived since launch, or `timeoutNanos` passed.
    func settle(deliveries count: Int, timeoutNanos: UInt64 = 10_000_000_000) {
        let deadline = MonotonicClock.now() + timeoutNanos
        handleNotifications()
        // Notifications a waiting check or purge holds back count as arrived: they are here, handled after it.
        while receivedNotifications + (checkDeadline == nil && !pendingPurge ? 0 : inbox.count) < count {
            let now = MonotonicClock.now()
            guard now < deadline else {
                record(.warning("received \(receivedNotifications) of the \(count) notifications the hub sent it within 10 s"))
                return
            }
            let ready = waitReadable([inbox.readDescriptor], timeoutNanos: min(deadline - now, pollTimeout() ?? .max))
            if !ready.isEmpty { handleNotifications() }
            pollIfDue()
        }
    }
}
