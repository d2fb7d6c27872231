/// Random operations from the seed (`- workload: {...}`): inserts take fresh ids `k1`, `k2`, ... up to
/// `keys`; updates, deletes and reads pick ids already committed; each write saves at once.
public struct Workload: Sendable, Hashable, Codable {
    /// The processes that run operations (each must be declared).
    public var processes: [String]
    /// The entity operated on.
    public var entity: String
    /// The relative weights of the operations.
    public var mix: WorkloadMix
    /// Operations per second, across all the workload's processes.
    public var rate: Double
    /// How long the workload runs.
    public var duration: Duration
    /// The number of distinct ids (`k1` ... `kN`).
    public var keys: Int
    /// The workload's random seed: nil in ``Scenario/steps``, derived from the root seed in every
    /// ``ScenarioRun``.
    public var seed: UInt64?

    /// Creates a workload.
    public init(processes: [String], entity: String, mix: WorkloadMix, rate: Double, duration: Duration,
                keys: Int, seed: UInt64? = nil) {
        self.processes = processes
        self.entity = entity
        self.mix = mix
        self.rate = rate
        self.duration = duration
        self.keys = keys
        self.seed = seed
    }
}

/// The relative weights of a workload's operations (`mix: { insert: 1, update: 3, delete: 1, read: 5 }`).
public struct WorkloadMix: Sendable, Hashable, Codable {
    public var insert: Int
    public var update: Int
    public var delete: Int
    public var read: Int

    /// Creates a mix; keys left out of a file's `mix` weigh 0.
    public init(insert: Int = 0, update: Int = 0, delete: Int = 0, read: Int = 0) {
        self.insert = insert
        self.update = update
        self.delete = delete
        self.read = read
    }

    /// The mix used when a workload names none: the contract's example.
    public static let standard = WorkloadMix(insert: 1, update: 3, delete: 1, read: 5)

    /// The sum of the weights.
    public var total: Int { insert + update + delete + read }
}

/// A fault injected during a run (`- fault: {...}`).
public enum Fault: Sendable, Hashable, Codable {
    /// The notification hub drops every notification to `process` for `duration`.
    case dropNotifications(process: String, duration: Duration)
    /// The hub delays every notification to `process` by `delay` (until another fault replaces it).
    case delayNotifications(process: String, delay: Duration)
    /// The hub holds back every notification to `process` until its next `deliver` step (or until it
    /// stops running): the process takes its steps meanwhile as if nothing had been posted. How a
    /// notification that arrives after the receiver's next step is written.
    case holdNotifications(process: String)
    /// Kill `process` inside its next `point` (for a save: after its statements, before COMMIT).
    case crash(process: String, during: CrashPoint)

    /// The process the fault targets.
    public var process: String {
        switch self {
        case let .dropNotifications(process, _), let .delayNotifications(process, _), let .crash(process, _),
             let .holdNotifications(process):
            process
        }
    }
}

/// Where `fault: { crash: ..., during: ... }` kills the process.
public enum CrashPoint: String, Sendable, Hashable, Codable, CaseIterable, ScenarioKeyword {
    /// Inside the next save, after its statements and before COMMIT.
    case save
}
