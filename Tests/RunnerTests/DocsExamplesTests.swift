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
    }
}
