import Agent
import Basics
import Foundation
import Notify
import ScenarioModel
import Supervisor
import Synchronization
import Trace

/// Real time: the machine's monotonic clock, the hub on its own thread and sockets, one freshly spawned
/// agent per launch, agents that act side by side (the children of `parallel` really overlap), SQLite
/// that waits on locks itself, and the machine making every choice of timing.
final class RealTimeEnvironment: RunEnvironment {
    let time: any TimeSource = MachineTime()
    let socketHub: NotifyHub
    private let hubLog: HubLog
    var hub: any NotificationRouter { socketHub }
    private let options: RunnerOptions
    private let sandbox: Sandbox
    /// `schedule: as-written` (a file explore wrote): a `sleep` among a `parallel`'s children holds back
    /// the children written after it, as the deterministic mode runs them in order, sleeps included.
    private let asWritten: Bool
    private unowned var runner: ScenarioRunner!
    /// How often a check that did not match is asked again while it waits.
    static let recheckNanos: UInt64 = 2_000_000

    init(plan: RunPlan, options: RunnerOptions, sandbox: Sandbox) throws {
        asWritten = plan.schedule.strategy == .asWritten
        self.options = options
        self.sandbox = sandbox
        let log = HubLog()
        hubLog = log
        socketHub = try NotifyHub(socketPath: sandbox.hubSocket, onRecord: { record in
            guard let kind = ScenarioRunner.traceKind(of: record) else { return }
            log.record(kind, at: record.at)
        })
    }

    func attach(to runner: ScenarioRunner) {
        self.runner = runner
    }

    func startAgent(_ config: AgentConfig, for slot: ProcessSlot) throws -> (child: any SupervisedProcess, pooled: Bool) {
        let url = sandbox.config(of: slot.name, launch: slot.launches)
        try Data(AgentWire.bytes(config)).write(to: url)
        let spec = LaunchSpec(
            process: slot.name, executable: options.agentExecutable, arguments: ["agent", "--config", url.path],
            standardError: .file(sandbox.stderr(of: slot.name).path))
        return (try options.launcher.launch(spec), false)
    }

    /// The agent handles what the hub delivered to it before the request was sent, first.
    func prepare(_ request: inout AgentRequest, for slot: ProcessSlot) {
        request.deliveries = socketHub.deliveredCount(to: slot.name)
    }

    func absorb(_ reply: AgentReply, from slot: ProcessSlot) {}

    /// The agent takes the request when its run loop is free: nothing to do here.
    func beforeRequest(_ command: AgentCommand, lockWaits: LockWaitHandling?, to slot: ProcessSlot) throws(HarnessFailure) {}

    func pid(of child: any SupervisedProcess) -> Int32? { child.pid }

    func beforeStep(_ step: ScenarioStep) throws(HarnessFailure) {}

    func sleep(nanos: UInt64) throws(HarnessFailure) {
        Self.sleep(nanos: nanos)
    }

    func pace(until due: UInt64) throws(HarnessFailure) {
        let now = MonotonicClock.now()
        if due > now { Self.sleep(nanos: due - now) }
    }

    /// The agent handles notifications and polls by itself meanwhile.
    func awaitChange(of slot: ProcessSlot, until deadline: UInt64) throws(HarnessFailure) {
        let now = MonotonicClock.now()
        guard deadline > now else { return }
        Self.sleep(nanos: min(Self.recheckNanos, deadline - now))
    }

    func lockWaits(for command: AgentCommand) -> LockWaitHandling? { nil }

    func waitForLock(_ command: AgentCommand, on slot: ProcessSlot, expectError: ErrorKind?) throws(HarnessFailure) -> AgentReply {
        // SQLite waits on locks itself here: no command yields.
        throw runner.failure("the agent yielded on a lock, which only the deterministic mode asks of it", process: slot.name)
    }

    func orderTogether(_ children: [RunPlan.PlannedStep]) -> [RunPlan.PlannedStep] { children }

    /// Sends every branch's first command, then collects the replies in whatever order they come: the
    /// agents act at once. A branch (a sequence's steps) sends its next step when the one before it is
    /// done. A `sleep` in a branch holds back that branch alone while the others go on; a check with
    /// `within:` is asked again, its branch waiting, until it matches or its deadline passes. A lifecycle
    /// step runs while the commands of other processes are in flight (a crash beside a save waiting on
    /// the crashing process's lock); control steps, and a step of a process another branch's command
    /// occupies, wait for the commands in flight and run in order; the branches after them wait too.
    func runTogether(_ step: ParallelStep) throws(HarnessFailure) {
        let began = MonotonicClock.now()
        let branches = step.branches
        var next = [Int](repeating: 0, count: branches.count)
        var pending: [Int: ParallelStep.Sent] = [:]
        var sentAt: [Int: ContinuousClock.Instant] = [:]
        var timers: [Int: BranchTimer] = [:]
        // Where the next look at the branches begins: after the branch whose step last ran inline, so each
        // branch takes its turn (two App Intents' update-then-save interleave, as their processes would,
        // and as the deterministic mode runs them); as written, in the written order.
        var first = 0
        while true {
            var ranInline = false
            let order = asWritten ? Array(branches.indices) : Array(first..<branches.count) + Array(0..<first)
            for b in order where pending[b] == nil && timers[b] == nil && next[b] < branches[b].count {
                // As written, a sleep still running holds back what is written after it.
                if asWritten, timers.contains(where: { $0.key < b && $0.value.isSleep }) { break }
                let child = branches[b][next[b]]
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
                } else if pending.isEmpty || step.mayRunInline(child, besides: pending.values.map(\.slot.name)) {
                    try step.runInline(child)
                    next[b] += 1
                    ranInline = true
                    first = (b + 1) % branches.count
                    break
                } else {
                    break
                }
            }
            if ranInline { continue }
            if pending.isEmpty && timers.isEmpty { return }
            try collectOne(&pending, sentAt: &sentAt, timers: &timers, step)
        }
    }

    /// What holds a branch back besides a command in flight: a `sleep` until its end, or a check that
    /// did not match yet, asked again at `at`.
    enum BranchTimer {
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
    private func collectOne(_ pending: inout [Int: ParallelStep.Sent], sentAt: inout [Int: ContinuousClock.Instant],
                            timers: inout [Int: BranchTimer], _ step: ParallelStep) throws(HarnessFailure) {
        while ProcessGuard.interruption == nil {
            let now = MonotonicClock.now()
            if let (b, timer) = timers.filter({ $0.value.due <= now }).min(by: { ($0.value.due, $0.key) < ($1.value.due, $1.key) }) {
                timers[b] = nil
                switch timer {
                case .sleep(let child, _):
                    runner.currentStep = child
                    runner.record(.stepEnded(nil))
                case .recheck(let sent, _):
                    pending[b] = try step.recheck(sent)
                }
                return
            }
            if pending.isEmpty, let due = timers.values.map(\.due).min() {
                Self.sleep(nanos: due - now)
                continue
            }
            for b in pending.keys.sorted() {
                guard let sent = pending[b] else { continue }
                runner.currentStep = sent.child
                if let reply = try runner.readReply(sent.seq, from: sent.slot, timeout: .milliseconds(1)) {
                    pending[b] = nil
                    if sent.asksAgain(after: reply) {
                        timers[b] = .recheck(sent, at: min(Self.deadline(after: Self.recheckNanos), sent.checkDeadline ?? .max))
                    } else {
                        step.complete(sent, with: reply)
                    }
                    return
                } else if let start = sentAt[b], ContinuousClock.now - start > runner.timeout(for: sent.child.step.step, sent.slot) {
                    throw runner.failure("timed out waiting for the reply to step \(runner.currentStepText)", process: sent.slot.name)
                }
            }
        }
        throw HarnessFailure(message: "interrupted")
    }

    func finishing() {}

    var answersLifecycleCommandsTogether: Bool { false }

    var choices: [ChoiceRecord] { [] }

    var hubEvents: [TraceEvent] { hubLog.events }

    /// Sleeps `nanos`, in slices of at most 20 ms so that an interrupted invocation stops at once.
    static func sleep(nanos: UInt64) {
        let deadline = MonotonicClock.now() &+ nanos
        while ProcessGuard.interruption == nil {
            let now = MonotonicClock.now()
            guard now < deadline else { return }
            let slice = min(deadline - now, 20_000_000)
            var request = timespec(tv_sec: 0, tv_nsec: Int(slice))
            var remaining = timespec()
            while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
        }
    }
}

/// The real hub's records, kept in memory: the hub's thread records, the runner reads them at the end.
private final class HubLog: Sendable {
    private let recorder = Mutex(TraceRecorder(process: "hub"))

    func record(_ kind: TraceEventKind, at t: UInt64) {
        recorder.withLock { $0.record(kind, at: t) }
    }

    var events: [TraceEvent] { recorder.withLock { $0.events } }
}
