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
    /// Commands that take the write lock first yield on a lock; others wait as SQLite does.
    func lockWaits(for command: AgentCommand) -> LockWaitHandling? {
        command.yieldsOnLockWait ? .yield : nil
    }

    /// A step's command that yielded, with nothing else of the file able to run before it ends: the timers
    /// due meanwhile fire (none releases a lock held across steps), and at the busy timeout it is asked
    /// once more, to fail with `busy` if the lock is still held.
    func waitForLock(_ command: AgentCommand, on slot: ProcessSlot, expectError: ErrorKind?) throws(HarnessFailure) -> AgentReply {
        runner.record(.note("\(slot.name) waits for the store's write lock, held by another process"), as: slot.name)
        let (deadline, overflow) = time.now.addingReportingOverflow(slot.process.settings.busyTimeout.nanos)
        try advanceTime(to: overflow ? .max : deadline)
        return try runner.send(command, to: slot, expectError: expectError, lockWaits: .fail)
    }

    /// The children run one at a time, in an order the strategy picks, each starting before any
    /// notification another posts is handled (the runner holds them back for the step). A command that
    /// meets a lock waits while the next children run, and is asked again after each; those still
    /// waiting when every other child is done wait out their busy timeout in virtual time.
    func runTogether(_ step: ParallelStep) throws(HarnessFailure) {
        var waiting: [(sent: ParallelStep.Sent, deadline: UInt64)] = []
        func retryWaiting() throws(HarnessFailure) {
            var index = 0
            while index < waiting.count {
                let again = try step.resend(waiting[index].sent, lockWaits: .yield)
                let reply = try runner.awaitReply(again.seq, from: again.slot, timeout: runner.options.stepTimeout)
                if reply.status == .blocked {
                    index += 1
                } else {
                    waiting.remove(at: index)
                    step.complete(again, with: reply)
                }
            }
        }
        for child in step.children {
            guard let (slot, command) = step.command(for: child, besides: waiting.map(\.sent.slot.name)) else {
                try runner.execute(child)
                try retryWaiting()
                continue
            }
            let sent = try step.send(command, for: child, to: slot, lockWaits: lockWaits(for: command))
            let reply = try runner.awaitReply(sent.seq, from: slot, timeout: runner.options.stepTimeout)
            if reply.status == .blocked {
                runner.record(.note("\(slot.name) waits for the store's write lock, held by another process"), as: slot.name)
                let (deadline, overflow) = time.now.addingReportingOverflow(slot.process.settings.busyTimeout.nanos)
                waiting.append((sent, overflow ? .max : deadline))
                continue
            }
            step.complete(sent, with: reply)
            try retryWaiting()
        }
        // Nothing else of the step can let go of a lock: each waits out its timeout, then fails or goes on.
        while let first = waiting.indices.min(by: { waiting[$0].deadline < waiting[$1].deadline }) {
            let (sent, deadline) = waiting.remove(at: first)
            try advanceTime(to: deadline)
            let again = try step.resend(sent, lockWaits: .fail)
            step.complete(again, with: try runner.awaitReply(again.seq, from: again.slot, timeout: runner.options.stepTimeout))
            try retryWaiting()
        }
    }
}
