import Agent
import Basics
import Foundation
import Notify
import ScenarioModel
import Supervisor
import Trace

// Why a protocol: a run happens in one of two worlds, and everything that differs between them is here.
// Real time (`RealTimeEnvironment`): the machine's clock, the hub's sockets and thread, agents spawned
// fresh, running side by side, SQLite waiting on locks. The deterministic mode (`VirtualEnvironment`): a
// virtual clock that moves by calibrated costs (`CostModel`), the same hub state machine driven by the
// runner, one agent acting at a time, lock waits waited in virtual time, and every choice real time
// leaves to the machine (when a notification is handled, in what order `parallel` children run) made by
// a `ScheduleStrategy`. The runner asks the environment and never which one it has, as SwiftNIO's code
// runs on an `EmbeddedEventLoop` or a real one alike.

/// The world one run happens in: its time, its notification hub, how agents start, how the runner
/// waits, and the choices real time leaves to the machine.
protocol RunEnvironment: AnyObject {
    /// The run's time: every trace event the runner records is stamped by it.
    var time: any TimeSource { get }
    /// Where what the notification system must know goes.
    var hub: any NotificationRouter { get }

    /// Ties the environment to the runner it serves (the virtual one acts through it). Called once.
    func attach(to runner: ScenarioRunner)

    /// Starts the agent that becomes `slot`'s process with `config`, or takes one standing by. The agent
    /// answers `ready` (or why its store did not load) on its own.
    func startAgent(_ config: AgentConfig, for slot: ProcessSlot) throws -> (child: any SupervisedProcess, pooled: Bool)

    /// Adds to a request what the agent needs of this world: the notifications to handle first and the
    /// time to act at, or how many deliveries to wait for.
    func prepare(_ request: inout AgentRequest, for slot: ProcessSlot)

    /// Takes in what a reply says of this world: the agent's time, what it posted and observed.
    func absorb(_ reply: AgentReply, from slot: ProcessSlot)

    /// Before a request is written to `slot`: one that cannot wait for a lock itself (`lockWaits` nil) is
    /// taken once a lock wait the process is in has ended.
    func beforeRequest(_ command: AgentCommand, lockWaits: LockWaitHandling?, to slot: ProcessSlot) throws(HarnessFailure)

    /// Whether the command a lifecycle step or a `deliver` among the children of `parallel` makes its
    /// process run (the refresh of its activation or backgrounding, after the notifications waiting; the
    /// handling of the notifications a `deliver` hands over) is answered before the runner goes on. Real time goes on at once and reads the reply before the process's next request:
    /// the process may wait in SQLite's busy handler for a lock a sibling holds, and the runner waiting
    /// for it held that sibling back until the busy timeout. The deterministic mode answers it at once (a
    /// purge that meets the lock yields, and is asked again after each sibling's step).
    var answersRefreshingStepsTogether: Bool { get }

    /// Whether an agent is told when the file starts holding its notifications (`hold-notifications`): in
    /// real time the hub lets them go just before the `deliver` is written, and the agent's run loop would
    /// otherwise handle them before it reads the request, outside the step and its `expect-error`.
    var agentsLearnOfHolds: Bool { get }

    /// An agent's process id for the trace; none where it would differ from run to run.
    func pid(of child: any SupervisedProcess) -> Int32?

    /// Before a step of the file (a top-level one, a child of `parallel`, a workload operation): what is
    /// due runs, and the choices before it are made.
    func beforeStep(_ step: ScenarioStep) throws(HarnessFailure)

    /// `sleep`: waits `nanos`, while what is due (polls, delayed notifications) happens.
    func sleep(nanos: UInt64) throws(HarnessFailure)

    /// A workload operation due at `due`: waits until then.
    func pace(until due: UInt64) throws(HarnessFailure)

    /// Between two attempts of a check on `slot` that did not match yet: waits for something that could
    /// change its view, no later than `deadline`.
    func awaitChange(of slot: ProcessSlot, until deadline: UInt64) throws(HarnessFailure)

    /// What a command does when it meets another process's lock (nil: SQLite waits for it).
    func lockWaits(for command: AgentCommand) -> LockWaitHandling?

    /// A command of a step that met another process's lock and yielded: waits (until the holder lets go
    /// or the busy timeout passes) and returns the reply of its last attempt.
    func waitForLock(_ command: AgentCommand, on slot: ProcessSlot, expectError: ErrorKind?) throws(HarnessFailure) -> AgentReply

    /// A command of a step outside `parallel`, when the environment carries it out itself: the
    /// deterministic mode holds a long write's commit while what falls due meanwhile happens
    /// (`VirtualEnvironment.performAlone`). Nil: the runner sends it as it is.
    func performAlone(_ command: AgentCommand, on slot: ProcessSlot, expectError: ErrorKind?,
                      timeout: Swift.Duration?) throws(HarnessFailure) -> AgentReply?

    /// `slot`'s process has opened its store (`ready`, its launch lasting until `reply`'s end), at a
    /// launch outside `parallel` that did not migrate: the deterministic mode lets what falls due during the
    /// launch happen at its moment (`VirtualEnvironment.passMoments`), as real time does beside it.
    func launched(_ slot: ProcessSlot, _ reply: AgentReply) throws(HarnessFailure)

    /// After a `deliver` outside `parallel`: the step lasts until what its refreshes wait for is over (a
    /// purge waiting for another process's lock), as its reply does in real time.
    func waitForRefreshes(of slot: ProcessSlot) throws(HarnessFailure)

    /// The order in which the children of a `parallel` step are started: as written in real time (they
    /// then run at once), chosen in the deterministic mode (they then run one at a time).
    func orderTogether(_ children: [RunPlan.PlannedStep]) -> [RunPlan.PlannedStep]

    /// Runs the children of a `parallel` step together, in `step.children`'s order, as the runner's
    /// `ParallelStep` says how.
    func runTogether(_ step: ParallelStep) throws(HarnessFailure)

    /// Whether the other children of a `parallel` go on while a process launches, the runner calling
    /// `whileLaunching(_:)` as it waits for the agent to open its store: in real time, where starting an
    /// extension delays no other process. The deterministic mode lets its launch last what it costs in
    /// virtual time instead (`TogetherRun`).
    var launchesBeside: Bool { get }

    /// Lets the other children of the `parallel` act while `slot` launches (see `launchesBeside`).
    func whileLaunching(_ slot: ProcessSlot) throws(HarnessFailure)

    /// Before a step of the system's work inside `parallel` (a push's, a reload's, after the launch it may
    /// have begun with): what the other children had due by now is carried out first, a held write
    /// committing at its moment, as in real time their processes go on while the system's work runs.
    func catchUpBesideSystemWork() throws(HarnessFailure)

    /// The commands of the `parallel` running now that are in flight to processes other than `process`,
    /// while the runner waits for `process`'s reply to a step it runs inline: in real time their processes
    /// act meanwhile, and what they send is read as it comes. None in the deterministic mode, whose
    /// agents act one at a time; none when `process` has such a command itself (its siblings are read by
    /// the `parallel`'s own loop).
    func commandsInFlight(besides process: String) -> [ParallelStep.Sent]

    /// The run's steps are done: whatever the environment still holds back is let go before the final refresh.
    func finishing()

    /// The choices this run made, in order (empty in real time).
    var choices: [ChoiceRecord] { get }

    /// What the hub recorded (deliveries, drops, holds), in order.
    var hubEvents: [TraceEvent] { get }
}

/// Where the runner sends what the notification system must know: the real hub (sockets, its own
/// thread, the machine's clock) in real time, or `ScriptedHub` (the same state machine, driven by the
/// runner on virtual time) in the deterministic mode.
protocol NotificationRouter: AnyObject {
    func setPolicy(_ policy: DeliveryPolicy, for process: String)
    func setLifecycle(_ state: HubProcessState, for process: String)
    func dropNotifications(to process: String, for duration: Swift.Duration)
    func delayNotifications(to process: String, by duration: Swift.Duration)
    /// Holds back every delivery to `process` until `release(_:)`.
    func hold(_ process: String)
    /// Delivers what was held for `process`, in order.
    func release(_ process: String)
    /// The latest time a delivery held back by a `delay-notifications` fault falls due (nil: none waits).
    var lastDelayedDue: UInt64? { get }
    func close()
}

extension NotifyHub: NotificationRouter {}

extension ScenarioRunner {
    /// Where a run of `mode` makes its sandbox when the options name no place: the system's temporary
    /// directory in real time, whose latencies include the disk's; in the deterministic mode a memory file
    /// system when the machine has one (`/dev/shm`), since nothing it decides depends on the disk and a
    /// slow disk's syncs cost more than whole steps. The files are the same SQLite files in WAL mode.
    static func sandboxParent(for mode: RunMode) -> URL? {
        switch mode {
        case .realTime: nil
        case .deterministic: VirtualEnvironment.memoryDirectory
        }
    }

    /// The environment of `plan`'s mode.
    static func environment(for plan: RunPlan, options: RunnerOptions, sandbox: Sandbox) throws -> any RunEnvironment {
        switch plan.mode {
        case .realTime: try RealTimeEnvironment(plan: plan, options: options, sandbox: sandbox)
        case .deterministic: try VirtualEnvironment(plan: plan, options: options, sandbox: sandbox)
        }
    }
}
