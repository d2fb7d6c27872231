import Checkers
import Foundation
import Reporters
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

    @Test func consoleLinesMatchGolden() throws {
        var unmatched = runs[1]
        unmatched.result.verdict = Verdict(expected: .pass, anomalies: [Anomaly(kind: .busy, process: "app", t: 0, explanation: "x")])
        let lines = runs.flatMap { ConsoleReport.lines($0.result) } + ConsoleReport.lines(unmatched.result) + [ConsoleReport.summary(runs.map(\.result) + [unmatched.result])]
        try golden.verify(lines.joined(separator: "\n") + "\n", named: "console.txt")
    }
}
