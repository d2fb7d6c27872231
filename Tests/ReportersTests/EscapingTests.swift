import Checkers
import Foundation
import Reporters
import Testing
import Trace
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Scenario-provided text reaches every report escaped: names, values, step text, messages.
@Suite("escaping")
struct EscapingTests {
    static let evil = "<script>alert(\"x&y\")</script> & 'q'"

    /// A run whose every name and value is hostile, with a stale read so the values are printed.
    static func hostileRun() -> ReportedRun {
        var s = TraceScript(
            processes: [("<b>app</b>", "host"), ("sh\"are", "share")],
            scenario: "evil<script>", variant: "a&b\"<i>", file: "Scenarios/<x>&.yaml", summary: evil,
            expected: .anomalies(["stale-read"]), settings: ["<b>app</b>": ["refresh": "<img src=x>"]])
        s.at(ms: 1)
        s.step("<b>app</b>", "<b>app</b>: read \(evil)", line: 3)
        s.insert("<b>app</b>", "n<1>", ["title": .string(evil)])
        s.at(ms: 2)
        s.step("sh\"are", "sh\"are: save", line: 4)
        s.update("sh\"are", "n<1>", ["title": .string("B&<script>")], version: 2)
        s.at(ms: 3)
        s.read("<b>app</b>", "n<1>", ["title": .string(evil)], version: 1, source: "cache")
        s.record("<b>app</b>", .error(ErrorRecord(kind: "other", message: "</td><script>x</script>")))
        return ReportedRun(checking: s.trace)
    }

    @Test func htmlCarriesNoMarkupFromTheScenario() {
        let run = Self.hostileRun()
        #expect(run.result.anomalies.contains { $0.kind == .staleRead })
        for html in [HTMLReport.render(run, variants: [run, run]), IndexPage.render([run])] {
            #expect(!html.lowercased().contains("<script"))
            #expect(!html.contains("<b>app"))
            #expect(!html.contains("<img"))
            #expect(!html.contains("<i>"))
            #expect(html.contains("&lt;script&gt;alert(&quot;x&amp;y&quot;)&lt;/script&gt; &amp; &#39;q&#39;"))
        }
    }

    @Test func junitIsWellFormedXMLWithTheTextIntact() throws {
        let run = Self.hostileRun()
        let xml = JUnitReport.render([run])
        #expect(!xml.contains("<script"))
        let parser = XMLParser(data: Data(xml.utf8))
        let collector = TextCollector()
        parser.delegate = collector
        #expect(parser.parse(), "junit.xml does not parse: \(parser.parserError.map { "\($0)" } ?? "")")
        #expect(collector.attributes.contains("evil<script>"))
        #expect(collector.attributes.contains("a&b\"<i>"))
        #expect(collector.text.contains(Self.evil))
    }

    @Test func markdownLeavesNoLiveHTMLAndKeepsTablesIntact() {
        let run = Self.hostileRun()
        for md in [MarkdownReport.render(run, variants: [run, run]), MarkdownReport.renderIndex([run])] {
            #expect(!md.contains("<script"))
            #expect(!md.contains("<b>"))
            for line in md.split(separator: "\n") where line.hasPrefix("| ") {
                // Every table row has as many unescaped pipes as its header.
                let pipes = line.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count
                #expect(pipes >= 3)
            }
        }
    }

    @Test func jsonRoundTripsTheTextExactly() throws {
        let run = Self.hostileRun()
        let document = try JSONDecoder().decode(JSONReport.Document.self, from: JSONReport.render(run))
        #expect(document.run.summary == Self.evil)
        #expect(document.anomalies.first { $0.kind == "stale-read" }?.seen?.contains(Self.evil) == true)
    }

    @Test func replayCommandQuotesNamesForTheShell() {
        let run = Self.hostileRun()
        #expect(ConsoleReport.replayCommand(run.info) == "swift run groupsim run 'Scenarios/<x>&.yaml' --variant 'a&b\"<i>' --seed 1")
        var info = run.info
        info.variant = "it's"
        #expect(ConsoleReport.replayCommand(info).contains("--variant 'it'\\''s'"))
    }

    @Test func directoryNamesCannotEscapeTheReportDirectory() {
        var info = Self.hostileRun().info
        info.scenario = "../../etc"
        info.variant = ".."
        let dir = ReportWriter.directory(for: info, under: URL(fileURLWithPath: "/tmp/r"))
        #expect(dir.standardizedFileURL.path.hasPrefix("/tmp/r/"))
        #expect(!dir.path.contains("/../"))
    }
}

private final class TextCollector: NSObject, XMLParserDelegate {
    var text = ""
    var attributes: Set<String> = []

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        self.attributes.formUnion(attributes.values)
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
}
