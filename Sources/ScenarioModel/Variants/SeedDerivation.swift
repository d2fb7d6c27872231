import Basics

/// How every random seed of a run derives from one root seed.
///
/// The root seed is the CLI's `--seed`, else the file's `seed:`, else 1. From it:
/// - a process's seed is `splitMix64(root ^ fnv1a64("process:" + name))`;
/// - the n-th workload step's seed (counting from 1, in file order, depth first through `parallel`) is
///   `splitMix64(root ^ fnv1a64("workload:" + n))`.
///
/// Seeds do not depend on the variant, so every variant of a scenario replays the same random operations
/// and only the settings differ. Both functions are defined on bytes, never on Swift's per-process
/// randomized `hashValue`, so the runner and its children derive the same numbers on every run.
public enum SeedDerivation {
    /// The root seed: `cli`, else `file`, else ``Scenario/defaultSeed``.
    public static func rootSeed(cli: UInt64?, file: UInt64?) -> UInt64 {
        cli ?? file ?? Scenario.defaultSeed
    }

    /// The seed of the process named `name`.
    public static func processSeed(root: UInt64, process name: String) -> UInt64 {
        StableHash.splitMix64(root ^ StableHash.fnv1a64("process:\(name)"))
    }

    /// The seed of the `ordinal`-th workload step (1-based).
    public static func workloadSeed(root: UInt64, ordinal: Int) -> UInt64 {
        StableHash.splitMix64(root ^ StableHash.fnv1a64("workload:\(ordinal)"))
    }
}
