import Basics
import Checkers
import Foundation
import Runner
import Testing
import TestSupport

/// The scenarios the docs walk through (Docs/examples) run as the docs say: every variant matches, in
/// real time and in the deterministic mode with several seeds.
@Suite(.serialized, .spawnsProcesses) struct DocsExamplesTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Docs/examples").standardizedFileURL

    @Test func theFirstScenarioWalkthroughMatchesInBothModes() throws {
        let yaml = try String(contentsOf: Self.examples.appendingPathComponent("widget-count-after-delete.yaml"), encoding: .utf8)
        var verdicts: [String] = []
        for (mode, seed) in [(RunMode.realTime, UInt64?.none), (.deterministic, 1), (.deterministic, 2), (.deterministic, 3)] {
            for outcome in try RunHarness.run(yaml, mode: mode, seed: seed) {
                #expect(outcome.harnessError == nil)
                let verdict = TraceChecker.check(outcome.trace).verdict
                verdicts.append("\(outcome.plan.run.variant): \(verdict.matched) \(verdict.found.keys.map(\.rawValue).sorted())")
            }
        }
        #expect(Set(verdicts) == ["reload-then-save: true [\"not-converged\"]", "save-then-reload: true []"], "\(verdicts)")
        // Each reload checks its own count: the second reload of the fixed order shows 2, not 3.
        let wrong = yaml.replacingOccurrences(of: "expect: [3, 2]", with: "expect: [3, 3]")
        for mode in RunMode.allCases {
            let outcome = try RunHarness.single(wrong, variant: "save-then-reload", mode: mode)
            let result = TraceChecker.check(outcome.trace)
            #expect(!result.verdict.matched && result.anomalies.map(\.kind) == [.unmetExpectation], "\(mode): \(result.anomalies)")
            #expect(result.anomalies.first?.explanation.contains("counted 2 Task") == true, "\(result.anomalies.first?.explanation ?? "")")
        }
    }
}
