import Checkers
import Foundation
@testable import Reporters
import Testing
import Trace

/// Every format, rendered from the bug-1 sample, compared with its golden file.
@Suite("golden reports")
struct GoldenReportTests {
    let runs = SampleTraces.refreshWithInfiniteStalenessRuns()
    var stale: ReportedRun { runs[0] }

    @Test func reportJSONMatchesGolden() throws {
        try golden.verify(String(decoding: try JSONReport.render(stale), as: UTF8.self), named: "stale-cache.report.json")
    }

    @Test func summaryMarkdownMatchesGolden() throws {
        try golden.verify(MarkdownReport.render(stale, variants: runs), named: "stale-cache.summary.md")
    }

    @Test func junitMatchesGolden() throws {
        try golden.verify(JUnitReport.render([stale]), named: "stale-cache.junit.xml")
    }

    @Test func htmlReportMatchesGolden() throws {
        try golden.verify(HTMLReport.render(stale, variants: runs, link: { "../\($0.info.variant)/report.html" }), named: "stale-cache.report.html")
    }

    @Test func indexFilesMatchGolden() throws {
        try golden.verify(IndexPage.render(runs, link: { "\($0.info.scenario)/\($0.info.variant)/report.html" }), named: "index.html")
        try golden.verify(MarkdownReport.renderIndex(runs), named: "index.summary.md")
        try golden.verify(JUnitReport.render(runs), named: "index.junit.xml")
    }

    @Test func compareMatrixMatchesGolden() throws {
        let labelled = runs.map { ReportedRun(trace: $0.trace, result: $0.result, label: $0.info.variant == "stale-cache" ? "staleness -1" : "staleness 0") }
        try golden.verify(CompareMatrix.markdown(labelled) + "\n" + CompareMatrix.html(labelled), named: "compare.txt")
    }

    @Test func theRecommendationTakesFewestAnomaliesThenNeverShownThenLatencyThenCost() {
        func row(_ label: String, anomalies: Int = 0, neverShown: Int = 0, p99: UInt64? = nil, cost: UInt64 = 0, failed: Bool = false) -> CompareMatrix.Row {
            CompareMatrix.Row(label: label, variant: label, expected: "pass", matched: true, anomalies: anomalies == 0 ? "none" : "stale-read: \(anomalies)",
                              p50: p99, p99: p99, shownP99: p99, neverShown: neverShown, refreshCount: cost == 0 ? 0 : 1, refreshNanos: cost,
                              anomalyCount: anomalies, failed: failed)
        }
        let rows = [row("refresh: none", anomalies: 2), row("refresh: history", p99: 5_000_000, cost: 900),
                    row("refresh: refetch", p99: 5_000_000, cost: 300), row("refresh: staleness, staleness: 0", neverShown: 1, p99: 1_000_000),
                    row("broken", failed: true)]
        #expect(CompareMatrix.recommended(rows)?.label == "refresh: refetch", "as fast as history, cheaper")
        #expect(CompareMatrix.recommendation(rows).hasPrefix("Recommended: refresh: refetch (no anomalies, refreshed p99 5 ms, 300 ns in 1 refresh; "))
        #expect(CompareMatrix.recommendation(rows).contains("as few anomalies: refresh: history, slower or costlier"), "the one with a save never shown is not a peer")
        #expect(CompareMatrix.recommended([row("a", anomalies: 1, p99: 1), row("b", anomalies: 1)])?.label == "a", "a measured refresh beats none")
        #expect(CompareMatrix.recommended([row("broken", failed: true)]) == nil)
        #expect(CompareMatrix.recommendation([]) == "No strategy ran through: nothing to recommend.")
    }

    @Test func aFolderWithoutRunsIsNotShownAsASuccess() {
        let page = IndexPage.render([])
        #expect(page.contains("<span class=\"badge none\">Summary: no runs</span>"))
        #expect(!page.contains("badge ok"))
        #expect(MarkdownReport.renderIndex([]).contains("Summary: no runs."))
        #expect(ConsoleReport.summary([]) == "Summary: no runs")
    }

    @Test func consoleLinesMatchGolden() throws {
        var unmatched = runs[1]
        unmatched.result.verdict = Verdict(expected: .pass, anomalies: [Anomaly(kind: .busy, process: "app", t: 0, explanation: "x")])
        let lines = runs.flatMap { ConsoleReport.lines($0.result) } + ConsoleReport.lines(unmatched.result) + [ConsoleReport.summary(runs.map(\.result) + [unmatched.result])]
        try golden.verify(lines.joined(separator: "\n") + "\n", named: "console.txt")
    }

    /// Past three anomalies the console counts the rest, in the right number (review 99 saw "1 more anomalies").
    @Test func theConsoleCountsTheAnomaliesItLeavesOutInTheRightNumber() {
        var unmatched = runs[1]
        func anomalies(_ count: Int) -> [Anomaly] {
            (0..<count).map { Anomaly(kind: .busy, process: "app", t: UInt64($0), explanation: "x") }
        }
        func lines(_ count: Int) -> [String] {
            unmatched.result.anomalies = anomalies(count)
            unmatched.result.verdict = Verdict(expected: .pass, anomalies: anomalies(count))
            return ConsoleReport.lines(unmatched.result)
        }
        #expect(lines(4).contains("  … and 1 more anomaly"))
        #expect(lines(5).contains("  … and 2 more anomalies"))
        #expect(!lines(3).contains { $0.contains("more anomal") })
    }
}
