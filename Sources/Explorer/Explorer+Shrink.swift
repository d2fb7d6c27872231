import Basics
import Checkers
import Foundation
import Reporters
import Runner
import Supervisor
import ScenarioModel
import Trace

extension Explorer {
    /// Shrinks a failing schedule's explicit steps and writes the smallest that still fails as
    /// `<report>/<scenario>/<variant>/counterexample-<number>.yaml` (with `schedule: as-written`, so that it
    /// replays the schedule), with its report beside it; then runs the file once in the deterministic mode
    /// and `realTimeRuns` times in real time to say how often it reproduces there.
    func shrink(_ executed: [ScenarioStep], run: ScenarioRun, kind: Counterexample.Kind, anomaly: AnomalyKind, seed: UInt64,
                scenario: Scenario, source: String, number: Int, explanation: String) -> Counterexample? {
        let name = "\(scenario.name)-\(run.variant)-counterexample-\(number)"
        func text(_ steps: [ScenarioStep], expectation: Expectation, comment: [String] = []) -> String? {
            try? ScenarioWriter.file(
                name: Escape.pathComponent(name).lowercased(), summary: scenario.summary, comment: comment, storeSource: source,
                processes: run.processes, steps: steps, expectation: expectation, seed: seed, staleTolerance: run.staleTolerance,
                growthLimits: run.growthLimits, storeFrom: scenario.store.from, schedule: .asWritten)
        }
        /// The candidate as a file read back, run in the deterministic mode: its verdict, or nil when it
        /// is not a valid scenario or the harness could not carry it through.
        func check(_ steps: [ScenarioStep]) -> CheckResult? {
            guard let text = text(steps, expectation: .pass),
                  let written = try? ScenarioLoader.parse(yaml: text, file: "\(name).yaml"),
                  let written = written.runs().first else { return nil }
            let outcome = execute(written, summary: scenario.summary)
            guard outcome.harnessError == nil else { return nil }
            return TraceChecker.check(outcome.trace)
        }
        // The schedule written out must fail as it did.
        guard let original = check(executed) else { return nil }
        let originalKinds = Set(original.verdict.found.keys)
        let model = scenario.store.model
        let seeded = scenario.store.from != nil
        func fails(_ steps: [ScenarioStep]) -> Bool {
            // A candidate whose count expects more objects than its steps could ever make shows a short
            // count for no reason of the schedule's: it is no smaller form of the bug.
            !Self.hasImpossibleCount(steps, model: model, seeded: seeded) && fails(check(steps))
        }
        func fails(_ result: CheckResult?) -> Bool {
            guard let result else { return false }
            let kinds = Set(result.verdict.found.keys)
            // A candidate must not fail by a check it broke (one that can no longer pass shows a kind the
            // schedule did not): it shows nothing the schedule did not show.
            guard kinds.isSubset(of: originalKinds) else { return false }
            let shows = kinds.contains(anomaly)
            return kind == .unexpectedAnomaly ? shows : !shows
        }
        guard fails(original) else { return nil }
        var shrinker = Shrinker { fails($0) }
        func isFileStep(_ step: ScenarioStep) -> Bool { step.location != Perturber.location && step.location != .schedule }
        if kind == .missingAnomaly {
            // Without the file's own steps nothing shows the bug: first only what the schedule added may go.
            shrinker.keep = isFileStep
        }
        var shrunk = shrinker.shrink(executed)
        var attempts = shrinker.attempts
        if kind == .missingAnomaly {
            // Then the file's steps the bug does not need: a candidate must still hide the anomaly under the
            // schedule, and with the schedule's steps taken out still show every kind the variant expects, so
            // a step goes only when the file shows its bug without it (a step that makes the bug, the check
            // that shows it, and what makes the other kinds it expects stay: a purge behind expired-token).
            let expected = Set(run.expectation.kinds + [anomaly])
            var fileSteps = Shrinker { candidate in
                fails(candidate) && (check(candidate.filter(isFileStep)).map { expected.isSubset(of: $0.verdict.found.keys) } ?? false)
            }
            fileSteps.keep = { !isFileStep($0) }
            let before = shrunk.count
            shrunk = fileSteps.shrink(shrunk)
            attempts += fileSteps.attempts
            // A schedule step that went with a removed file step's need (a hold before it) may go now.
            if shrunk.count < before {
                var again = Shrinker { fails($0) }
                again.keep = isFileStep
                shrunk = again.shrink(shrunk)
                attempts += again.attempts
            }
        }
        // Checks that still fail without explaining the anomaly are no part of it: they go. Not from a
        // schedule that hides the anomaly: without the check that could show it the file would pass
        // vacuously (the same rule as `keep` above).
        if kind == .unexpectedAnomaly, let final = check(shrunk) {
            for index in Self.failingChecks(final, in: shrunk, besides: anomaly).reversed() {
                var candidate = shrunk
                candidate.remove(at: index)
                if fails(candidate) { shrunk = candidate }
            }
        }
        let final = check(shrunk)
        let expectation: Expectation = kind == .unexpectedAnomaly
            ? .anomalies([anomaly])
            : (final.map { $0.verdict.found.isEmpty ? .pass : .anomalies($0.verdict.found.keys.sorted()) } ?? .pass)
        let comment = [
            "Found by groupsim explore (\(strategy)): \(scenario.name) / \(run.variant), schedule seed \(seed).",
            kind == .unexpectedAnomaly
                ? "The variant expects \(run.expectation.text); under this schedule it shows \(anomaly.rawValue)."
                : "The variant expects \(anomaly.rawValue); under this schedule it does not show it.",
            "Shrunk from \(executed.count) to \(shrunk.count) explicit steps (\(attempts) candidates run).",
            "`hold-notifications` ... `deliver` is a notification arriving after the receiver's steps between them.",
            "Run it: groupsim run <this file> (--deterministic to replay the schedule exactly).",
        ]
        guard let file = text(shrunk, expectation: expectation, comment: comment) else { return nil }
        let directory = reportDirectory.appendingPathComponent(Escape.pathComponent(scenario.name))
            .appendingPathComponent(Escape.pathComponent(run.variant))
        let url = directory.appendingPathComponent("counterexample-\(number).yaml")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(file.utf8).write(to: url)
        } catch {
            return nil
        }
        let (deterministic, realTime) = reproduce(file, name: url.path, summary: scenario.summary,
                                                  reportTo: directory.appendingPathComponent("counterexample-\(number)"))
        return Counterexample(
            kind: kind, anomaly: anomaly, seed: seed, stepsBefore: executed.count, stepsAfter: shrunk.count,
            shrinkAttempts: attempts,
            file: "\(Escape.pathComponent(scenario.name))/\(Escape.pathComponent(run.variant))/\(url.lastPathComponent)",
            reproducesDeterministic: deterministic, realTimeReproductions: realTime, realTimeRuns: realTimeRuns,
            explanation: explanation)
    }

    /// Whether some `count` in `steps` expects more objects of its entity (its sub-entities' included) than
    /// the steps before it insert, so that it can never pass; never when something makes objects the steps
    /// do not name one by one (a batch insert, a workload, a sync, a restore, a store from a file).
    static func hasImpossibleCount(_ steps: [ScenarioStep], model: ModelDescription, seeded: Bool) -> Bool {
        guard !seeded else { return false }
        var inserted: [(entity: String, id: String)] = []
        var impossible = false
        var unbounded = false
        func visit(_ step: ScenarioStep) {
            switch step.step {
            case .insert(let entity, let id, _):
                if !inserted.contains(where: { $0.entity == entity && $0.id == id }) { inserted.append((entity, id)) }
            case .batchInsert, .workload, .sync, .leech, .restoreStore:
                unbounded = true
            case .count(let entity, let expected, _, _):
                let bound = Set(inserted.filter { model.entity($0.entity, isKindOf: entity) }.map(\.id)).count
                if !unbounded && expected > bound { impossible = true }
            default:
                step.step.nestedSteps?.forEach(visit)
            }
        }
        steps.forEach(visit)
        return impossible
    }

    /// The positions in `steps` of the top-level check steps whose check failed in `result` without being
    /// where `anomaly` was found.
    static func failingChecks(_ result: CheckResult, in steps: [ScenarioStep], besides anomaly: AnomalyKind) -> [Int] {
        let anomalySteps = Set(result.anomalies.filter { $0.kind == anomaly }.compactMap(\.step))
        let failedSteps = Set(result.anomalies.filter { $0.kind == .unmetExpectation }.compactMap(\.step))
        // A plan numbers the children of `parallel` after it: the plan's index of each top-level step.
        func planned(_ step: ScenarioStep) -> Int { 1 + (step.step.nestedSteps ?? []).reduce(0) { $0 + planned($1) } }
        var planIndex: [Int] = []
        var next = 0
        for step in steps {
            planIndex.append(next)
            next += planned(step)
        }
        return steps.indices.filter { index in
            switch steps[index].step {
            case .read, .count, .state, .results: failedSteps.contains(planIndex[index]) && !anomalySteps.contains(planIndex[index])
            default: false
            }
        }
    }

    /// Runs a written counterexample as `groupsim run` would: once in the deterministic mode (writing its
    /// report into `reportTo`) and `realTimeRuns` times in real time. Whether the deterministic run matched
    /// its `expect:`, and how many real-time runs did.
    func reproduce(_ text: String, name: String, summary: String, reportTo: URL) -> (Bool, Int) {
        guard let scenario = try? ScenarioLoader.parse(yaml: text, file: name), let run = scenario.runs().first else {
            return (false, 0)
        }
        let deterministic = ScenarioRunner.execute(
            RunPlan(run: run, summary: summary, mode: .deterministic), options: RunnerOptions(agentExecutable: executable, agentPool: pool))
        let reported = ReportedRun(checking: deterministic.trace)
        try? ReportWriter.writeRun(reported, to: reportTo)
        var realTime = 0
        for _ in 0..<realTimeRuns where ProcessGuard.interruption == nil {
            let outcome = ScenarioRunner.execute(RunPlan(run: run, summary: summary, mode: .realTime),
                                                 options: RunnerOptions(agentExecutable: executable))
            if outcome.harnessError == nil, TraceChecker.check(outcome.trace).verdict.matched { realTime += 1 }
        }
        return (reported.result.verdict.matched, realTime)
    }
}
