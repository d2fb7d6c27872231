import Basics

/// One run of a scenario: a variant (or the default run) with every setting resolved and every seed derived.
///
/// The runner executes runs; it never needs to look at variants or defaults again.
public struct ScenarioRun: Sendable, Hashable, Codable {
    /// The scenario's name.
    public var scenario: String
    /// The variant's name, or `default` for the one run of a scenario without variants.
    public var variant: String
    /// The file the scenario was read from.
    public var file: String
    /// The root seed every other seed derives from.
    public var rootSeed: UInt64
    /// The shared store and its model.
    public var store: StoreDescription
    /// The processes, in declaration order, with their resolved settings and seeds.
    public var processes: [RunProcess]
    /// The steps, with every workload's seed filled in.
    public var steps: [ScenarioStep]
    /// What the run must show.
    public var expectation: Expectation
    /// The latency budget checked, if any.
    public var latencyBudget: LatencyBudget?
    /// The tolerance of a workload read's staleness check.
    public var staleTolerance: Duration
    /// The limits on store growth checked, if any.
    public var growthLimits: GrowthLimits?
    /// Where the deterministic mode's choices come from.
    public var schedule: ScheduleSource = .seeded

    /// The name of the run of a scenario that has no variants.
    public static let defaultVariantName = "default"

    /// Creates a run.
    public init(scenario: String, variant: String, file: String, rootSeed: UInt64, store: StoreDescription,
                processes: [RunProcess], steps: [ScenarioStep], expectation: Expectation,
                latencyBudget: LatencyBudget?, staleTolerance: Duration, growthLimits: GrowthLimits? = nil) {
        self.growthLimits = growthLimits
        self.scenario = scenario
        self.variant = variant
        self.file = file
        self.rootSeed = rootSeed
        self.store = store
        self.processes = processes
        self.steps = steps
        self.expectation = expectation
        self.latencyBudget = latencyBudget
        self.staleTolerance = staleTolerance
    }

    /// The process named `name`, or nil.
    public func process(named name: String) -> RunProcess? {
        processes.first { $0.name == name }
    }

    /// Whether `process`'s store may fail to load at a launch (a store of model versions, an older or
    /// read-only open, a store from a file, a process that handles a failed load otherwise than the
    /// default): whether it then runs is the run's to know, not the steps'.
    public func storeMayFailToLoad(for process: RunProcess) -> Bool {
        let settings = process.settings
        return !store.versions.isEmpty || settings.readOnly || settings.modelVersion != nil
            || settings.onLoadFailure != ProcessSettings(role: settings.role).onLoadFailure || store.from != nil
    }
}

/// A process as one run sees it.
public struct RunProcess: Sendable, Hashable, Codable {
    /// The process's name.
    public var name: String
    /// Its fully resolved settings for this run.
    public var settings: ProcessSettings
    /// Its random seed.
    public var seed: UInt64
    /// What it does each time the system runs it (`on-reload:`, `on-push:`), the steps of this variant.
    public var work: [ScenarioStep]
    /// Its `on-push:` work for each payload its pushes carry, the steps of this variant.
    public var payloadWork: [PushPayload: [ScenarioStep]] = [:]

    /// Creates a run's process.
    public init(name: String, settings: ProcessSettings, seed: UInt64, work: [ScenarioStep] = [],
                payloadWork: [PushPayload: [ScenarioStep]] = [:]) {
        self.name = name
        self.settings = settings
        self.seed = seed
        self.work = work
        self.payloadWork = payloadWork
    }

    /// What it does when the system runs it for `step` (a `push` with its payload, or a widget's reload).
    public func work(for step: Step) -> [ScenarioStep] {
        if case .push(let payload?) = step { payloadWork[payload] ?? [] } else { work }
    }
}
