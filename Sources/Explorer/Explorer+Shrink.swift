import Basics
import Checkers
import Foundation
import Reporters
import Runner
import ScenarioModel
import Trace

extension Explorer {
    /// Shrinks a failing schedule's explicit steps and writes the smallest that still fails as
    /// `<report>/<scenario>/<variant>/counterexample-<number>.yaml`, with its report beside it; then runs
    /// the file in both modes to say whether it reproduces.
    func shrink(_ executed: [ScenarioStep], run: ScenarioRun, kind: Counterexample.Kind, anomaly: AnomalyKind, seed: UInt64,
                scenario: Scenario, source: String, number: Int, explanation: String) -> Counterexample? {
        let name = "\(scenario.name)-\(run.variant)-counterexample-\(number)"
        func text(_ steps: [ScenarioStep], expectation: Expectation, comment: [String] = []) -> String? {
            try? ScenarioWriter.file(
                name: Escape.pathComponent(name).lowercased(), summary: scenario.summary, comment: comment, storeSource: source,
                processes: run.processes, steps: steps, expectation: expectation, seed: seed, staleTolerance: run.staleTolerance,
                growthLimits: run.growthLimits, storeFrom: scenario.store.from)
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
        // The schedule written out must fail as it did; a schedule that only fails with its random choices
        // (early deliveries the written file makes differently) cannot be pinned.
        guard let original = check(executed) else { return nil }
        let originalKinds = Set(original.verdict.found.keys)
        func fails(_ result: CheckResult?) -> Bool {
            guard let result else { return false }
            let shows = result.verdict.found[anomaly] != nil
            // A candidate that hides the anomaly must not do it by breaking something else.
            return kind == .unexpectedAnomaly ? shows : !shows && Set(result.verdict.found.keys).isSubset(of: originalKinds)
        }
        guard fails(original) else { return nil }
        var shrinker = Shrinker { fails(check($0)) }
        if kind == .missingAnomaly {
            // Without the file's own steps nothing shows the bug: only what the schedule added may go.
            shrinker.keep = { $0.location != Perturber.location && $0.step != .deliver }
        }
        let shrunk = shrinker.shrink(executed)
        let final = check(shrunk)
        let expectation: Expectation = kind == .unexpectedAnomaly
            ? .anomalies([anomaly])
            : (final.map { $0.verdict.found.isEmpty ? .pass : .anomalies($0.verdict.found.keys.sorted()) } ?? .pass)
        let comment = [
            "Found by groupsim explore: \(scenario.name) / \(run.variant), schedule seed \(seed).",
            kind == .unexpectedAnomaly
                ? "The variant expects \(run.expectation.text); under this schedule it shows \(anomaly.rawValue)."
                : "The variant expects \(anomaly.rawValue); under this schedule it does not show it.",
            "Shrunk from \(executed.count) to \(shrunk.count) explicit steps (\(shrinker.attempts) candidates run).",
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
        let (deterministic, realTime) = reproduce(file, name: url.lastPathComponent, summary: scenario.summary,
                                                  reportTo: directory.appendingPathComponent("counterexample-\(number)"))
        return Counterexample(
            kind: kind, anomaly: anomaly, seed: seed, stepsBefore: executed.count, stepsAfter: shrunk.count,
            shrinkAttempts: shrinker.attempts,
            file: "\(Escape.pathComponent(scenario.name))/\(Escape.pathComponent(run.variant))/\(url.lastPathComponent)",
            reproducesDeterministic: deterministic, reproducesRealTime: realTime, explanation: explanation)
    }

    /// Runs a written counterexample as `groupsim run` would, in both modes; writes the deterministic
    /// run's report into `reportTo`. Whether each run matched its `expect:`.
    func reproduce(_ text: String, name: String, summary: String, reportTo: URL) -> (Bool, Bool) {
        guard let scenario = try? ScenarioLoader.parse(yaml: text, file: name), let run = scenario.runs().first else {
            return (false, false)
        }
        var matched: [Bool] = []
        for mode in [RunMode.deterministic, .realTime] {
            let options = RunnerOptions(agentExecutable: executable, agentPool: mode == .deterministic ? pool : nil)
            let outcome = ScenarioRunner.execute(RunPlan(run: run, summary: summary, mode: mode), options: options)
            let reported = ReportedRun(checking: outcome.trace)
            if mode == .deterministic { try? ReportWriter.writeRun(reported, to: reportTo) }
            matched.append(reported.result.verdict.matched)
        }
        return (matched[0], matched[1])
    }
}
