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

    /// A step's command that yielded, with nothing else of the file able to run before it ends: the timers
    /// due meanwhile fire (none releases a lock held across steps), and at the busy timeout it is asked
    /// once more, to fail with `busy` if the lock is still held.
    func waitForLock(_ command: AgentCommand, on slot: ProcessSlot, expectError: ErrorKind?) throws(HarnessFailure) -> AgentReply {
        noteWaitingForLock(slot)
        try advanceTime(to: lockDeadline(of: slot))
        return try runner.send(command, to: slot, expectError: expectError, lockWaits: .fail)
    }

    /// The children run one at a time, in an order the strategy picks, each starting before any
    /// notification another posts is handled (the runner holds them back for the step). A command that
    /// meets a lock waits while the next children run, and is asked again after each, until its busy
    /// timeout passes with the lock still held (then it fails with `busy`, a timeout of 0 at once); a later
    /// step of the same process (a sequence's next) waits behind it, as in real time. Those still waiting
    /// when every other child is done wait out their busy timeout in virtual time.
    func runTogether(_ step: ParallelStep) throws(HarnessFailure) {
        var waiting: [(sent: ParallelStep.Sent, deadline: UInt64)] = []
        /// The processes whose waiting command waits behind their own refresh's lock wait (its deadline).
        var behindRefresh: Set<String> = []
        /// Checks with `within:` that have not matched yet, asked again after each step of the others.
        var checking: [ParallelStep.Sent] = []
        /// Steps of a process whose command waits on a lock or a check, in order, run once it is done.
        var behind: [String: [RunPlan.PlannedStep]] = [:]
        func isWaiting(_ process: String) -> Bool {
            waiting.contains { $0.sent.slot.name == process } || checking.contains { $0.slot.name == process }
        }
        func completed(_ process: String) throws(HarnessFailure) {
            while !isWaiting(process), var queue = behind[process], !queue.isEmpty {
                let next = queue.removeFirst()
                behind[process] = queue.isEmpty ? nil : queue
                try run(next, queued: true)
            }
        }
        /// A waiting command answered at last: a check that did not match yet is asked again (it waited
        /// behind its refresh's lock wait); anything else is done.
        func answered(_ again: ParallelStep.Sent, _ reply: AgentReply) throws(HarnessFailure) {
            if again.asksAgain(after: reply) {
                checking.append(again)
            } else {
                step.complete(again, with: reply)
                try completed(again.slot.name)
            }
        }
        /// Asks each waiting command again; one whose busy timeout has passed is asked to fail with `busy`
        /// if the lock is still held. With `onlyExpired`, the others are left waiting as they are.
        func retryWaiting(onlyExpired: Bool = false) throws(HarnessFailure) {
            if !onlyExpired {
                try retryBackgroundWaits()
                try recheck()
            }
            var index = 0
            while index < waiting.count {
                let expired = waiting[index].deadline <= time.now
                if onlyExpired && !expired {
                    index += 1
                    continue
                }
                let again = try step.resend(waiting[index].sent, lockWaits: expired ? .fail : .yield)
                let reply = try runner.awaitReply(again.seq, from: again.slot, timeout: runner.timeout(for: again.child.step.step, again.slot))
                if reply.status == .blocked {
                    // The refresh it waited behind is done and the command itself meets the lock now: its
                    // own busy timeout starts, as SQLite's busy handler starts afresh for it.
                    if reply.lockWaitPending != true && backgroundWaits[again.slot.name] == nil && behindRefresh.remove(again.slot.name) != nil {
                        waiting[index].deadline = lockDeadline(of: again.slot)
                    }
                    index += 1
                } else {
                    waiting.remove(at: index)
                    try answered(again, reply)
                    index = 0
                }
            }
        }
        /// Asks each check again, the last time once its deadline has passed.
        func recheck() throws(HarnessFailure) {
            var index = 0
            while index < checking.count {
                askingAgain = true
                defer { askingAgain = false }
                let again = try step.recheck(checking[index], lockWaits: .yield)
                let reply = try runner.awaitReply(again.seq, from: again.slot, timeout: runner.timeout(for: again.child.step.step, again.slot))
                if reply.status == .blocked {
                    // A refresh its process ran before the check met the lock: the check waits behind it.
                    checking.remove(at: index)
                    noteWaitingForLock(again.slot)
                    if reply.lockWaitPending == true { behindRefresh.insert(again.slot.name) }
                    waiting.append((again, lockDeadline(of: again.slot)))
                } else if again.asksAgain(after: reply) {
                    checking[index] = again
                    index += 1
                } else {
                    checking.remove(at: index)
                    step.complete(again, with: reply)
                    try completed(again.slot.name)
                }
            }
        }
        /// When each branch's step before the next one ended (the step's start at first): a branch's `sleep`
        /// ends that long after it, as a timer of that branch, whatever the others ran meanwhile.
        let began = time.now
        var branchEnd: [Int: UInt64] = [:]
        /// What each `sleep` child (by position) waited in virtual time, written out so a replay as written waits as much.
        var slept: [Int: UInt64] = [:]
        func runInline(_ child: RunPlan.PlannedStep, position: Int?) throws(HarnessFailure) {
            guard !parallelAsWritten, case .sleep(let duration) = child.step.step, let branch = step.branchOf[child.index] else {
                return try step.runInline(child)
            }
            // A workload's pacing sleep lasts until its operation's moment, counted from the parallel's start.
            sleepEnd = child.paceOffset.map { began.addingClamped($0) } ?? branchEnd[branch, default: began].addingClamped(duration.nanos)
            defer { sleepEnd = nil }
            try step.runInline(child)
            if let position { slept[position] = sleptNanos }
        }
        func run(_ child: RunPlan.PlannedStep, queued: Bool = false, position: Int? = nil) throws(HarnessFailure) {
            // A command whose busy timeout passed while the steps before this one ran, with the lock still
            // held after them, has failed by now, as SQLite's busy handler gives up at the timeout.
            try retryWaiting(onlyExpired: true)
            if let process = child.step.process, isWaiting(process) || (!queued && behind[process] != nil) {
                behind[process, default: []].append(child)
                return
            }
            guard let (slot, command) = step.command(for: child, besides: waiting.map(\.sent.slot.name)) else {
                try runInline(child, position: position)
                try retryWaiting()
                return
            }
            let sent = try step.send(command, for: child, to: slot, lockWaits: lockWaits(for: command))
            let reply = try runner.awaitReply(sent.seq, from: slot, timeout: runner.timeout(for: child.step.step, slot))
            if reply.status == .blocked {
                noteWaitingForLock(slot)
                if reply.lockWaitPending == true { behindRefresh.insert(slot.name) }
                waiting.append((sent, lockDeadline(of: slot)))
                return
            }
            if sent.asksAgain(after: reply) {
                checking.append(sent)
                return
            }
            step.complete(sent, with: reply)
            try retryWaiting()
        }
        let outer = lockDeadlines
        lockDeadlines = (next: { waiting.map(\.deadline).min() }, expire: { () throws(HarnessFailure) in try retryWaiting(onlyExpired: true) })
        defer { lockDeadlines = outer }
        for (position, child) in step.children.enumerated() {
            try run(child, position: position)
            if let branch = step.branchOf[child.index] { branchEnd[branch] = time.now }
        }
        // The sleeps as they waited: a replay as written (where a sleep holds back what follows it) waits the same.
        if !slept.isEmpty, runner.runningTogether == 1 {
            runner.executed.rewriteCurrent { written in
                guard case .parallel(var children) = written.step else { return }
                for (position, nanos) in slept where children.indices.contains(position) {
                    children[position].step = .sleep(Duration(microseconds: Int64(clamping: (nanos + 999) / 1000)))
                }
                written.step = .parallel(children)
            }
        }
        // Checks still to match: time passes to the first moment one could (a notification waiting for
        // its process, a timer, a deadline) while locks are waited on as below.
        while !checking.isEmpty || !waiting.isEmpty {
            if !checking.isEmpty {
                if !checking.contains(where: { holding[$0.slot.name] == nil && scripted.hasPending(for: $0.slot.name) }) {
                    let due = (waiting.map(\.deadline) + checking.compactMap(\.checkDeadline) + [nextTimer()].compactMap { $0 }).min() ?? time.now
                    try advanceTime(to: Swift.max(due, time.now))
                }
                try retryWaiting()
                continue
            }
            // Nothing else of the step can let go of a lock: each waits out its timeout, then fails or goes on.
            guard let first = waiting.indices.min(by: { waiting[$0].deadline < waiting[$1].deadline }) else { break }
            let (sent, deadline) = waiting.remove(at: first)
            try advanceTime(to: deadline)
            let again = try step.resend(sent, lockWaits: .fail)
            try answered(again, runner.awaitReply(again.seq, from: again.slot, timeout: runner.timeout(for: again.child.step.step, again.slot)))
            try retryWaiting()
        }
    }
}
