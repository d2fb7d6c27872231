import Basics
import Checkers
import Foundation
import Runner
import Synchronization
import ScenarioModel
import Supervisor
import Trace

/// What one explore of one variant found.
public struct VariantExploration: Sendable, Codable {
    public var scenario: String
    public var variant: String
    public var file: String
    public var expected: Expectation
    /// Schedules run to the end.
    public var schedules: Int = 0
    /// Schedules the harness could not carry through (not judged).
    public var undecided: Int = 0
    /// How many schedules showed each anomaly kind.
    public var found: [String: Int] = [:]
    /// Schedules that did not match the variant's expectation.
    public var failing: Int = 0
    /// Schedules whose only failure is a check no anomaly explains (`unmet-expectation`): the
    /// perturbation changed what the file's checks assume (a save it lost), not a bug the strategy has.
    /// Counted, never shrunk.
    public var invalidated: Int = 0
    public var counterexamples: [Counterexample] = []
}

/// A schedule under which a variant does not match its expectation, shrunk to an explicit scenario.
public struct Counterexample: Sendable, Codable {
    public enum Kind: String, Sendable, Codable {
        /// The variant expects `pass` (or other kinds) and this schedule shows an anomaly.
        case unexpectedAnomaly = "unexpected-anomaly"
        /// The variant expects an anomaly and this schedule does not show it: the bug is timing-dependent.
        case missingAnomaly = "missing-anomaly"
    }

    public var kind: Kind
    /// The anomaly shown (unexpected) or not shown (missing).
    public var anomaly: AnomalyKind
    /// The schedule's seed.
    public var seed: UInt64
    /// Explicit steps before and after shrinking.
    public var stepsBefore: Int
    public var stepsAfter: Int
    /// Candidates run while shrinking.
    public var shrinkAttempts: Int
    /// The written scenario, relative to the report directory.
    public var file: String
    /// Whether `groupsim run` on it matched, in each mode.
    public var reproducesDeterministic: Bool
    public var reproducesRealTime: Bool
    /// The first anomaly's explanation under the schedule.
    public var explanation: String
}

/// Runs many seeded schedules of each variant in the deterministic mode, perturbed as `explore:`
/// allows, and shrinks every schedule that does not match the variant's expectation to a minimal
/// scenario file with nothing random left.
public struct Explorer: Sendable {
    public var executable: String
    public var pool: AgentPool
    /// Schedules per variant.
    public var runs: Int
    /// How long each variant may be explored (nanoseconds), whatever `runs` says; nil for no limit.
    public var variantBudget: UInt64?
    /// The first seed, and this machine's shard of the seeds (seeds `first + index + k * count`).
    public var firstSeed: UInt64
    public var shard: Shard
    /// At most this many counterexamples per variant (one per anomaly kind and way of failing).
    public var maximumCounterexamples = 3
    public var reportDirectory: URL
    /// How many schedules run at once.
    public var jobs = 1
    /// Called after each schedule with the variant and how many schedules it ran (from any thread).
    public var progress: @Sendable (String, Int) -> Void = { _, _ in }

    public init(executable: String, pool: AgentPool, runs: Int, firstSeed: UInt64, shard: Shard = .whole,
                reportDirectory: URL) {
        self.executable = executable
        self.pool = pool
        self.runs = runs
        self.firstSeed = firstSeed
        self.shard = shard
        self.reportDirectory = reportDirectory
    }

    /// The seeds of this shard, in order.
    public func seeds() -> [UInt64] {
        (0..<runs).map { firstSeed &+ UInt64(shard.index) &+ UInt64($0) &* UInt64(shard.count) }
    }

    /// Explores every variant of `scenario`; `source` is its file's text (for the counterexamples' store).
    public func explore(_ scenario: Scenario, source: String) -> [VariantExploration] {
        scenario.runs().map { explore(scenario, variant: $0.variant, source: source) }
    }

    /// What one schedule showed; the steps as they ran only when it failed.
    struct ScheduleOutcome: Sendable {
        var seed: UInt64
        var decided: Bool
        var found: [AnomalyKind] = []
        var failure: (Counterexample.Kind, AnomalyKind)?
        var invalidated = false
        var explanation = ""
        var run: ScenarioRun
        var executed: [ScenarioStep] = []
    }

    func explore(_ scenario: Scenario, variant: String, source: String) -> VariantExploration {
        let template = scenario.run(variant: variant)!
        var result = VariantExploration(scenario: scenario.name, variant: variant, file: scenario.file, expected: template.expectation)
        // Every schedule first (`jobs` at a time), in seed order; then the first failing schedule of each
        // way of failing is shrunk, one at a time.
        let seeds = seeds()
        let deadline = variantBudget.map { MonotonicClock.now() &+ $0 }
        let outcomes = Mutex<[Int: ScheduleOutcome]>([:])
        let next = Atomic<Int>(0)
        let done = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: min(max(1, jobs), seeds.count)) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < seeds.count, ProcessGuard.interruption == nil else { return }
                if let deadline, MonotonicClock.now() > deadline { return }
                guard let outcome = schedule(scenario, variant: variant, seed: seeds[index]) else { return }
                outcomes.withLock { $0[index] = outcome }
                progress(variant, done.add(1, ordering: .relaxed).newValue)
            }
        }
        var shown: Set<String> = []
        for outcome in outcomes.withLock({ all in all.keys.sorted().map { all[$0]! } }) {
            guard outcome.decided else {
                result.undecided += 1
                continue
            }
            result.schedules += 1
            for kind in outcome.found { result.found[kind.rawValue, default: 0] += 1 }
            guard let (kind, anomaly) = outcome.failure else {
                if outcome.invalidated { result.invalidated += 1 }
                continue
            }
            result.failing += 1
            guard result.counterexamples.count < maximumCounterexamples, ProcessGuard.interruption == nil,
                  shown.insert("\(kind)/\(anomaly)").inserted else { continue }
            if let counterexample = shrink(
                outcome.executed, run: outcome.run, kind: kind, anomaly: anomaly, seed: outcome.seed, scenario: scenario,
                source: source, number: result.counterexamples.count + 1, explanation: outcome.explanation) {
                result.counterexamples.append(counterexample)
            }
        }
        return result
    }

    /// One perturbed schedule of `variant`, run in the deterministic mode.
    func schedule(_ scenario: Scenario, variant: String, seed: UInt64) -> ScheduleOutcome? {
        guard var run = scenario.run(variant: variant, seed: seed) else { return nil }
        var random = SeededRandom(seed: seed ^ 0xE8A1_0F7E)
        run.steps = Perturber(space: scenario.explore).perturb(run.steps, random: &random)
        let outcome = execute(run, summary: scenario.summary)
        var result = ScheduleOutcome(seed: seed, decided: outcome.harnessError == nil, run: run)
        guard result.decided else { return result }
        let check = TraceChecker.check(outcome.trace)
        result.found = check.verdict.found.keys.sorted()
        guard !check.verdict.matched else { return result }
        guard let failure = Self.failure(check.verdict) else {
            result.invalidated = true
            return result
        }
        result.failure = failure
        result.explanation = check.anomalies.first { $0.kind == failure.1 }?.explanation
            ?? "the schedule did not show \(failure.1.rawValue)"
        result.executed = outcome.executed
        return result
    }

    /// How a verdict fails: the first anomaly whose presence broke it (other than an unexplained check),
    /// else the first expected one missing. Kinds a list tolerates beside the named ones are no failure.
    static func failure(_ verdict: Verdict) -> (Counterexample.Kind, AnomalyKind)? {
        if let unexpected = verdict.excess.first(where: { $0 != .unmetExpectation }) { return (.unexpectedAnomaly, unexpected) }
        if let missing = verdict.missing.first { return (.missingAnomaly, missing) }
        return nil
    }

    /// One deterministic run of `run`.
    func execute(_ run: ScenarioRun, summary: String) -> RunOutcome {
        ScenarioRunner.execute(RunPlan(run: run, summary: summary, mode: .deterministic),
                               options: RunnerOptions(agentExecutable: executable, agentPool: pool))
    }
}
