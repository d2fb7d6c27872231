import Basics

/// The largest values the scenario language accepts. Every number a file gives is bounded here, at
/// validation, with an error naming the limit, so that no arithmetic on a user's value can overflow,
/// no allocation can exhaust memory, and no run can wait longer than a CI job lasts.
public enum Limits {
    /// Anything the runner waits out or measures on the real clock: `within`, `sleep`, `busy-timeout`,
    /// `poll-interval`, fault windows and delays, sync latency, `stale-tolerance`, latency budgets and a
    /// workload's duration.
    public static let realTime = Duration.hours(1)
    /// Time on the simulated wall clock: `clock: advance`, a purge's `older-than`, a positive staleness.
    public static let simulatedTime = Duration.days(36_500)
    /// A workload `mix:` weight.
    public static let mixWeight = 1_000_000
    /// A workload's operations per second.
    public static let rate = 100_000.0
    /// A workload's operations in all (`rate` × `duration`).
    public static let workloadOperations = 1_000_000
    /// A workload's `keys`, a `batch-insert`'s `count`, and a `count` step's `expect`.
    public static let objects = 1_000_000
    /// A scenario file's size in bytes.
    public static let fileBytes = 1 << 20
    /// One scalar's length in bytes (a title, a summary, a `where:`).
    public static let scalarBytes = 64 * 1024
    /// YAML nodes after every alias is expanded.
    public static let expandedNodes = 100_000
    /// How deep declared contexts nest (`contexts:`: a child of the view context is 1 deep, its child 2).
    public static let contextDepth = 16
    /// How deep entities inherit (`parent-entity:`: a sub-entity of a root is 1 deep). Real models use 1 or 2.
    public static let entityDepth = ModelDescription.maximumInheritanceDepth
    /// Entities in one model (a version's, or the one a store's schema shows). Real models have tens; the
    /// bound keeps validation, which looks entities up by name, fast whatever a file or a store holds.
    public static let entities = 1_000
    /// Processes in one scenario: an app, its extensions and a watch (each runs as its own OS process,
    /// tens of megabytes each); real apps have a handful.
    public static let processes = 64
    /// Alias uses (`*name`) in one file. SnakeYAML refuses more than 50 by default; real scenarios use none.
    public static let aliases = 100
}
