import Basics
import Checkers
import Foundation
import Runner
import Synchronization
import ScenarioModel
import Supervisor
import Trace

/// How `explore` picks the schedules it runs.
public enum ExploreStrategy: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Each choice uniformly at random from the schedule's seed, with the file's perturbations.
    case random
    /// Probabilistic concurrency testing: processes ranked at random, `depth - 1` change points.
    case pct(depth: Int)
    /// Every distinct schedule of the choices the runner makes, depth first, until all are tried or the
    /// runs or the time run out (no perturbations: they are the random strategies').
    case exhaustive

    public var description: String {
        switch self {
        case .random: "random"
        case .pct(let depth): "pct (depth \(depth))"
        case .exhaustive: "exhaustive"
        }
    }
}

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
    /// Every schedule (two or more) failed: the file fails as written, whatever the order, so no schedule
    /// is to blame and none is shrunk into a counterexample.
    public var failsEverySchedule: Bool { failing == schedules && schedules > 1 }
    /// How much of the space of schedules was tried.
    public var coverage: ExploreCoverage?
    /// Schedules run again to check that the deterministic mode gives the same trace, and how many did.
    public var replayed: Int = 0
    public var replayedIdentically: Int = 0

    /// Whether the variant fails the explore: a schedule that failed and no file pins (it may be real),
    /// or a counterexample that reproduces in real time at least once; with `strict`, any counterexample.
    public func fails(strict: Bool) -> Bool {
        guard failing > 0 else { return false }
        if counterexamples.isEmpty { return true }
        return counterexamples.contains { strict || $0.realTimeReproductions > 0 }
    }
}

/// How much of a variant's space of schedules an explore tried.
public struct ExploreCoverage: Sendable, Codable, Hashable {
    /// Distinct schedules tried (distinct sequences of choices).
    public var distinct: Int
    /// How many there are: exact when `complete`, else Knuth's estimate from the runs' branching.
    public var estimated: Double
    /// Whether every schedule was tried (the exhaustive strategy ran out of schedules before runs or time).
    public var complete: Bool
    /// Choice points per schedule, on average, by kind (`deliver-early`, `hold-past-step`, `parallel-order`).
    public var choicePoints: [String: Double]

    public var text: String {
        if complete { return distinct == 1 ? "the only schedule" : "all \(distinct) schedules" }
        let total = estimated >= 1e15 ? String(format: "%.1e", estimated) : String(Int(estimated.rounded()))
        return "\(distinct) distinct of about \(total)"
    }
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
    /// Whether `groupsim run --deterministic` on it matched its `expect:`.
    public var reproducesDeterministic: Bool
    /// How many of `realTimeRuns` real-time runs of it matched its `expect:`.
    public var realTimeReproductions: Int
    public var realTimeRuns: Int
    /// The first anomaly's explanation under the schedule.
    public var explanation: String

    /// Whether it reproduces in real time: at least 4 runs of 5 (80%).
    public var reproducesRealTime: Bool {
        realTimeRuns > 0 && realTimeReproductions * 5 >= realTimeRuns * 4
    }

    /// "reproduces in real time 5 of 5", "flaky in real time 2 of 5", or "deterministic only (0 of 5 in real time)".
    public var reproductionText: String {
        let rate = "\(realTimeReproductions) of \(realTimeRuns)"
        if !reproducesDeterministic { return "does not reproduce when run again (real time \(rate))" }
        if reproducesRealTime { return "reproduces in real time \(rate)" }
        if realTimeReproductions > 0 { return "flaky in real time: \(rate)" }
        return "deterministic only (\(rate) in real time)"
    }
}

/// Runs many schedules of each variant in the deterministic mode (seeded at random, by PCT, or every one
/// in turn), perturbed as `explore:` allows, and shrinks every schedule that does not match the variant's
/// expectation to a minimal scenario file with nothing random left, which it then runs in real time to
/// say how often it reproduces there.
public struct Explorer: Sendable {
    public var executable: String
    public var pool: AgentPool
    /// Schedules per variant.
    public var runs: Int
    /// How each variant's schedules are chosen.
    public var strategy: ExploreStrategy = .random
    /// How long each variant may be explored (nanoseconds), whatever `runs` says; nil for no limit.
    public var variantBudget: UInt64?
    /// The first seed, and this machine's shard of the seeds (seeds `first + index + k * count`).
    public var firstSeed: UInt64
    public var shard: Shard
    /// At most this many counterexamples per variant (one per anomaly kind and way of failing).
    public var maximumCounterexamples = 3
    /// How many times each counterexample is run in real time to measure how often it reproduces there.
    public var realTimeRuns = 5
    /// How many schedules of each variant are run a second time to check the trace is the same.
    public var determinismSample = 2
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
        var choices: [ChoiceRecord] = []
        /// The trace's fingerprint with its header's seed set aside: equal for two runs of one schedule,
        /// whether a replay of its seed or another seed that made the same choices.
        var fingerprint = ""
        /// The choices this schedule was told to make first (the exhaustive strategy's).
        var prefix: [Int] = []
    }

    func explore(_ scenario: Scenario, variant: String, source: String) -> VariantExploration {
        let template = scenario.run(variant: variant)!
        var result = VariantExploration(scenario: scenario.name, variant: variant, file: scenario.file, expected: template.expectation)
        let deadline = variantBudget.map { MonotonicClock.now() &+ $0 }
        let (outcomes, complete) = strategy == .exhaustive
            ? enumerate(scenario, variant: variant, deadline: deadline)
            : sampleUnlessSingle(scenario, variant: variant, deadline: deadline)
        // Every schedule first (`jobs` at a time); then the first failing schedule of each way of failing is
        // shrunk, one at a time, unless every schedule failed (then the file is at fault, not a schedule).
        var failed: [(ScheduleOutcome, Counterexample.Kind, AnomalyKind)] = []
        for outcome in outcomes {
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
            failed.append((outcome, kind, anomaly))
        }
        if result.failsEverySchedule { failed = [] }
        var shown: Set<String> = []
        for (outcome, kind, anomaly) in failed {
            guard result.counterexamples.count < maximumCounterexamples, ProcessGuard.interruption == nil,
                  shown.insert("\(kind)/\(anomaly)").inserted else { continue }
            if let counterexample = shrink(
                outcome.executed, run: outcome.run, kind: kind, anomaly: anomaly, seed: outcome.seed, scenario: scenario,
                source: source, number: result.counterexamples.count + 1, explanation: outcome.explanation) {
                result.counterexamples.append(counterexample)
            }
        }
        result.coverage = Self.coverage(outcomes, complete: complete)
        let sample = outcomes.filter { $0.decided && !$0.fingerprint.isEmpty }.prefix(max(0, determinismSample))
        for outcome in sample where ProcessGuard.interruption == nil {
            result.replayed += 1
            let again = schedule(scenario, variant: variant, seed: outcome.seed, prefix: outcome.prefix,
                                 perturbs: strategy != .exhaustive, fingerprinted: true)
            if again?.fingerprint == outcome.fingerprint { result.replayedIdentically += 1 }
        }
        return result
    }

    /// The seeded strategies' schedules, and whether they are every schedule there is. A variant with a
    /// single schedule runs it once: where the file allows no perturbation and runs no seeded workload, and
    /// the first two seeds made no choice and gave the same trace, every other seed would give it again.
    private func sampleUnlessSingle(_ scenario: Scenario, variant: String, deadline: UInt64?) -> ([ScheduleOutcome], Bool) {
        let seeds = seeds()
        guard seeds.count > 2, scenario.explore.isEmpty,
              let run = scenario.run(variant: variant), !run.steps.contains(where: \.holdsWorkload)
        else { return (sample(seeds, scenario, variant: variant, deadline: deadline), false) }
        let first = sample(Array(seeds.prefix(2)), scenario, variant: variant, deadline: deadline)
        if first.count == 2, first.allSatisfy({ $0.decided && $0.choices.isEmpty && !$0.fingerprint.isEmpty }),
           first[0].fingerprint == first[1].fingerprint {
            return ([first[0]], true)
        }
        return (first + sample(Array(seeds.dropFirst(2)), scenario, variant: variant, deadline: deadline, offset: 2), false)
    }

    /// The seeded strategies: `seeds` (of this shard), `jobs` at a time, in seed order; `offset` is where
    /// they start among the variant's seeds (the first few keep their fingerprints).
    private func sample(_ seeds: [UInt64], _ scenario: Scenario, variant: String, deadline: UInt64?,
                        offset: Int = 0) -> [ScheduleOutcome] {
        let outcomes = Mutex<[Int: ScheduleOutcome]>([:])
        let next = Atomic<Int>(0)
        let done = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: min(max(1, jobs), seeds.count)) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < seeds.count, ProcessGuard.interruption == nil else { return }
                if let deadline, MonotonicClock.now() > deadline { return }
                guard let outcome = schedule(scenario, variant: variant, seed: seeds[index],
                                             fingerprinted: offset + index < fingerprintedSchedules) else { return }
                outcomes.withLock { $0[index] = outcome }
                progress(variant, offset + done.add(1, ordering: .relaxed).newValue)
            }
        }
        return outcomes.withLock { all in all.keys.sorted().map { all[$0]! } }
    }

    /// The exhaustive strategy: every distinct sequence of choices, each run once. A run told to make the
    /// choices `prefix` and then alternative 0 opens, at every later choice it made, the alternatives it did
    /// not take; those are run in turn, `jobs` at a time. Whether every schedule was tried.
    private func enumerate(_ scenario: Scenario, variant: String, deadline: UInt64?) -> ([ScheduleOutcome], Bool) {
        let state = Mutex<(open: [[Int]], running: Int, outcomes: [ScheduleOutcome])>(([[]], 0, []))
        let seed = firstSeed
        DispatchQueue.concurrentPerform(iterations: max(1, jobs)) { _ in
            while true {
                var prefix: [Int]?
                var finished = false
                var fingerprints = false
                state.withLock { state in
                    if state.outcomes.count + state.running >= runs { finished = state.running == 0; prefix = nil; return }
                    if let open = state.open.popLast() {
                        prefix = open
                        fingerprints = state.outcomes.count + state.running < fingerprintedSchedules
                        state.running += 1
                    } else {
                        finished = state.running == 0
                    }
                }
                guard ProcessGuard.interruption == nil, deadline.map({ MonotonicClock.now() <= $0 }) ?? true else { return }
                guard let prefix else {
                    if finished { return }
                    usleep(2_000)
                    continue
                }
                let outcome = schedule(scenario, variant: variant, seed: seed, prefix: prefix, perturbs: false,
                                       fingerprinted: fingerprints)
                state.withLock { state in
                    state.running -= 1
                    guard let outcome else { return }
                    state.outcomes.append(outcome)
                    // Later choices first, so that the walk goes depth first.
                    for position in prefix.count..<outcome.choices.count {
                        let choice = outcome.choices[position]
                        for alternative in (choice.chosen + 1)..<max(choice.chosen + 1, choice.count) {
                            state.open.append(outcome.choices[..<position].map(\.chosen) + [alternative])
                        }
                    }
                }
                progress(variant, state.withLock { $0.outcomes.count })
            }
        }
        // In the order of their choices, whatever order the jobs finished them in.
        return state.withLock { state in
            (state.outcomes.sorted { $0.prefix.lexicographicallyPrecedes($1.prefix) }, state.open.isEmpty && state.running == 0)
        }
    }

    /// How much of the space the outcomes tried: distinct choice sequences, and the number of schedules
    /// (Knuth's estimator: the mean over runs of the product of each choice's alternatives).
    static func coverage(_ outcomes: [ScheduleOutcome], complete: Bool) -> ExploreCoverage {
        let decided = outcomes.filter(\.decided)
        let distinct = Set(decided.map { $0.choices.map(\.chosen) }).count
        let products = decided.map { $0.choices.reduce(1.0) { $0 * Double($1.count) } }
        let estimate = products.isEmpty ? 0 : products.reduce(0, +) / Double(products.count)
        var points: [String: Double] = [:]
        for outcome in decided {
            for choice in outcome.choices { points[choice.kind.rawValue, default: 0] += 1 }
        }
        for key in points.keys { points[key]! /= Double(max(1, decided.count)) }
        return ExploreCoverage(distinct: distinct, estimated: complete ? Double(distinct) : max(estimate, Double(distinct)),
                               complete: complete, choicePoints: points)
    }

    /// How many of a variant's first schedules keep their trace's fingerprint: the determinism replays take
    /// theirs from these (a couple more than the sample, in case one is undecided). Fingerprinting means
    /// encoding the whole trace, which costs a long run a quarter of its time, so the rest skip it.
    private var fingerprintedSchedules: Int { max(0, determinismSample) + 2 }

    /// One schedule of `variant`, run in the deterministic mode: the strategy's choices (from `seed`, or
    /// `prefix` then alternative 0), notifications as late as the file's `late-notifications`, and (unless
    /// told not to) the perturbations its `explore:` allows; with `fingerprinted`, the trace's fingerprint.
    func schedule(_ scenario: Scenario, variant: String, seed: UInt64, prefix: [Int] = [],
                  perturbs: Bool = true, fingerprinted: Bool = false) -> ScheduleOutcome? {
        guard var run = scenario.run(variant: variant, seed: seed) else { return nil }
        if perturbs {
            var random = SeededRandom(seed: seed ^ 0xE8A1_0F7E)
            let kept = Set(run.processes.filter { $0.settings.betweenPushes == .suspend }.map(\.name))
            run.steps = Perturber(space: scenario.explore, keptAfterPush: kept).perturb(run.steps, random: &random)
        }
        var plan = RunPlan(run: run, summary: scenario.summary, mode: .deterministic)
        let strategy: ScheduleSpec.Strategy = switch self.strategy {
        case .random: .seeded
        case .pct(let depth): .pct(depth: depth)
        case .exhaustive: .prefix(prefix)
        }
        plan.schedule = ScheduleSpec(strategy: strategy, lateNotifications: scenario.explore.lateNotifications)
        let outcome = ScenarioRunner.execute(plan, options: RunnerOptions(agentExecutable: executable, agentPool: pool))
        var result = ScheduleOutcome(seed: seed, decided: outcome.harnessError == nil, run: run, prefix: prefix)
        guard result.decided else { return result }
        result.choices = outcome.choices
        if fingerprinted {
            var trace = outcome.trace
            trace.info.seed = 0
            result.fingerprint = TraceFile.fingerprint(trace)
        }
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

    /// One deterministic run of `run` as written (`schedule: as-written` decides nothing).
    func execute(_ run: ScenarioRun, summary: String) -> RunOutcome {
        ScenarioRunner.execute(RunPlan(run: run, summary: summary, mode: .deterministic),
                               options: RunnerOptions(agentExecutable: executable, agentPool: pool))
    }
}

private extension ScenarioStep {
    /// Whether the step is, or holds, a workload (whose operations its seed draws).
    var holdsWorkload: Bool {
        if case .workload = step { return true }
        return step.nestedSteps?.contains(where: \.holdsWorkload) ?? false
    }
}
