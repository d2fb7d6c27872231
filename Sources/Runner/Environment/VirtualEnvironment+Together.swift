import Agent
import Basics
import ScenarioModel
import Trace

// Steps that run together, and lock waits, in the deterministic mode. One agent acts at a time, so a
// command that meets another process's lock would wait for a holder that cannot act: instead it yields
// (changes nothing and says so), and the runner waits in virtual time while the others take their
// steps, asking again after each, until the holder lets go or the busy timeout passes with the lock
// still held. A `busy` then comes only from a lock really held across the timeout, as in real time.

extension VirtualEnvironment {
    /// Every step's command may yield on a lock: one that takes the write lock first does when it meets it
    /// (`AgentCommand.yieldsOnLockWait`; others wait as SQLite does), and any does when a refresh the
    /// notifications handed over with it run meets it (a history refresh's purge), before the command runs.
    func lockWaits(for command: AgentCommand) -> LockWaitHandling? {
        .yield
    }

    /// A step's command that yielded (one that holds the runner: outside `parallel`, or an App Intent's or a
    /// push's work inside one): the timers due meanwhile fire, and at the busy timeout it is asked once
    /// more, to fail with `busy` if the lock is still held. Inside `parallel` a sibling's write holding its
    /// commit lets the lock go at its moment (`lockDeadlines`): the command is asked again after each such
    /// moment, and goes on once it gets the lock, as SQLite's busy handler retries.
    ///
    /// A command that waits behind its process's purge (`backgroundWaits`) waits out that wait first: at its
    /// timeout the purge fails and the process's next refresh may wait afresh, which the command waits
    /// behind too; once none is left, the command meets the lock itself, with a busy timeout of its own.
    func waitForLock(_ command: AgentCommand, on slot: ProcessSlot, expectError: ErrorKind?) throws(HarnessFailure) -> AgentReply {
        noteWaitingForLock(slot)
        var deadline = lockDeadline(of: slot)
        var behindPurge = backgroundWaits[slot.name] != nil
        while true {
            while try passLockMoment(before: deadline) {
                let reply = try runner.send(command, to: slot, expectError: expectError, lockWaits: .yield)
                if reply.status != .blocked { return reply }
            }
            try advanceTime(to: deadline)
            guard behindPurge else { break }
            // The purge's wait ended at its timeout (`expireBackgroundWaits`): the command tries again.
            let reply = try runner.send(command, to: slot, expectError: expectError, lockWaits: .yield)
            if reply.status != .blocked { return reply }
            behindPurge = backgroundWaits[slot.name] != nil
            // Each wait ends later than the one before; one that does not (its process could not be asked
            // again) ends this one too.
            let next = lockDeadline(of: slot)
            guard next > deadline else { break }
            deadline = next
        }
        return try runner.send(command, to: slot, expectError: expectError, lockWaits: .fail)
    }

    /// Inside `parallel`, moves time to the next moment before `end` at which a held write commits or a
    /// sibling's wait gives up, and carries it out; false when there is none. What that runs is other
    /// children's: the running step is restored after it, and a wait among them does not pass through
    /// these moments again from inside this one.
    func passLockMoment(before end: UInt64) throws(HarnessFailure) -> Bool {
        guard let hook = lockDeadlines, let next = hook.next(), next < end else { return false }
        try advanceTime(to: next)
        try settleTogether()
        return true
    }

    /// Inside `parallel`, carries out what is due by now among the other children (commits, waits giving
    /// up, deliveries, checks asked again): after a timer fired during a sibling's `sleep`, a poll's
    /// refresh may have changed what a check sees, which real time's check sees at its next poll.
    func settleTogether() throws(HarnessFailure) {
        guard let hook = lockDeadlines else { return }
        let step = runner.currentStep
        lockDeadlines = nil
        defer {
            lockDeadlines = hook
            runner.currentStep = step
        }
        try hook.expire()
    }

    /// The children run one at a time, in an order the strategy picks, overlapping as in real time where
    /// it matters (`TogetherRun`: held commits, lock waits, checks asked again).
    /// A launch among the children lasts what it costs in virtual time while the others act (`TogetherRun`).
    var launchesBeside: Bool { false }

    func whileLaunching(_ slot: ProcessSlot) throws(HarnessFailure) {}

    /// The agents act one at a time: nothing is in flight beside a wait.
    func commandsInFlight(besides process: String) -> [ParallelStep.Sent] { [] }

    /// Passes every moment by now at which a sibling's held write commits or its wait gives up: a reload's
    /// launch took 40 ms of virtual time at once, and its fetch then read the store without a sibling's save
    /// due 3 ms into it, which real time had committed long before.
    /// Only what was under way goes on (a held write commits, a waiting one gets the lock): no sibling's step
    /// starts and no check is asked again meanwhile (`catchingUp`), as real time starts nothing while the
    /// system's work runs inline.
    func catchUpBesideSystemWork() throws(HarnessFailure) {
        catchingUp = true
        defer { catchingUp = false }
        while try passLockMoment(before: time.now.addingClamped(1)) {}
    }

    func runTogether(_ step: ParallelStep) throws(HarnessFailure) {
        let together = TogetherRun(step, in: self)
        try together.run()
        let slept = together.slept
        let delays = together.delays
        // The sleeps as they waited, and a sleep before each child the strategy held back until siblings
        // committed (`TogetherRun.delays`): a replay as written (where a sleep holds back what follows it)
        // waits the same.
        if !slept.isEmpty || !delays.isEmpty, runner.runningTogether == 1 {
            func sleep(_ nanos: UInt64) -> Step { .sleep(Duration(microseconds: Int64(clamping: nanos / 1000 + (nanos % 1000 == 0 ? 0 : 1)))) }
            runner.executed.rewriteCurrent { written in
                guard case .parallel(var children) = written.step else { return }
                for (position, nanos) in slept where children.indices.contains(position) {
                    children[position].step = sleep(nanos)
                }
                for (position, delay) in delays.sorted(by: { $0.key > $1.key }) where children.indices.contains(position) {
                    var before = [ScenarioStep(location: .schedule, process: nil, step: sleep(delay.nanos))]
                    if let process = delay.held {
                        // Held as when it started with the others: nothing its siblings posted reaches it first.
                        children.insert(ScenarioStep(location: .schedule, process: process, step: .deliver), at: position + 1)
                        before.insert(ScenarioStep(location: .schedule, process: nil, step: .fault(.holdNotifications(process: process))), at: 0)
                    }
                    children.insert(contentsOf: before, at: position)
                }
                written.step = .parallel(children)
            }
        }
    }
}
