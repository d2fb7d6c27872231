import Checkers
import Foundation
import Reporters
import Testing
import TestSupport
import Trace

@Suite("writing report directories")
struct ReportWriterTests {
    @Test func writesFourFilesPerRunAndAnIndexOverSeveral() throws {
        let dir = try TemporaryDirectory()
        let runs = SampleTraces.refreshWithInfiniteStalenessRuns()
        try ReportWriter.writeAll(runs, to: dir.url)
        for variant in ["stale-cache", "fresh-cache"] {
            for file in ReportWriter.runFiles {
                #expect(FileManager.default.fileExists(atPath: dir.path("refresh-with-infinite-staleness/\(variant)/\(file)")), "\(variant)/\(file)")
            }
        }
        for file in ReportWriter.indexFiles {
            #expect(FileManager.default.fileExists(atPath: dir.path(file)), "\(file)")
        }
        let index = try String(contentsOfFile: dir.path("index.html"), encoding: .utf8)
        #expect(index.contains("href=\"refresh-with-infinite-staleness/stale-cache/report.html\""))
        let page = try String(contentsOfFile: dir.path("refresh-with-infinite-staleness/stale-cache/report.html"), encoding: .utf8)
        #expect(page.contains("href=\"../fresh-cache/report.html\""))
    }

    @Test func htmlIsSelfContained() {
        let run = SampleTraces.refreshWithInfiniteStalenessRuns()[0]
        let html = HTMLReport.render(run)
        #expect(!html.contains("<script"))
        #expect(!html.contains("<link"))
        #expect(!html.contains("src="))
        #expect(!html.contains("@import"))
        // The only URL is the SVG namespace, which browsers never fetch.
        let urls = html.components(separatedBy: "http").count - 1
        let namespaces = html.components(separatedBy: "http://www.w3.org/2000/svg").count - 1
        #expect(urls == namespaces)
    }

    @Test func sameRunRendersTheSameBytes() throws {
        let a = SampleTraces.refreshWithInfiniteStalenessRuns(), b = SampleTraces.refreshWithInfiniteStalenessRuns()
        #expect(HTMLReport.render(a[0], variants: a) == HTMLReport.render(b[0], variants: b))
        #expect(try JSONReport.render(a[0]) == JSONReport.render(b[0]))
    }

    @Test func injectedTimestampIsTheOnlyClockInAReport() throws {
        let run = SampleTraces.refreshWithInfiniteStalenessRuns()[0]
        let options = ReportOptions(generatedAt: "2026-01-02T03:04:05Z")
        #expect(HTMLReport.render(run, options: options).contains("Generated 2026-01-02T03:04:05Z."))
        #expect(JSONReport.document(run, options: options).generatedAt == "2026-01-02T03:04:05Z")
        #expect(JSONReport.document(run).generatedAt == nil)
        #expect(JUnitReport.render([run], options: options).contains("timestamp=\"2026-01-02T03:04:05Z\""))
    }

    @Test func jsonDeclaresItsSchemaVersion() throws {
        let run = SampleTraces.refreshWithInfiniteStalenessRuns()[0]
        let object = try JSONSerialization.jsonObject(with: JSONReport.render(run)) as? [String: Any]
        #expect(object?["schemaVersion"] as? Int == 2)
    }
}

/// `GROUPSIM_SAMPLE_REPORTS=<dir> swift test --filter sampleReports` writes the bug-1 sample's
/// reports into `<dir>` (to look at, screenshot, or validate against Docs/report.schema.json).
/// A tool rather than a test: skipped (and shown as skipped) unless the variable is set.
@Suite("sample reports")
struct SampleReportTests {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["GROUPSIM_SAMPLE_REPORTS"] != nil,
                   "set GROUPSIM_SAMPLE_REPORTS=<dir> to write the sample reports"))
    func sampleReports() throws {
        let path = try #require(ProcessInfo.processInfo.environment["GROUPSIM_SAMPLE_REPORTS"])
        try ReportWriter.writeAll(SampleTraces.refreshWithInfiniteStalenessRuns(), to: URL(fileURLWithPath: path))
        try ReportWriter.writeAll([EscapingTests.hostileRun()], to: URL(fileURLWithPath: path).appendingPathComponent("hostile"))
        let load = ReportedRun(checking: SyntheticTrace.generate(events: 20_000, seed: 5, staleEvery: 400))
        try ReportWriter.writeAll([load], to: URL(fileURLWithPath: path).appendingPathComponent("load"))
    }
}

@Suite("large runs")
struct LargeRunReportTests {
    @Test func hugeRunRendersAPageOfBoundedSize() throws {
        let run = ReportedRun(checking: SyntheticTrace.generate(events: 60_000, seed: 5, staleEvery: 200))
        let html = HTMLReport.render(run)
        // Marks are sampled: the page stays a few megabytes however long the run.
        #expect(html.utf8.count < 6_000_000)
        #expect(html.contains("stale-read"))
    }
}

/// A reused report directory and text from a scenario or a store are someone else's: neither sends a
/// report file outside the directory nor puts a live link in a summary.
@Suite struct ReportFolderHostilityTests {
    @Test func aRunFolderThatIsALinkIsReplacedNotWrittenThrough() throws {
        let dir = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        let runs = SampleTraces.refreshWithInfiniteStalenessRuns()
        let variant = ReportWriter.directory(for: runs[0].info, under: dir.url)
        try FileManager.default.createDirectory(at: variant.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: variant, withDestinationURL: outside.url)
        try ReportWriter.writeAll(runs, to: dir.url)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path("")).isEmpty, "nothing written through the link")
        let type = try FileManager.default.attributesOfItem(atPath: variant.path)[.type] as? FileAttributeType
        #expect(type == .typeDirectory)
        #expect(FileManager.default.fileExists(atPath: variant.appendingPathComponent("summary.md").path))
    }

    @Test func linksAndImagesInTextStayText() {
        let text = "[x](javascript:alert(1)) ![](http://example.com/t.png) `code`"
        let escaped = Escape.markdownCell(text)
        #expect(!escaped.contains("[x]") && !escaped.contains("![]") && !escaped.contains("`code`"))
        #expect(escaped == "\\[x\\](javascript:alert(1)) !\\[\\](http://example.com/t.png) \\`code\\`")
    }
}
