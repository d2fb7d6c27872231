import Basics

/// One step of the run as the trace refers to it (events carry only the index).
public struct StepInfo: Sendable, Hashable, Codable {
    /// Position in the run's flattened step list; `parallel` children get their own indexes.
    public var index: Int
    /// The process the step drives, or nil for control steps (`sleep`, `clock`, `workload`, ...).
    public var process: String?
    public var location: SourceLocation
    /// A one-line rendering of the step, e.g. `app: read n1 expect {title: B} within 200ms`.
    public var text: String

    public init(index: Int, process: String?, location: SourceLocation, text: String) {
        self.index = index
        self.process = process
        self.location = location
        self.text = text
    }
}

/// How a process is configured, as the checkers and reports need it.
public struct TraceProcess: Sendable, Hashable, Codable {
    public var name: String
    public var role: ProcessRole
    /// The store this process reads and writes: `group:<identifier>` or `own:<process>`.
    public var store: String
    /// The resolved settings, by their scenario key (`refresh`, `staleness`, `trigger`, ...), for display.
    public var settings: [String: String]

    public init(name: String, role: ProcessRole, store: String, settings: [String: String]) {
        self.name = name
        self.role = role
        self.store = store
        self.settings = settings
    }
}

/// The header of a trace: which scenario and variant ran, its settings, and its steps.
public struct RunInfo: Sendable, Hashable, Codable {
    public var scenario: String
    public var variant: String
    public var file: String
    public var summary: String
    public var seed: UInt64
    public var expected: Expectation
    /// Tolerance for workload reads, in nanoseconds (the contract's `stale-tolerance`, default 250ms).
    public var staleToleranceNanos: UInt64
    public var latencyBudget: LatencyBudget?
    /// The run's `limits:` on store growth, if any.
    public var growthLimits: GrowthLimits?
    public var processes: [TraceProcess]
    public var steps: [StepInfo]
    /// How the run was executed; in the deterministic mode every time in the trace is virtual.
    public var mode: RunMode
    /// Each sub-entity's parent entity in the store's model, so checkers count a sub-entity's objects
    /// among its parent's; nil when the model has no inheritance.
    public var entityParents: [String: String]?
    /// The uniqueness constraints of the store's model, as attribute names, under the entity that declares
    /// each (it covers that entity's sub-entities too); nil when the model has none.
    public var uniquenessConstraints: [String: [[String]]]?

    public init(
        scenario: String, variant: String, file: String, summary: String, seed: UInt64,
        expected: Expectation, staleToleranceNanos: UInt64 = 250_000_000,
        latencyBudget: LatencyBudget? = nil, growthLimits: GrowthLimits? = nil, processes: [TraceProcess], steps: [StepInfo],
        mode: RunMode = .realTime
    ) {
        self.growthLimits = growthLimits
        self.mode = mode
        self.scenario = scenario
        self.variant = variant
        self.file = file
        self.summary = summary
        self.seed = seed
        self.expected = expected
        self.staleToleranceNanos = staleToleranceNanos
        self.latencyBudget = latencyBudget
        self.processes = processes
        self.steps = steps
    }
}

extension RunInfo {
    private enum CodingKeys: String, CodingKey {
        case scenario, variant, file, summary, seed, expected, staleToleranceNanos, latencyBudget, growthLimits, processes, steps, mode
        case entityParents, uniquenessConstraints
    }

    /// Decodes a header; one written before runs had a mode was real-time.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            scenario: try c.decode(String.self, forKey: .scenario), variant: try c.decode(String.self, forKey: .variant),
            file: try c.decode(String.self, forKey: .file), summary: try c.decode(String.self, forKey: .summary),
            seed: try c.decode(UInt64.self, forKey: .seed), expected: try c.decode(Expectation.self, forKey: .expected),
            staleToleranceNanos: try c.decode(UInt64.self, forKey: .staleToleranceNanos),
            latencyBudget: try c.decodeIfPresent(LatencyBudget.self, forKey: .latencyBudget),
            growthLimits: try c.decodeIfPresent(GrowthLimits.self, forKey: .growthLimits),
            processes: try c.decode([TraceProcess].self, forKey: .processes), steps: try c.decode([StepInfo].self, forKey: .steps),
            mode: try c.decodeIfPresent(RunMode.self, forKey: .mode) ?? .realTime)
        entityParents = try c.decodeIfPresent([String: String].self, forKey: .entityParents)
        uniquenessConstraints = try c.decodeIfPresent([String: [[String]]].self, forKey: .uniquenessConstraints)
    }

    /// `entity`, then its parent entity, its parent's, up to its root.
    public func ancestry(of entity: String) -> [String] {
        guard let parents = entityParents else { return [entity] }
        return ModelDescription.ancestry(of: entity, parent: { parents[$0] })
    }

    /// Whether objects of `entity` are objects of `ancestor`: the same entity or a sub-entity of it.
    public func entity(_ entity: String, isKindOf ancestor: String) -> Bool {
        entity == ancestor || ancestry(of: entity).contains(ancestor)
    }
}
