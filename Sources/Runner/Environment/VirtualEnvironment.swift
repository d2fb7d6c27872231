import Agent
import Basics
import Foundation
import Notify
import ScenarioModel
import Supervisor
import Trace

/// The deterministic mode's world: nothing happens in an agent unless the runner asks for it.
///
/// - **Time is virtual** (`VirtualTime`): it moves by the agents' readings, by what each command costs
///   (`CostModel`, measured on real runs), to a timer that is due, and to a deadline nothing precedes.
/// - **Notifications are routed by the runner** (`ScriptedHub`): a delivery waits until a request hands
///   it over. The `ScheduleStrategy` decides whether a process handles what waits for it between two
///   other steps, and (up to the plan's `lateNotifications`) whether it takes its next steps first.
/// - **One agent acts at a time**: `parallel` children in an order the strategy picks; a write among them
///   holds its commit (and the write lock) until its cost has passed; a command that meets another
///   process's lock yields, and waits in virtual time while the others act (`TogetherRun`).
/// - **Timers** (`trigger: poll`, delayed notifications, drop windows) fire when virtual time reaches them.
final class VirtualEnvironment: RunEnvironment {
    let virtualTime: VirtualTime
    var time: any TimeSource { virtualTime }
    let scripted: ScriptedHub
    var hub: any NotificationRouter { scripted }
    let costs: CostModel
    private let options: RunnerOptions
    private let sandbox: Sandbox
    unowned var runner: ScenarioRunner!
    var strategy: any ScheduleStrategy
    /// How many of its own steps a process may take before a notification waiting for it is handled.
    let lateNotifications: Int
    /// Whether `parallel` children run exactly in the order written (`schedule: as-written`, as explore
    /// writes an executed interleaving out, every step its own child), sleeps included.
    let parallelAsWritten: Bool
    /// The choices made so far.
    private(set) var choices: [ChoiceRecord] = []
    /// When each `trigger: poll` process refreshes next.
    var nextPoll: [String: UInt64] = [:]
    /// The processes whose waiting notifications the strategy holds back, and past how many of their
    /// steps so far.
    var holding: [String: Int] = [:]
    /// While a `parallel` step has commands waiting on a lock: the earliest busy timeout among them, and
    /// what to do when it passes (ask them to fail with `busy` if the lock is still held, and run what waits
    /// behind them). A `sleep` of a sibling branch passes through those moments rather than over them, as
    /// real time does: SQLite's busy handler gives up at the timeout, whatever the siblings are doing.
    var lockDeadlines: (next: () -> UInt64?, expire: () throws(HarnessFailure) -> Void)?
    /// Set while the system's work inside `parallel` lets the siblings' writes under way go on
    /// (`catchUpBesideSystemWork`): nothing new starts meanwhile.
    var catchingUp = false
    /// Processes whose refresh (run by notifications handed over between steps, or by a poll) met another
    /// process's lock and waits for it while the others act, and when its busy timeout passes
    /// (`VirtualEnvironment+LockWaits.swift`).
    var backgroundWaits: [String: UInt64] = [:]
    /// Per process, the delivery the schedule left past a step (by when it was routed) and how often real
    /// time leaves it so (`lateOdds`): at a later step it is late as often as a delivery late then is.
    var leftLate: [String: (routed: UInt64, odds: UInt64)] = [:]
    /// Processes whose command yielded on another process's lock and is asked again: in real time the
    /// process is inside SQLite's busy handler, in the middle of its save, and handles no notification
    /// until the command is done (a save that waited on a lock meets the conflict its stale snapshot makes,
    /// never a merge that would have refreshed it).
    private(set) var inLockWait: [String: AgentCommand] = [:]
    /// Each process's last request, by its sequence number: what a `blocked` reply answers.
    private var lastRequest: [String: (seq: Int, command: AgentCommand)] = [:]
    /// Processes launched that have carried out no command yet: their first costs more in real time
    /// (`CostModel.firstRequest`), which `parallel` ordering counts.
    private(set) var cold: Set<String> = []
    /// When each process's last launch began (`launched`).
    private(set) var launchBegan: [String: UInt64] = [:]
    /// Set while a `sleep` of a `parallel` branch runs: the moment it ends, counted from when its branch's
    /// step before it ended, not from now (a sibling's steps may have run since, in virtual time).
    var sleepEnd: UInt64?
    /// Set while a check of a `parallel` child is asked again: the attempt takes no virtual time, as in real
    /// time the reader polls in its own process while its siblings act, delaying none of them.
    var askingAgain = false
    /// How long the last such sleep waited, from when it began (what a replay as written waits).
    var sleptNanos: UInt64 = 0
    /// Set while a held write is committed: the moment it commits, which the runner's clock may have
    /// passed while a sibling's command ran (that command's own time spans it).
    var actingAt: UInt64?
    /// Set while a launch among the children of `parallel` runs (`TogetherRun`): the moment the process is
    /// ready, which the runner's clock does not move to, so the siblings act during the launch as they do
    /// in real time, where starting a process and opening its store delays no other process.
    var launchEnd: UInt64?
    /// The processes with a command of a `parallel` under way (a held write, a wait for the lock), which
    /// `TogetherRun` sets while it runs one: their poll waits for the command, as an agent runs one thing
    /// at a time; it ran at its moment in the middle of a batch insert, which real time cannot do.
    var commandsUnderWay: (() -> Set<String>)?
    /// Processes launched beside siblings that are not ready yet (`TogetherRun`): nothing is handed over
    /// to them until they are.
    var starting: Set<String> = []

    init(plan: RunPlan, options: RunnerOptions, sandbox: Sandbox) throws {
        self.options = options
        self.sandbox = sandbox
        let time = VirtualTime()
        virtualTime = time
        costs = options.costs
        scripted = ScriptedHub(time: time, recorder: TraceRecorder(process: "hub", clock: { time.reading() }))
        lateNotifications = plan.schedule.lateNotifications
        parallelAsWritten = plan.schedule.strategy == .asWritten
        let seed = plan.run.rootSeed ^ 0x5CED
        switch plan.schedule.strategy {
        case .likely: strategy = SeededStrategy(random: SeededRandom(seed: seed), weighted: true)
        case .seeded: strategy = SeededStrategy(random: SeededRandom(seed: seed))
        case .asWritten: strategy = AsWrittenStrategy()
        case .prefix(let prefix): strategy = PrefixStrategy(prefix: prefix)
        case .pct(let depth):
            // About one choice per step: the change points fall among the choices a run makes.
            strategy = PCTStrategy(seed: seed, depth: depth, horizon: max(1, Self.stepCount(plan.steps)))
        }
    }

    /// A directory on a memory file system, when the machine has one.
    static let memoryDirectory: URL? = SystemCalls.memoryDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }

    private static func stepCount(_ steps: [RunPlan.PlannedStep]) -> Int {
        steps.reduce(0) { $0 + 1 + stepCount($1.children) }
    }

    func attach(to runner: ScenarioRunner) {
        self.runner = runner
        scripted.mark = { [unowned runner] in runner.executed.routingMark }
    }

    /// Takes a standby agent from the pool (or spawns one) and sends it the config, its launch costed.
    func startAgent(_ config: AgentConfig, for slot: ProcessSlot) throws -> (child: any SupervisedProcess, pooled: Bool) {
        var config = config
        launchBegan[slot.name] = time.now
        config.virtualStart = time.now &+ costs.launch
        config.unitCosts = UnitCosts(migratedRow: costs.migratedRow, syncedObject: costs.syncedObject)
        cold.insert(slot.name)
        if let pool = options.agentPool {
            // A standby agent becomes this process: its config on stdin, its stderr to the sandbox.
            config.stderrPath = sandbox.stderr(of: slot.name).path
            let child = try pool.take()
            try child.writeLine(try AgentWire.line(config))
            return (child, true)
        }
        let url = sandbox.config(of: slot.name, launch: slot.launches)
        try Data(AgentWire.bytes(config)).write(to: url)
        let spec = LaunchSpec(
            process: slot.name, executable: options.agentExecutable, arguments: ["agent", "--config", url.path],
            // The same iteration order of dictionaries and sets in every run.
            environment: ["SWIFT_DETERMINISTIC_HASHING": "1"],
            standardError: .file(sandbox.stderr(of: slot.name).path))
        return (try options.launcher.launch(spec), false)
    }

    /// The request acts at the present time plus what the command costs, after the notifications waiting
    /// for the process (unless the strategy holds them back past this step).
    func prepare(_ request: inout AgentRequest, for slot: ProcessSlot) {
        if case .perform = request.command { cold.remove(slot.name) }
        lastRequest[slot.name] = (request.seq, request.command)
        // A write that holds its commit acts now and commits once its cost has passed (`committing`).
        let free = askingAgain || request.holdsCommit == true
        request.virtualTime = (actingAt ?? time.now) &+ (free ? 0 : costs.cost(of: request.command))
        // A held write's commit hands nothing over, nor a command asked again after it yielded on a lock:
        // the process is inside its save, not between events. A process whose history purge waits for a lock
        // (`awaitLock`) takes what was delivered meanwhile into its inbox, and handles it once the purge has
        // succeeded or failed, as its run loop does after SQLite's busy handler returns.
        let between = request.command != .commitHeld && inLockWait[slot.name] != request.command
        if holding[slot.name] == nil, between { request.notifications = scripted.take(for: slot.name) }
        // A lifecycle change among the children of `parallel`: a refresh it runs whose purge meets a sibling's
        // lock yields, and the runner asks again after each sibling's step (as in real time the siblings act
        // while the process waits); without it, the purge waited out its busy timeout behind a sibling's
        // `end-write` that could only run after it.
        // One that expects an error (`expect-error: busy`) meets it inside its command, as in real time.
        if runner.runningTogether > 0, request.lockWaits == nil, request.expectError == nil,
           request.command == .becomeActive || request.command == .enterBackground {
            request.lockWaits = .yield
        }
    }

    func absorb(_ reply: AgentReply, from slot: ProcessSlot) {
        if let end = reply.virtualEnd {
            if let launching = launchEnd { launchEnd = Swift.max(launching, end) } else { virtualTime.pass(to: end) }
        }
        if let activity = reply.notifications { scripted.route(activity, from: slot.name) }
        if reply.status == .ready { armPollTimer(slot) }
        noteLockWait(reply, from: slot)
        if reply.status == .blocked, let last = lastRequest[slot.name], last.seq == reply.seq {
            inLockWait[slot.name] = last.command
        } else if reply.status != .blocked {
            inLockWait[slot.name] = nil
        }
    }

    /// Whether `step` is the first command `process` carries out since it was launched.
    func isCold(_ process: String?, _ step: Step) -> Bool {
        guard let process else { return false }
        return cold.contains(process) && step.isPerformedByProcess
    }

    /// When `step`, started now, acts at the latest: what it does may reach the other processes by then
    /// (`CostModel.lead`, its first command after a launch later by `firstRequest`).
    func latestAct(of step: ScenarioStep) -> UInt64 {
        time.now.addingClamped(costs.lead(of: step.step, cold: isCold(step.process, step.step)))
    }

    /// No process id: it would differ from run to run.
    func pid(of child: any SupervisedProcess) -> Int32? { nil }

    func sleep(nanos: UInt64) throws(HarnessFailure) {
        let end = sleepEnd.map { Swift.max(time.now, $0) } ?? time.now.addingClamped(nanos)
        sleptNanos = end - time.now
        let handsOver = sleptNanos > costs.request
        if handsOver { try handOverWhileWaiting() }
        // The moments inside the sleep, in order: a sibling's (`passLockMoment`: a commit, a wait giving up, a
        // check's deadline, a delivery an idle process has had long enough), and the timers (a delayed
        // notification falling due, a poll, a lock wait's timeout), whose deliveries an idle process
        // handles then, as in real time, not once the sleep is over.
        while true {
            let timer = nextTimer().flatMap { $0 <= end ? $0 : nil }
            if try passLockMoment(before: timer ?? end) { continue }
            guard let timer else { break }
            virtualTime.pass(to: timer)
            try fireDueTimers()
            if handsOver { try handOverWhileWaiting() }
            try settleTogether()
        }
        virtualTime.pass(to: end)
    }

    func pace(until due: UInt64) throws(HarnessFailure) {
        if due > time.now.addingClamped(costs.request) { try handOverWhileWaiting() }
        try advanceTime(to: due)
    }

    /// What could change the view: the notifications waiting for the process (handed over with the next
    /// attempt), else the earliest timer before the deadline, else nothing until the deadline. The other
    /// processes handle what waits for them meanwhile.
    func awaitChange(of slot: ProcessSlot, until deadline: UInt64) throws(HarnessFailure) {
        if holding[slot.name] == nil, scripted.hasPending(for: slot.name) { return }
        try handOverWhileWaiting(besides: slot.name)
        if let next = nextTimer(), next <= deadline {
            virtualTime.pass(to: next)
            try fireDueTimers()
        } else {
            virtualTime.pass(to: deadline)
        }
    }

    func finishing() {
        holding.removeAll()
    }

    var answersRefreshingStepsTogether: Bool { true }

    /// The runner hands the held notifications over with the `deliver`'s own request.
    var agentsLearnOfHolds: Bool { false }

    var hubEvents: [TraceEvent] { scripted.recorder.events }

    /// Makes one choice with the strategy and records it.
    func choose(_ point: ChoicePoint) -> Int {
        let chosen = min(max(strategy.choose(point), 0), point.count - 1)
        choices.append(ChoiceRecord(kind: point.kind, chosen: chosen, count: point.count))
        return chosen
    }

    // MARK: Timers

    /// Moves virtual time to `target`, firing every timer due on the way, in time order.
    func advanceTime(to target: UInt64) throws(HarnessFailure) {
        while let next = nextTimer(), next <= target {
            virtualTime.pass(to: next)
            try fireDueTimers()
        }
        virtualTime.pass(to: target)
    }

    /// The earliest pending timer: a running process's poll, or the hub's next deadline.
    func nextTimer() -> UInt64? {
        let running = runner.orderedSlots.filter(\.canTakeCommands)
        let polls = running.compactMap { slot in nextPoll[slot.name].flatMap { pollMayRun(slot, at: $0) ? $0 : nil } }
        let waits = running.compactMap { backgroundWaits[$0.name] }
        return (polls + waits + [scripted.nextDeadline].compactMap { $0 }).min()
    }

    /// Fires what is due now: the hub's deadlines, then each running process's poll refresh.
    func fireDueTimers() throws(HarnessFailure) {
        while let deadline = scripted.nextDeadline, deadline <= time.now {
            scripted.tick(at: deadline)
        }
        try expireBackgroundWaits()
        for slot in runner.orderedSlots { try pollIfDue(slot) }
    }

    /// Runs `slot`'s poll refresh if it is due and may run now: at its moment, or once the command or the
    /// check it waited for is done (`TogetherRun` asks then, as the agent polls before its next request).
    func pollIfDue(_ slot: ProcessSlot) throws(HarnessFailure) {
        guard slot.canTakeCommands, let due = nextPoll[slot.name], due <= time.now, pollMayRun(slot, at: due) else { return }
        try runner.send(.timerRefresh, to: slot, lockWaits: .yield)
        // The agent polls again an interval after it polled, as its own timer would.
        nextPoll[slot.name] = (launchEnd ?? time.now) &+ slot.process.settings.pollInterval.nanos
    }

    /// Whether the poll of `slot` due at `due` may run: not while a command of the process is under way,
    /// nor past the deadline of its check under way (due then, or overdue now), which it waits for, as the
    /// agent's own timer does (`AgentProcess.pollIfDue`).
    private func pollMayRun(_ slot: ProcessSlot, at due: UInt64) -> Bool {
        if commandsUnderWay?().contains(slot.name) == true { return false }
        return slot.openCheckDeadline.map { Swift.max(due, time.now) <= $0 } ?? true
    }

    /// Arms the poll timer of a process that just became ready (`trigger: poll`).
    private func armPollTimer(_ slot: ProcessSlot) {
        guard slot.process.settings.trigger == .poll else { return }
        nextPoll[slot.name] = (launchEnd ?? time.now) &+ slot.process.settings.pollInterval.nanos
    }
}
