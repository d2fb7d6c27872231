import Basics

/// A validated scenario file: everything it declares, in file order.
///
/// Produced by ``ScenarioLoader``; expanded into runs by ``runs(seed:)``.
public struct Scenario: Sendable, Hashable, Codable {
    /// The scenario's unique kebab-case name (the file name without its extension when the file has no `name:`).
    public var name: String
    /// One line that says what goes wrong for the user.
    public var summary: String
    /// Where the bug was reported, if the file says.
    public var source: String?
    /// The file's root seed (`seed:`), if it sets one; the CLI's `--seed` overrides it, and 1 is the default.
    public var seed: UInt64?
    /// Tags for selecting scenarios.
    public var tags: [String]
    /// The shared store and its model.
    public var store: StoreDescription
    /// The processes, in declaration order, with their settings before any variant.
    public var processes: [ProcessDeclaration]
    /// The steps, in order.
    public var steps: [ScenarioStep]
    /// The variants, in order (empty when the file has none).
    public var variants: [Variant]
    /// The top-level `expect` (`pass` when the file has none): what a run expects unless its variant says.
    public var expectation: Expectation
    /// The top-level latency budget (`latency:`), if any.
    public var latencyBudget: LatencyBudget?
    /// The tolerance of a workload read's staleness check (`stale-tolerance:`, 250ms by default).
    public var staleTolerance: Duration
    /// Limits on how far each store may grow (`limits:`), checked at the end of every run.
    public var growthLimits: GrowthLimits?
    /// What `explore` may do to the scenario (`explore:`; empty when the file has none).
    public var explore: ExploreSpace
    /// Where the deterministic mode's choices come from (`schedule:`; seeded by default).
    public var schedule: ScheduleSource = .seeded
    /// The file the scenario was read from, as it was named to the loader.
    public var file: String

    /// The default of `stale-tolerance`.
    public static let defaultStaleTolerance = Duration.milliseconds(250)
    /// The root seed when neither the CLI nor the file gives one.
    public static let defaultSeed: UInt64 = 1

    /// Creates a scenario.
    public init(name: String, summary: String, source: String? = nil, seed: UInt64? = nil, tags: [String] = [],
                store: StoreDescription, processes: [ProcessDeclaration], steps: [ScenarioStep],
                variants: [Variant] = [], expectation: Expectation = .pass, latencyBudget: LatencyBudget? = nil,
                staleTolerance: Duration = Scenario.defaultStaleTolerance, growthLimits: GrowthLimits? = nil,
                explore: ExploreSpace = ExploreSpace(),
                file: String) {
        self.explore = explore
        self.growthLimits = growthLimits
        self.name = name
        self.summary = summary
        self.source = source
        self.seed = seed
        self.tags = tags
        self.store = store
        self.processes = processes
        self.steps = steps
        self.variants = variants
        self.expectation = expectation
        self.latencyBudget = latencyBudget
        self.staleTolerance = staleTolerance
        self.file = file
    }

    /// The process named `name`, or nil.
    public func process(named name: String) -> ProcessDeclaration? {
        processes.first { $0.name == name }
    }

    /// The variant named `name`, or nil.
    public func variant(named name: String) -> Variant? {
        variants.first { $0.name == name }
    }

    /// What `groupsim list` shows.
    public var summaryLine: ScenarioSummary {
        ScenarioSummary(name: name, summary: summary, variants: variants.map(\.name), tags: tags, file: file)
    }
}

/// One declared process: its name, its settings before any variant, and where it is declared.
public struct ProcessDeclaration: Sendable, Hashable, Codable {
    /// The process's name, as steps use it.
    public var name: String
    /// Its settings: the role's defaults with the file's settings for it applied.
    public var settings: ProcessSettings
    /// Where the file declares it.
    public var location: SourceLocation
    /// What the process does each time the system runs it: a widget's `on-reload:`, a notification
    /// service extension's `on-push:` (empty for the other roles).
    public var work: [ScenarioStep]
    /// For a notification service extension whose pushes carry payloads, its `on-push:` work for each
    /// payload, with the payload's values in place (`work` is then empty).
    public var payloadWork: [PushPayload: [ScenarioStep]] = [:]

    /// Creates a declaration.
    public init(name: String, settings: ProcessSettings, location: SourceLocation, work: [ScenarioStep] = []) {
        self.name = name
        self.settings = settings
        self.location = location
        self.work = work
    }

    /// The process's role.
    public var role: ProcessRole { settings.role }

    /// Every step of its work: `work`, then each payload's, payloads in the order of their fields' text.
    public var allWork: [ScenarioStep] {
        work + payloadWork.sorted { $0.key.sortKey < $1.key.sortKey }.flatMap(\.value)
    }
}

/// A variant: one run of the scenario with some settings overridden and its own expectation.
public struct Variant: Sendable, Hashable, Codable {
    /// The variant's kebab-case name.
    public var name: String
    /// The settings it overrides, per process, in file order.
    public var overrides: [ProcessOverride]
    /// Its `expect`, or nil to inherit the scenario's.
    public var expectation: Expectation?
    /// Its `latency` budget, whose limits replace the scenario's one by one; nil to inherit.
    public var latencyBudget: LatencyBudget?
    /// Its `stale-tolerance`, or nil to inherit.
    public var staleTolerance: Duration?
    /// Its `limits:`, each set limit replacing the scenario's.
    public var growthLimits: GrowthLimits?
    /// Where the file declares it.
    public var location: SourceLocation

    /// Creates a variant.
    public init(name: String, overrides: [ProcessOverride] = [], expectation: Expectation? = nil,
                latencyBudget: LatencyBudget? = nil, staleTolerance: Duration? = nil, location: SourceLocation) {
        self.name = name
        self.overrides = overrides
        self.expectation = expectation
        self.latencyBudget = latencyBudget
        self.staleTolerance = staleTolerance
        self.location = location
    }
}

/// The settings a variant overrides for one process.
public struct ProcessOverride: Sendable, Hashable, Codable {
    /// The process.
    public var process: String
    /// The settings, in file order.
    public var settings: [ProcessSetting]

    /// Creates an override.
    public init(process: String, settings: [ProcessSetting]) {
        self.process = process
        self.settings = settings
    }
}

/// One line of `groupsim list`.
public struct ScenarioSummary: Sendable, Hashable, Codable {
    /// The scenario's name.
    public var name: String
    /// Its one-line summary.
    public var summary: String
    /// Its variants' names, in order (empty when it has none).
    public var variants: [String]
    /// Its tags.
    public var tags: [String]
    /// The file it comes from.
    public var file: String

    /// Creates a summary.
    public init(name: String, summary: String, variants: [String], tags: [String], file: String) {
        self.name = name
        self.summary = summary
        self.variants = variants
        self.tags = tags
        self.file = file
    }
}
