import Agent
import Basics
import ScenarioModel
import Trace

// The deterministic mode's scheduling: nothing happens in an agent unless the runner asks for it.
// Between steps the runner fires the timers that are due (poll refreshes, the hub's delayed deliveries
// and drop windows) and, at points the seed chooses, hands a process the notifications routed to it;
// whatever is still held for a process is handed over with its next request, before the step, as the
// real-time runner waits for what was delivered before it sent a step. Time moves only when the runner
// moves it: by the agents' own readings, to a timer that is due, or to a deadline nothing else precedes.

extension ScenarioRunner {
    /// Before a step: what is due now runs, and each process with notifications waiting gets them
    /// now or later (with its next request), as the seed chooses.
    func schedulingPoint() throws(HarnessFailure) {
        guard let scriptedHub else { return }
        try fireDueTimers()
        for slot in orderedSlots where slot.canTakeCommands && scriptedHub.hasPending(for: slot.name) {
            guard schedule.next(below: 2) == 0 else { continue }
            try send(.handleNotifications, to: slot)
            executed.append(ScenarioStep(location: currentStep?.step.location ?? plan.steps.first?.step.location
                                             ?? SourceLocation(file: plan.run.file, line: 1, column: 1),
                                         process: slot.name, step: .deliver))
        }
    }

    /// Moves virtual time to `target`, firing every timer due on the way, in time order.
    func advanceTime(to target: UInt64) throws(HarnessFailure) {
        while let next = nextTimer(), next <= target {
            clock.advance(to: next)
            try fireDueTimers()
        }
        clock.advance(to: target)
    }

    /// The earliest pending timer: a running process's poll, or the hub's next deadline.
    func nextTimer() -> UInt64? {
        let polls = orderedSlots.filter(\.canTakeCommands).compactMap { nextPoll[$0.name] }
        return (polls + [scriptedHub?.nextDeadline].compactMap { $0 }).min()
    }

    /// Fires what is due now: the hub's deadlines, then each running process's poll refresh.
    func fireDueTimers() throws(HarnessFailure) {
        guard let scriptedHub else { return }
        while let deadline = scriptedHub.nextDeadline, deadline <= clock.current {
            scriptedHub.tick(at: deadline)
        }
        for slot in orderedSlots where slot.canTakeCommands {
            guard let due = nextPoll[slot.name], due <= clock.current else { continue }
            try send(.timerRefresh, to: slot)
            // The agent polls again an interval after it polled, as its own timer would.
            nextPoll[slot.name] = clock.current &+ slot.process.settings.pollInterval.nanos
        }
    }

    /// Arms the poll timer of a process that just launched (`trigger: poll`).
    func armPollTimer(_ slot: ProcessSlot) {
        guard clock.isVirtual, slot.process.settings.trigger == .poll else { return }
        nextPoll[slot.name] = clock.current &+ slot.process.settings.pollInterval.nanos
    }

    /// A `read` or `count` with `within`, in the deterministic mode: read; while the view does not
    /// match and the deadline has not passed, let happen what could change it (a notification routed to
    /// the process, a timer) and read again; with nothing left before the deadline, time jumps to it and
    /// the last read decides.
    func sendCheck(_ command: AgentCommand, within: UInt64, to slot: ProcessSlot,
                   expectError: ErrorKind?) throws(HarnessFailure) -> AgentReply {
        let (deadline, overflow) = clock.current.addingReportingOverflow(within)
        let end = overflow ? UInt64.max : deadline
        var last = within == 0
        while true {
            let reply = try send(command, to: slot, expectError: expectError, lastAttempt: last)
            if last || reply.matched != false || reply.status != .ok { return reply }
            if scriptedHub?.hasPending(for: slot.name) != true {
                if let next = nextTimer(), next <= end {
                    clock.advance(to: next)
                    try fireDueTimers()
                } else {
                    clock.advance(to: end)
                }
            }
            last = clock.current >= end
        }
    }

    /// The order in which the children of a `parallel` step run, one at a time: drawn from the seed.
    func serializedOrder<T>(_ children: [T]) -> [T] {
        var order = children
        // Fisher-Yates with the run's schedule, so the order is a function of the seed.
        var index = order.count
        while index > 1 {
            let pick = Int(schedule.next(below: UInt64(index)))
            index -= 1
            order.swapAt(index, pick)
        }
        return order
    }
}
