import Basics
import ScenarioModel
import Supervisor
import Trace

/// One `parallel` step run in real time: every branch's first command is sent, then the replies are
/// collected in whatever order they come, the agents acting at once.
///
/// A branch (a sequence's steps) sends its next step when the one before it is done. A `sleep` in a
/// branch holds back that branch alone while the others go on; a check with `within:` is asked again,
/// its branch waiting, until it matches or its deadline passes. A lifecycle step runs while the commands
/// of other processes are in flight (a crash beside a save waiting on the crashing process's lock), and
/// a launch lets the other branches go on while its process starts and opens its store
/// (`goOn(besideLaunchOf:)`), as an extension starting on a device delays no other process. Control steps,
/// and a step of a process another branch's command occupies, wait for the commands in flight and run in
/// order; the branches after them wait too.
final class RealTimeTogether {
    private let step: ParallelStep
    private unowned let runner: ScenarioRunner
    /// `schedule: as-written`: a `sleep` among the children holds back the children written after it.
    private let asWritten: Bool
    private let began = MonotonicClock.now()
    private let branches: [[RunPlan.PlannedStep]]
    /// Each branch's next step.
    private var next: [Int]
    /// Each branch's command in flight, and when it was sent.
    private var pending: [Int: ParallelStep.Sent] = [:]
    private var sentAt: [Int: ContinuousClock.Instant] = [:]
    private var timers: [Int: BranchTimer] = [:]
    /// The branch whose step runs inline now (a launch the others go on beside).
    private var inline: Int?

    init(_ step: ParallelStep, runner: ScenarioRunner, asWritten: Bool) {
        self.step = step
        self.runner = runner
        self.asWritten = asWritten
        branches = step.branches
        next = [Int](repeating: 0, count: branches.count)
    }

    /// Runs every child to its end.
    func run() throws(HarnessFailure) {
        // Where the next look at the branches begins: after the branch whose step last ran inline, so each
        // branch takes its turn (two App Intents' update-then-save interleave, as their processes would,
        // and as the deterministic mode runs them); as written, in the written order.
        var first = 0
        while true {
            if let b = try startBranches(from: first, inlineAllowed: true) {
                first = (b + 1) % branches.count
                continue
            }
            if pending.isEmpty && timers.isEmpty { return }
            try collectOne()
        }
    }

    /// While a process launches inline, the other branches take the steps they can without running one
    /// inline (a second launch, a control step wait for it), and what is due or answered is collected:
    /// a sibling's save goes ahead, a sibling's `sleep` ends on time, and a lock it let go is let go then.
    /// Only a `launch` step of the file does: a launch the system makes for a push, a reload or an App
    /// Intent holds the others back, as in the deterministic mode.
    func goOn(besideLaunchOf process: String) throws(HarnessFailure) {
        guard let b = inline, case .launch = branches[b][next[b]].step.step, branches[b][next[b]].step.process == process else { return }
        let step = runner.currentStep, context = runner.commandContext, expected = runner.lifecycleExpectError
        defer {
            runner.currentStep = step
            runner.commandContext = context
            runner.lifecycleExpectError = expected
        }
        _ = try startBranches(from: 0, inlineAllowed: false)
        try collectReady()
    }

    /// The commands in flight to processes other than `process`; none when `process` has one in flight
    /// too (`collectReply` reads them all in turn).
    func inFlight(besides process: String) -> [ParallelStep.Sent] {
        guard !pending.values.contains(where: { $0.slot.name == process }) else { return [] }
        return pending.keys.sorted().compactMap { pending[$0] }
    }

    /// Starts what each branch may start now, in turn from `first`; returns the branch whose step ran
    /// inline (the others wait for it to be looked at again), nil when none did.
    private func startBranches(from first: Int, inlineAllowed: Bool) throws(HarnessFailure) -> Int? {
        let order = asWritten ? Array(branches.indices) : Array(first..<branches.count) + Array(0..<first)
        // The processes of steps passed over in this pass (waiting for their process's check): a later
        // branch's step of one of them waits too, so a process's steps keep the order written.
        var passedOver: Set<String> = []
        for b in order where pending[b] == nil && timers[b] == nil && next[b] < branches[b].count && inline != b {
            // As written, a sleep still running holds back what is written after it.
            if asWritten, timers.contains(where: { $0.key < b && $0.value.isSleep }) { break }
            let child = branches[b][next[b]]
            if !ParallelStep.involved(in: child).isDisjoint(with: passedOver) { continue }
            if case .sleep(let duration) = child.step.step {
                runner.currentStep = child
                runner.record(.stepStarted)
                // A workload's pacing sleep ends at its operation's moment, counted from the parallel's start.
                timers[b] = .sleep(child, until: child.paceOffset.map { began.addingClamped($0) } ?? Self.deadline(after: duration.nanos))
                next[b] += 1
            } else if let (slot, command) = step.command(for: child, besides: pending.values.map(\.slot.name)) {
                pending[b] = try step.send(command, for: child, to: slot)
                sentAt[b] = .now
                next[b] += 1
            } else if !ParallelStep.involved(in: child).isDisjoint(with: rechecking) {
                // A step of a process whose check is under way (a lifecycle change) waits for the check to be
                // decided; the branches after it go on, as the deterministic mode lets them.
                passedOver.formUnion(ParallelStep.involved(in: child))
                continue
            } else if inlineAllowed, pending.isEmpty || step.mayRunInline(child, besides: pending.values.map(\.slot.name)) {
                inline = b
                defer { inline = nil }
                try step.runInline(child)
                next[b] += 1
                return b
            } else {
                break
            }
        }
        return nil
    }

    /// The processes whose check waits to be asked again: a step of theirs run inline (a lifecycle change)
    /// waits for the check to be decided, as the process could not be asked again after it.
    private var rechecking: Set<String> {
        Set(timers.values.compactMap { timer in
            if case .recheck(let sent, _) = timer { sent.slot.name } else { nil }
        })
    }

    /// What holds a branch back besides a command in flight: a `sleep` until its end, or a check that
    /// did not match yet, asked again at `at`.
    private enum BranchTimer {
        case sleep(RunPlan.PlannedStep, until: UInt64)
        case recheck(ParallelStep.Sent, at: UInt64)

        var due: UInt64 {
            switch self {
            case .sleep(_, let until): until
            case .recheck(_, let at): at
            }
        }

        var isSleep: Bool {
            if case .sleep = self { true } else { false }
        }
    }

    private static func deadline(after nanos: UInt64) -> UInt64 { MonotonicClock.now().addingClamped(nanos) }

    /// Waits for the first reply of the commands in flight, in whatever order they come, or the first
    /// timer due: a command that waits on another's lock must not wait for the runner to read that other
    /// reply first (an armed crash inside a save holds the write lock until the runner kills it).
    private func collectOne() throws(HarnessFailure) {
        while ProcessGuard.interruption == nil {
            if try fireTimer() { return }
            if pending.isEmpty, let due = timers.values.map(\.due).min() {
                // A timer may have come due since `fireTimer` read the clock: then no sleep at all.
                RealTimeEnvironment.sleep(nanos: due.subtractingClamped(MonotonicClock.now()))
                continue
            }
            if try collectReply() { return }
        }
        throw HarnessFailure(message: "interrupted")
    }

    /// Collects every timer due and every reply already in, without waiting for more.
    private func collectReady() throws(HarnessFailure) {
        while try fireTimer() {}
        while try collectReply() {}
    }

    /// Fires the earliest timer due, if any. A check is asked again only once its process has answered
    /// another branch's command sent meanwhile (an autosave between its attempts): a process takes one
    /// request at a time, and a second one in flight would have its reply taken for the first's.
    private func fireTimer() throws(HarnessFailure) -> Bool {
        let now = MonotonicClock.now()
        let busy = Set(pending.values.map(\.slot.name))
        guard let (b, timer) = timers.filter({ entry in
            guard entry.value.due <= now else { return false }
            if case .recheck(let sent, _) = entry.value { return !busy.contains(sent.slot.name) }
            return true
        }).min(by: { ($0.value.due, $0.key) < ($1.value.due, $1.key) })
        else { return false }
        timers[b] = nil
        switch timer {
        case .sleep(let child, _):
            runner.currentStep = child
            runner.record(.stepEnded(nil))
        case .recheck(let sent, _):
            pending[b] = try step.recheck(sent)
        }
        return true
    }

    /// Reads the first reply that is in (waiting a millisecond on each command in flight), if any.
    private func collectReply() throws(HarnessFailure) -> Bool {
        for b in pending.keys.sorted() {
            guard let sent = pending[b] else { continue }
            runner.currentStep = sent.child
            if let reply = try runner.readReply(sent.seq, from: sent.slot, timeout: .milliseconds(1)) {
                pending[b] = nil
                if sent.asksAgain(after: reply) {
                    timers[b] = .recheck(sent, at: min(Self.deadline(after: RealTimeEnvironment.recheckNanos), sent.checkDeadline ?? .max))
                } else {
                    step.complete(sent, with: reply)
                }
                return true
            } else if let start = sentAt[b], ContinuousClock.now - start > runner.timeout(for: sent.child.step.step, sent.slot) {
                throw runner.failure("timed out waiting for the reply to step \(runner.currentStepText)", process: sent.slot.name)
            }
        }
        return false
    }
}
