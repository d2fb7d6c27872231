import Agent
import Basics
import ScenarioModel
import Trace

/// The children of a `parallel` step, as the runner runs them together for its environment: which child
/// is a command for a running agent (sent, then answered whenever its reply comes) and which runs inline,
/// in order (a lifecycle or control step, an App Intent's step, a second step of one process); and what
/// the runner records when a command is sent and when its reply is in.
final class ParallelStep {
    /// A command sent for a child, until its reply is in.
    struct Sent {
        var child: RunPlan.PlannedStep
        var slot: ProcessSlot
        var command: AgentCommand
        var seq: Int
        /// When the command was sent (a copy is verified against what was committed before it).
        var sentAt: UInt64
        /// For a check with `within:`, when its last attempt is due (from the first attempt's start).
        var checkDeadline: UInt64?

        /// Whether `reply` leaves the check to be asked again: it did not match, and its deadline has
        /// not passed (the attempt that did was sent as the last).
        func asksAgain(after reply: AgentReply) -> Bool {
            checkDeadline != nil && reply.matched == false && reply.status == .ok && !lastAttempt
        }

        /// Whether the attempt in flight was sent as the last.
        var lastAttempt = false
        /// Whether a write leaves its transaction open until `commit(_:)` (`AgentRequest.holdsCommit`).
        var holdsCommit = false
    }

    /// The children, in the order the environment runs them.
    let children: [RunPlan.PlannedStep]
    private unowned let runner: ScenarioRunner

    /// Per process, its steps that start this `parallel`'s branches not yet started; the hub holds the
    /// process's notifications until all have (`started(_:)`).
    private var unstarted: [String: Int] = [:]
    /// The children that start a branch, by index: those the hold waits for.
    private var first: [Int: RunPlan.PlannedStep] = [:]
    /// The children `started(_:)` has counted.
    private var begun: Set<Int> = []
    /// Each child's branch, by its index: the number of its sequence (or of itself) as the file wrote them.
    let branchOf: [Int: Int]
    /// - Parameters:
    ///   - children: the children in the order the environment runs them (the deterministic mode
    ///     interleaves the branches' steps into one list);
    ///   - written: the children as the file wrote them, whose branches say which steps start together.
    init(children: [RunPlan.PlannedStep], written: [RunPlan.PlannedStep], runner: ScenarioRunner) {
        self.children = children
        self.runner = runner
        // Only a branch's first step starts with the others: a later one starts after the steps before it
        // in its branch, and what siblings posted meanwhile may reach its process first, as in real time
        // (a `within:` check first in a branch saw nothing until the step after it started).
        // As written (a schedule explore wrote out), a `sleep` among the children holds back those after it:
        // they start later, not with the others.
        var branchOf: [Int: Int] = [:]
        for (number, branch) in Self.branches(of: written).enumerated() {
            for child in branch { branchOf[child.index] = number }
        }
        self.branchOf = branchOf
        let asWritten = runner.plan.schedule.strategy == .asWritten
        let held = asWritten ? written.firstIndex { if case .sleep = $0.step.step { true } else { false } } : nil
        for branch in Self.branches(of: held.map { Array(written[..<$0]) } ?? written) {
            guard let start = branch.first else { continue }
            first[start.index] = start
            for process in start.step.processesInvolved { unstarted[process, default: 0] += 1 }
        }
    }

    /// The processes whose notifications the hub holds for this step.
    var held: [String] { unstarted.keys.sorted() }

    /// Notes that `child` is under way (its command answered once, or its inline run begun): a process whose
    /// steps that start a branch are all under way gets the notifications held for it, as they arrive
    /// while its steps run (a check with `within:` among them sees a sibling's save). The runner lets
    /// the rest go when the step is done.
    func started(_ child: RunPlan.PlannedStep) {
        guard first[child.index] != nil, begun.insert(child.index).inserted else { return }
        for process in child.step.processesInvolved {
            guard let left = unstarted[process] else { continue }
            if left <= 1 {
                unstarted[process] = nil
                runner.hub.release(process)
            } else {
                unstarted[process] = left - 1
            }
        }
    }

    /// Notes that a check of `process` with `within:` is under way: its other steps that start a branch, if
    /// all run inline (a lifecycle change), wait for the check to be decided, so the notifications held for
    /// them reach the process while the check reads, as they would on a device. Held until the `suspend`
    /// beside it, a sibling's save never reached the check, in either mode.
    private func checkUnderWay(in process: String) {
        guard unstarted[process] != nil else { return }
        let waiting = first.filter { !begun.contains($0.key) && Self.involved(in: $0.value).contains(process) }.values
        guard waiting.allSatisfy({ command(for: $0, besides: []) == nil }) else { return }
        unstarted[process] = nil
        runner.hub.release(process)
    }

    /// Whether the hub holds back the notifications of `child`'s process until `child` is under way:
    /// it starts a branch, and its process has such a step not yet under way.
    func holdsNotifications(until child: RunPlan.PlannedStep) -> Bool {
        first[child.index] != nil && !begun.contains(child.index)
            && child.step.processesInvolved.contains { unstarted[$0] != nil }
    }

    /// The children as branches: a sequence's steps, in order; any other child alone.
    var branches: [[RunPlan.PlannedStep]] { Self.branches(of: children) }

    /// `children` as branches: a sequence's steps, in order; any other child alone.
    static func branches(of children: [RunPlan.PlannedStep]) -> [[RunPlan.PlannedStep]] {
        children.map { child in
            if case .sequence = child.step.step { child.children } else { [child] }
        }.filter { !$0.isEmpty }
    }

    /// The agent and command of `child` when it is a command for a running agent that no command in
    /// `busy` already occupies; nil for a child that runs inline.
    func command(for child: RunPlan.PlannedStep, besides busy: [String]) -> (ProcessSlot, AgentCommand)? {
        guard let process = child.step.process, !busy.contains(process),
              let slot = runner.slots[process], slot.canTakeCommands, !slot.process.settings.role.isPerformed,
              child.step.step != .deliver,
              let command = runner.command(for: child.step.step, on: slot) else { return nil }
        // A workload's read is judged as one (with the stale tolerance), as outside `parallel`.
        if child.workloadOperation, case .read(let id, _, _) = child.step.step {
            return (slot, .perform(.read(id: id, expectation: nil, timing: .now), workload: true))
        }
        return (slot, command)
    }

    /// Records the start of `child` and writes its command.
    func send(_ command: AgentCommand, for child: RunPlan.PlannedStep, to slot: ProcessSlot,
              lockWaits: LockWaitHandling? = nil, holdsCommit: Bool = false) throws(HarnessFailure) -> Sent {
        runner.currentStep = child
        runner.record(.stepStarted)
        let sentAt = runner.time.reading()
        runner.commandContext = child.step.context.map { ($0, nil, nil) }
        defer { runner.commandContext = nil }
        // A check's deadline counts from its first attempt's start, as outside `parallel`.
        let within = command.checkWithin ?? 0
        let deadline = within == 0 ? nil : Optional(sentAt.addingClamped(within))
        let seq = try runner.write(command, to: slot, expectError: child.step.expectError,
                                   lastAttempt: deadline == nil ? nil : false, lockWaits: lockWaits,
                                   checkDeadline: deadline, holdsCommit: holdsCommit)
        if let deadline { slot.openCheckDeadline = deadline }
        return Sent(child: child, slot: slot, command: command, seq: seq, sentAt: sentAt, checkDeadline: deadline,
                    holdsCommit: holdsCommit)
    }

    /// Commits the write `sent` left open (its reply said `commitHeld`), under the same step, and returns
    /// the reply, which says what the write inserted and deleted.
    func commit(_ sent: Sent) throws(HarnessFailure) -> AgentReply {
        runner.currentStep = sent.child
        // No expected error: the write's own reply has answered that.
        let seq = try runner.write(.commitHeld, to: sent.slot, expectError: nil)
        return try runner.awaitReply(seq, from: sent.slot, timeout: runner.timeout(for: sent.child.step.step, sent.slot))
    }

    /// Asks a check again (its last attempt once its deadline has passed), under the same step.
    func recheck(_ sent: Sent, lockWaits: LockWaitHandling? = nil) throws(HarnessFailure) -> Sent {
        // Its first answer is in: what others saved may reach it before it is asked again.
        started(sent.child)
        checkUnderWay(in: sent.slot.name)
        runner.currentStep = sent.child
        runner.commandContext = sent.child.step.context.map { ($0, nil, nil) }
        defer { runner.commandContext = nil }
        var again = sent
        again.lastAttempt = runner.time.now >= (sent.checkDeadline ?? 0)
        again.seq = try runner.write(sent.command, to: sent.slot, expectError: sent.child.step.expectError,
                                     lastAttempt: again.lastAttempt, lockWaits: lockWaits, checkDeadline: sent.checkDeadline)
        return again
    }

    /// Whether `child`, which runs inline, may run while the commands of the processes in `busy` are in
    /// flight: a step of named processes none of which is busy, and none an App Intent (which runs in
    /// whichever process carries it), a clock advance, or a fault on the hub's deliveries. Another control
    /// step waits for every command in flight.
    func mayRunInline(_ child: RunPlan.PlannedStep, besides busy: [String]) -> Bool {
        !Self.waitsForEveryCommand(child, runner: runner) && Self.involved(in: child).allSatisfy { !busy.contains($0) }
    }

    /// Whether `child`, run inline, waits for every command of the `parallel` in flight: an App Intent's
    /// step (it runs in whichever process carries it) or a control step; not a clock advance or a fault on
    /// the hub's deliveries, which act at their turn, nor a step of a process of the file's own.
    static func waitsForEveryCommand(_ child: RunPlan.PlannedStep, runner: ScenarioRunner) -> Bool {
        switch child.step.step {
        case .advanceClock:
            // Written to every agent without a reply, each applying it after what it is doing: it need not
            // wait for the commands in flight (as the deterministic mode runs it at its turn).
            return false
        case .fault(.dropNotifications), .fault(.delayNotifications), .fault(.holdNotifications):
            // The hub's, not a process's: in effect from its turn, beside a save in flight whose
            // notification it then drops, delays or holds, as the deterministic mode applies it.
            return false
        default:
            let involved = involved(in: child)
            return involved.isEmpty || !involved.allSatisfy { process in
                runner.slots[process].map { !$0.process.settings.role.isPerformed } ?? false
            }
        }
    }

    /// The processes `child` involves; a `crash` fault is armed in its process, which takes it once its
    /// command in flight is answered.
    static func involved(in child: RunPlan.PlannedStep) -> Set<String> {
        if case .fault(.crash(let process, _)) = child.step.step { return [process] }
        return child.step.processesInvolved
    }

    /// Runs `child` inline (a lifecycle or control step), noting its start.
    func runInline(_ child: RunPlan.PlannedStep) throws(HarnessFailure) {
        started(child)
        try runner.execute(child)
    }

    /// Writes a command again (after it yielded on a lock), under the same step.
    func resend(_ sent: Sent, lockWaits: LockWaitHandling?) throws(HarnessFailure) -> Sent {
        runner.currentStep = sent.child
        runner.commandContext = sent.child.step.context.map { ($0, nil, nil) }
        defer { runner.commandContext = nil }
        var again = sent
        // A check that waited behind a lock keeps its deadline, counted from its first attempt.
        again.lastAttempt = sent.checkDeadline.map { runner.time.now >= $0 } ?? false
        again.seq = try runner.write(sent.command, to: sent.slot, expectError: sent.child.step.expectError,
                                     lastAttempt: sent.checkDeadline == nil ? nil : again.lastAttempt, lockWaits: lockWaits,
                                     checkDeadline: sent.checkDeadline, holdsCommit: sent.holdsCommit)
        return again
    }

    /// Records what the runner does once `sent`'s reply is in, and the end of its step.
    func complete(_ sent: Sent, with reply: AgentReply) {
        started(sent.child)
        if sent.checkDeadline != nil { sent.slot.openCheckDeadline = nil }
        runner.currentStep = sent.child
        runner.afterReply(reply, to: sent.child.step.step, from: sent.slot, sentAt: sent.sentAt)
        runner.record(.stepEnded(reply.error))
        // A workload's failed save is rolled back, and the workload goes on, as outside `parallel`.
        if sent.child.workloadOperation, reply.error != nil, sent.command.step == .save, sent.slot.canTakeCommands {
            _ = try? runner.send(.perform(.rollback), to: sent.slot)
        }
    }
}
