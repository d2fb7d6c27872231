import Checkers
import Foundation
import Reporters
import Testing

/// The page `compare` writes: strategies measured side by side, none judged.
@Suite("compare page")
struct ComparePageTests {
    @Test func theChartShowsEachStrategyWithItsLatencyAndAnomalies() {
        let runs = SampleTraces.refreshWithInfiniteStalenessRuns()
        let html = ComparePage.render(scenario: "refresh-with-infinite-staleness", summary: "s", runs: runs)
        let chart = html.components(separatedBy: "<svg class=\"compare-chart\"").dropFirst().first ?? ""
        #expect(chart.contains(">stale-cache</text>") && chart.contains(">fresh-cache</text>"))
        #expect(chart.contains(">never (1 save)</text>"), "stale-cache never showed share's save")
        #expect(chart.contains(">stale-read, not-converged</text>") && chart.contains(">no anomalies</text>"))
        #expect(!html.contains("NOT MATCHED") && !html.contains("<th>verdict</th>"), "strategies are not judged")
    }
}
