import Agent
import Basics
import Foundation
import Notify
import SharedStore
import ScenarioModel
import Supervisor
import Synchronization
import Trace

// Why this type spans several files: one run's state (its processes, the trace recorder, its
// environment) acted on by every step kind. Each `ScenarioRunner+<Concern>.swift` holds one concern:
// configuring agents, steps, control steps, lifecycles, system work, finishing. What differs between
// real time and the deterministic mode is the `RunEnvironment`'s (`Environment/`), never the runner's.
// The state that can be a value is one, tested on its own: `ObjectRegistry` (which row each id names),
// `ProcessSlot` with its `ProcessLifecycle`, `ExecutedSteps`, `ScriptedHub`.

/// How the runner starts agents and how long it waits for them.
public struct RunnerOptions: Sendable {
    /// The `groupsim` executable, started as `groupsim agent --config <file>`.
    public var agentExecutable: String
    /// Keep the sandbox after the run.
    public var keep: Bool
    /// Where sandboxes are made (the system's temporary directory when nil).
    public var sandboxParent: URL?
    /// How long an agent may take to start and open its store.
    public var launchTimeout: Swift.Duration
    /// How long a step may take beyond its own `within` and busy timeout.
    public var stepTimeout: Swift.Duration
    /// Starts the agents (real processes unless a test injects another launcher).
    public var launcher: any ProcessLauncher
    /// Deterministic mode: standby agents to launch processes with (each run spawns its own without).
    public var agentPool: AgentPool?
    /// Deterministic mode: what each thing an agent does costs in virtual time.
    public var costs: CostModel = .measured

    public init(agentExecutable: String, keep: Bool = false, sandboxParent: URL? = nil,
                launchTimeout: Swift.Duration = .seconds(15), stepTimeout: Swift.Duration = .seconds(15),
                launcher: any ProcessLauncher = PosixSpawnLauncher(), agentPool: AgentPool? = nil) {
        self.agentPool = agentPool
        self.agentExecutable = agentExecutable
        self.keep = keep
        self.sandboxParent = sandboxParent
        self.launchTimeout = launchTimeout
        self.stepTimeout = stepTimeout
        self.launcher = launcher
    }
}

/// What one run produced: the merged trace, or why the harness could not decide.
public struct RunOutcome: Sendable {
    public var plan: RunPlan
    public var trace: RunTrace
    /// Set when the harness could not decide (exit code 2).
    public var harnessError: HarnessFailure?
    /// Each process's stderr, for the report.
    public var stderr: [String: String]
    /// The sandbox, when kept.
    public var sandbox: String?
    /// Wall time of the run on the monotonic clock.
    public var durationNanos: UInt64
    /// Set when a signal interrupted the invocation during this run: no verdict, and no harness error.
    public var interrupted = false
    /// The steps as they ran, with nothing random left (see `ExecutedSteps`): with `schedule: as-written`
    /// they replay the run's schedule in the deterministic mode.
    public var executed: [ScenarioStep] = []
    /// Deterministic mode: the choices the schedule made, in order.
    public var choices: [ChoiceRecord] = []
}

/// Executes one planned run: a sandbox, a notification hub, one agent process per scenario process,
/// every step in order, a final refresh of every live process, and the merged trace.
public final class ScenarioRunner {
    let plan: RunPlan
    let options: RunnerOptions
    let sandbox: Sandbox
    /// Real time or the deterministic mode's world: time, hub, agents, waits and choices.
    let env: any RunEnvironment
    /// The run's time: monotonic, or virtual in the deterministic mode.
    var time: any TimeSource { env.time }
    /// The notification hub, real or scripted.
    var hub: any NotificationRouter { env.hub }
    /// The steps as they ran (what `explore` writes and shrinks).
    var executed = ExecutedSteps()
    let recorder: TraceRecorder
    var slots: [String: ProcessSlot] = [:]
    /// Which row each scenario id names in each store.
    var objects = ObjectRegistry()
    /// The model version the last `app-update` installed: what processes launched after it open the store with.
    var installedVersion: String?
    var clockOffset: UInt64 = 0
    var currentStep: RunPlan.PlannedStep?
    /// The background context the step being sent goes through, and its author (`AgentRequest.context`).
    var commandContext: (name: String, author: String?, mergePolicy: MergePolicy?)?
    /// Each App Intent with unsaved changes, and the process they are in.
    var intentWork: [String: String] = [:]
    /// The widgets whose reloads recorded their views (what their timelines show).
    var widgetsReloaded: Set<String> = []
    /// The control whose reload's work is running, if any: what its reads observe is what it shows.
    var rendering: String?
    /// What each control's last reload showed of each object it read: a tap hands its action that value.
    var shownByControls: [String: [String: Observation]] = [:]
    /// Each store's largest `-wal` file so far, and its sizes at the end (`StoreGrowth`).
    var growthMeter = StoreGrowthMeter()
    /// The scenario's model compiled for SharedStore, once a dump needed it.
    var compiledModel: SharedStore.Model?
    /// How deep in `parallel` steps the runner is (their children are written with them, and make no choice).
    var runningTogether = 0
    /// The processes a `hold-notifications` fault holds, until their next `deliver` step.
    var heldByFault: Set<String> = []
    /// The error the lifecycle step being run expects (`- app: { foreground: true, expect-error: expired-token }`),
    /// carried by the command its activation or backgrounding sends, or met by a launch whose store did not
    /// load (`storeDidNotLoad`); `lifecycleExpectationSent` says one was sent or met.
    var lifecycleExpectError: ErrorKind?
    var lifecycleExpectationSent = false
    /// The copies taken so far, set aside to be read back after the run (`verifyCopiesSetAside()`).
    var pendingVerifications: [PendingVerification] = []

    init(plan: RunPlan, options: RunnerOptions) throws {
        self.plan = plan
        self.options = options
        sandbox = try Sandbox(parent: options.sandboxParent ?? Self.sandboxParent(for: plan.mode), keep: options.keep)
        let env = try Self.environment(for: plan, options: options, sandbox: sandbox)
        self.env = env
        let time = env.time
        recorder = TraceRecorder(process: "runner", clock: { time.reading() })
        env.attach(to: self)
        for process in plan.run.processes {
            let store = RunPlan.storeName(of: process, group: plan.run.store.group)
            slots[process.name] = ProcessSlot(process: process, store: store)
            let policy = process.settings.delivery
            hub.setPolicy(policy, for: process.name)
            hub.setLifecycle(.notRunning, for: process.name)
        }
    }

    /// Runs `plan` to the end and returns its trace; never throws: a harness failure is in the outcome.
    public static func execute(_ plan: RunPlan, options: RunnerOptions) -> RunOutcome {
        let start = MonotonicClock.now()
        func unprepared(_ failure: HarnessFailure) -> RunOutcome {
            RunOutcome(
                plan: plan, trace: RunTrace(info: plan.info, events: [
                    TraceEvent(t: MonotonicClock.now(), process: "runner", kind: .harnessFailed(failure)),
                ]),
                harnessError: failure, stderr: [:], sandbox: nil,
                durationNanos: MonotonicClock.now() - start)
        }
        // Files the command line loads are refused before this (`ScenarioPaths`); a plan made otherwise is not run.
        if let (step, total) = plan.overlongWait {
            return unprepared(HarnessFailure(location: "\(step.location.file):\(step.location.line)",
                                             message: plan.overlongWaitMessage(total)))
        }
        let runner: ScenarioRunner
        do {
            runner = try ScenarioRunner(plan: plan, options: options)
        } catch {
            return unprepared(HarnessFailure(message: "cannot prepare the run: \(error)"))
        }
        var harnessError: HarnessFailure?
        do throws(HarnessFailure) {
            try runner.seedStore()
            for step in plan.steps {
                if ProcessGuard.interruption != nil { throw HarnessFailure(message: "interrupted") }
                try runner.execute(step)
                runner.sampleWAL(after: step.index)
            }
            runner.currentStep = nil
            try runner.finish()
        } catch {
            harnessError = error
        }
        // A signal kills every agent: whatever failed after it is the interruption, not the harness.
        let interrupted = ProcessGuard.interruption != nil && harnessError != nil
        runner.stopAll()
        runner.hub.close()
        var (trace, unreadable) = runner.collectTrace()
        harnessError = harnessError ?? unreadable
        if let harnessError, !interrupted {
            trace.events.append(TraceEvent(t: Swift.max(trace.events.last?.t ?? 0, runner.time.reading()), process: "runner",
                                           kind: .harnessFailed(harnessError)))
        }
        let stderr = runner.collectStderr()
        runner.sandbox.finish()
        return RunOutcome(
            plan: plan, trace: trace, harnessError: interrupted ? nil : harnessError, stderr: stderr,
            sandbox: options.keep ? runner.sandbox.root.path : nil, durationNanos: MonotonicClock.now() - start,
            interrupted: interrupted, executed: runner.executed.steps, choices: runner.env.choices)
    }

    /// Records a runner event, stamped with the step in progress and attributed to the process
    /// the event is about (`as`), else to the current step's process, else to the runner.
    func record(_ kind: TraceEventKind, step: Int? = nil, start: UInt64? = nil, as subject: String? = nil) {
        recorder.record(kind, step: step ?? currentStep?.index, start: start, as: subject ?? currentStep?.step.process)
    }

    /// A harness error at the current step.
    func failure(_ message: String, process: String? = nil) -> HarnessFailure {
        HarnessFailure(location: currentStep.map { "\($0.step.location.file):\($0.step.location.line)" },
                 process: process, message: message)
    }

    func slot(_ name: String) throws(HarnessFailure) -> ProcessSlot {
        guard let slot = slots[name] else { throw failure("no process named '\(name)'") }
        return slot
    }

    static func traceKind(of record: HubRecord) -> TraceEventKind? {
        switch record.kind {
        case .posted, .observed, .unobserved, .observeIgnored: return nil
        default:
            return .notificationRouted(
                NotificationRecord(name: record.name, from: record.poster, to: record.process, postedAt: record.postedAt),
                decision: record.kind)
        }
    }
}

