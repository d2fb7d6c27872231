import Agent
import Basics
import Trace

// Lock waits that do not hold the runner: a refresh a process runs on its own (for notifications handed
// over between two other steps, or a poll) whose write (a history purge) meets another process's lock.
// In real time the process's run loop waits in SQLite's busy handler while the runner goes on and the
// holder may let go; here the agent yields, says so (`AgentReply.lockWaitPending`), and the runner asks
// it again after each step, until the lock is free or the busy timeout passes with it still held.

extension VirtualEnvironment {
    /// When the lock wait a command of `slot` meets now gives up: the process's background wait's busy
    /// timeout when it already waits (the command waits behind that wait), else its busy timeout from now.
    func lockDeadline(of slot: ProcessSlot) -> UInt64 {
        backgroundWaits[slot.name] ?? time.now.addingClamped(slot.process.settings.busyTimeout.nanos)
    }

    /// Records in the trace that `slot`'s process waits for another process's write lock.
    func noteWaitingForLock(_ slot: ProcessSlot) {
        runner.record(.note("\(slot.name) waits for the store's write lock, held by another process"), as: slot.name)
    }

    /// Notes from a reply whether its process now waits for a lock in the background, or no longer does.
    func noteLockWait(_ reply: AgentReply, from slot: ProcessSlot) {
        if reply.lockWaitPending == true {
            guard backgroundWaits[slot.name] == nil else { return }
            backgroundWaits[slot.name] = lockDeadline(of: slot)
            noteWaitingForLock(slot)
        } else if reply.status != .blocked {
            backgroundWaits[slot.name] = nil
        }
    }

    /// Asks each process that waits in the background again (after a step, which may have let the lock go):
    /// one whose busy timeout has passed fails with `busy` if the lock is still held.
    func retryBackgroundWaits() throws(HarnessFailure) {
        for name in backgroundWaits.keys.sorted() {
            try askAgain(name, expired: backgroundWaits[name].map { $0 <= time.now } ?? false)
        }
    }

    /// The background waits whose busy timeout has passed: each fails with `busy` if the lock is still held.
    func expireBackgroundWaits() throws(HarnessFailure) {
        for name in backgroundWaits.keys.sorted() where backgroundWaits[name].map({ $0 <= time.now }) ?? false {
            try askAgain(name, expired: true)
        }
    }

    /// A request without lock waits (a lifecycle change, the final view) to a process that waits in the
    /// background: it is taken once the wait is over, as its run loop is busy until then in real time.
    func beforeRequest(_ command: AgentCommand, lockWaits: LockWaitHandling?, to slot: ProcessSlot) throws(HarnessFailure) {
        // Inside `parallel` the holder may be a sibling still to act: the request goes beside the wait.
        guard lockWaits == nil, command != .awaitLock, runner.runningTogether == 0 else { return }
        // A clock advance is written without a reply, and applied whenever the agent reads it.
        if case .advanceClock = command { return }
        try waitOutLockWaits(of: slot)
    }

    /// Outside `parallel`, nothing else acts while `slot`'s process waits for a lock: each wait ends at its
    /// busy timeout, and a refresh after it that meets the lock waits in turn (its notifications were
    /// handled once the purge failed).
    private func waitOutLockWaits(of slot: ProcessSlot) throws(HarnessFailure) {
        while slot.canTakeCommands, let deadline = backgroundWaits[slot.name] {
            try advanceTime(to: deadline)
            // Each wait ends later than the one before; one that does not (its process could not be asked
            // again) ends this one too.
            guard let next = backgroundWaits[slot.name], next > deadline else { return }
        }
    }

    /// A `deliver` outside `parallel` whose refresh's purge waits for a lock: nothing else acts until its
    /// reply in real time, so the lock is not let go; each wait ends at its busy timeout, and a refresh
    /// after it that meets the lock waits in turn.
    func waitForRefreshes(of slot: ProcessSlot) throws(HarnessFailure) {
        guard runner.runningTogether == 0 else { return }
        try waitOutLockWaits(of: slot)
    }

    private func askAgain(_ name: String, expired: Bool) throws(HarnessFailure) {
        guard let slot = runner.slots[name], slot.child != nil else {
            backgroundWaits[name] = nil
            return
        }
        // A suspended process waits on where it stopped; it is asked again once it runs.
        guard slot.canTakeCommands else { return }
        // An expired wait ends with this request, whatever it answers: a refresh that waited behind it and
        // meets the lock in turn starts a wait of its own, with its own busy timeout (`noteLockWait`).
        if expired { backgroundWaits[name] = nil }
        _ = try runner.send(.awaitLock, to: slot, lockWaits: expired ? .fail : .yield)
    }
}
