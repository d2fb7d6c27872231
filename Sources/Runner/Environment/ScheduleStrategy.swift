import Basics

/// A decision the deterministic mode makes where real time leaves it to the machine, with its
/// alternatives. Alternative 0 is always what the runner does when nothing is chosen (a file written
/// `schedule: as-written`): a notification waits for the receiver's next step, and `parallel` children
/// run in the order written.
public struct ChoicePoint: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, Codable {
        /// Whether a process handles the notifications waiting for it now, between two other steps (1), or
        /// later (0). Actors: the runner's next step, the receiver.
        case deliverEarly = "deliver-early"
        /// Whether a process takes its next step before the notifications waiting for it (1) or handles them
        /// first (0). Actors: the receiver's notifications, the step.
        case holdPastStep = "hold-past-step"
        /// Which of the `parallel` children not run yet runs next. Actors: their processes.
        case parallelOrder = "parallel-order"
        /// Whether a `parallel` child starts while a sibling's write holds its commit (0) or once it has
        /// committed (1). Actors: the child's process, the writer's.
        case startAfterCommit = "start-after-commit"
    }

    public var kind: Kind
    /// How many alternatives (at least 2).
    public var count: Int
    /// Who acts under each alternative (a process, or `runner` for the file's next step), for strategies
    /// that rank actors (PCT).
    public var actors: [String]
    /// How often real time takes each alternative, in parts of their sum, where the runner knows it
    /// (a notification handled after another process's step, by the delivery latency measured:
    /// `CostModel.lateDelivery(after:)`); nil where it does not. Only `ScheduleSpec.Strategy.likely` reads it.
    public var weights: [UInt64]?

    public init(kind: Kind, count: Int, actors: [String], weights: [UInt64]? = nil) {
        self.kind = kind
        self.count = count
        self.actors = actors
        self.weights = weights
    }
}

/// A choice made: what it was about and which alternative was taken.
public struct ChoiceRecord: Sendable, Hashable, Codable {
    public var kind: ChoicePoint.Kind
    public var chosen: Int
    public var count: Int

    public init(kind: ChoicePoint.Kind, chosen: Int, count: Int) {
        self.kind = kind
        self.chosen = chosen
        self.count = count
    }
}

/// Where the deterministic mode's choices come from, and the bound of late notifications.
public struct ScheduleSpec: Sendable, Hashable {
    public enum Strategy: Sendable, Hashable {
        /// At random from the run's seed, each alternative as often as real time takes it where the choice
        /// says how often (`ChoicePoint.weights`), uniformly elsewhere (`groupsim run --deterministic`): a
        /// notification real time hands over within a millisecond is rarely handled after a step 3 ms later.
        case likely
        /// Uniformly at random from the run's seed (`explore --strategy random`, which looks for the
        /// schedules real time rarely takes).
        case seeded
        /// None: alternative 0 every time (`schedule: as-written`).
        case asWritten
        /// Probabilistic concurrency testing (Burckhardt et al., ASPLOS 2010): actors ranked at random from
        /// the seed, the highest-ranked acting, with `depth - 1` change points that demote the actor acting.
        case pct(depth: Int)
        /// These alternatives, in order, then alternative 0 (how `explore --strategy exhaustive` walks the
        /// tree of choices).
        case prefix([Int])
    }

    public var strategy: Strategy
    /// How many of its own steps a process may take before a notification posted to it is handled (0:
    /// none, as in `run`; `explore` sets the file's `late-notifications`).
    public var lateNotifications: Int

    public init(strategy: Strategy, lateNotifications: Int = 0) {
        self.strategy = strategy
        self.lateNotifications = lateNotifications
    }
}

/// Makes the choices of one run.
protocol ScheduleStrategy {
    /// The alternative taken at `point`, in `0..<point.count`.
    mutating func choose(_ point: ChoicePoint) -> Int
}

/// Alternative 0 every time.
struct AsWrittenStrategy: ScheduleStrategy {
    func choose(_ point: ChoicePoint) -> Int { 0 }
}

/// At random, from a seed: uniformly, or as often as real time takes each alternative (`weighted`, where
/// the choice point says how often).
struct SeededStrategy: ScheduleStrategy {
    var random: SeededRandom
    /// Whether a choice point's `weights` are honoured.
    var weighted = false

    mutating func choose(_ point: ChoicePoint) -> Int {
        guard weighted, let weights = point.weights, weights.count == point.count else {
            return Int(random.next(below: UInt64(point.count)))
        }
        let total = weights.reduce(UInt64(0)) { $0.addingClamped($1) }
        guard total > 0 else { return 0 }
        var drawn = random.next(below: total)
        for (index, weight) in weights.enumerated() {
            if drawn < weight { return index }
            drawn -= weight
        }
        return point.count - 1
    }
}

/// A given prefix of alternatives, then alternative 0.
struct PrefixStrategy: ScheduleStrategy {
    let prefix: [Int]
    var position = 0

    mutating func choose(_ point: ChoicePoint) -> Int {
        defer { position += 1 }
        guard position < prefix.count else { return 0 }
        return min(max(prefix[position], 0), point.count - 1)
    }
}

/// PCT: every actor gets a random rank from the seed; at each choice the alternative whose actor ranks
/// highest is taken; at `depth - 1` choices drawn from the first `horizon` the actor just chosen drops
/// below every other. A bug that needs `d` ordering constraints among `n` actors over `k` choices is
/// found with probability at least 1 / (n * k^(d-1)) per run.
struct PCTStrategy: ScheduleStrategy {
    private var random: SeededRandom
    private var ranks: [String: Int] = [:]
    private var changePoints: Set<Int>
    private var position = 0
    private var lowest = 0

    init(seed: UInt64, depth: Int, horizon: Int) {
        random = SeededRandom(seed: seed)
        var points: Set<Int> = []
        for _ in 0..<max(0, depth - 1) { points.insert(Int(random.next(below: UInt64(max(1, horizon))))) }
        changePoints = points
    }

    mutating func choose(_ point: ChoicePoint) -> Int {
        defer { position += 1 }
        for actor in point.actors where ranks[actor] == nil {
            // Ranks above every demoted one, in random order among themselves.
            ranks[actor] = 1_000 + Int(random.next(below: 1_000_000))
        }
        let chosen = point.actors.indices.max { ranks[point.actors[$0]]! < ranks[point.actors[$1]]! } ?? 0
        if changePoints.contains(position) {
            lowest -= 1
            ranks[point.actors[chosen]] = lowest
        }
        return chosen
    }
}
