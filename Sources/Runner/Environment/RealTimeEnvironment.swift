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
    /// The `parallel` step running, if any.
    private var together: RealTimeTogether?
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

    /// The agent replies once its refreshes are done, SQLite's busy handler included.
    func waitForRefreshes(of slot: ProcessSlot) throws(HarnessFailure) {}

    func waitForLock(_ command: AgentCommand, on slot: ProcessSlot, expectError: ErrorKind?) throws(HarnessFailure) -> AgentReply {
        // SQLite waits on locks itself here: no command yields.
        throw runner.failure("the agent yielded on a lock, which only the deterministic mode asks of it", process: slot.name)
    }

    /// Every command is sent as it is: the other processes act beside it.
    func performAlone(_ command: AgentCommand, on slot: ProcessSlot, expectError: ErrorKind?,
                      timeout: Swift.Duration?) throws(HarnessFailure) -> AgentReply? { nil }

    func launched(_ slot: ProcessSlot, _ reply: AgentReply) throws(HarnessFailure) {}

    func orderTogether(_ children: [RunPlan.PlannedStep]) -> [RunPlan.PlannedStep] { children }

    /// Runs the children side by side (`RealTimeTogether`).
    func runTogether(_ step: ParallelStep) throws(HarnessFailure) {
        let run = RealTimeTogether(step, runner: runner, asWritten: asWritten)
        let outer = together
        together = run
        defer { together = outer }
        try run.run()
    }

    /// Among the children of `parallel`, the other branches go on while a process launches.
    var launchesBeside: Bool { together != nil }

    /// The other processes go on by themselves in real time.
    func catchUpBesideSystemWork() throws(HarnessFailure) {}

    func commandsInFlight(besides process: String) -> [ParallelStep.Sent] {
        together?.inFlight(besides: process) ?? []
    }

    func whileLaunching(_ slot: ProcessSlot) throws(HarnessFailure) {
        try together?.goOn(besideLaunchOf: slot.name)
    }

    func finishing() {}

    var answersRefreshingStepsTogether: Bool { false }

    var agentsLearnOfHolds: Bool { true }

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
