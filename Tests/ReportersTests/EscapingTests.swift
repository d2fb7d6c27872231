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
            processes: [("<b>app</b>", .host), ("sh\"are", .share)],
            scenario: "evil<script>", variant: "a&b\"<i>", file: "Scenarios/<x>&.yaml", summary: evil,
            expected: .anomalies([.staleRead]), settings: ["<b>app</b>": ["refresh": "<img src=x>"]])
        s.at(ms: 1)
        s.step("<b>app</b>", "<b>app</b>: read \(evil)", line: 3)
        s.insert("<b>app</b>", "n<1>", ["title": .string(evil)])
        s.at(ms: 2)
        s.step("sh\"are", "sh\"are: save", line: 4)
        s.update("sh\"are", "n<1>", ["title": .string("B&<script>")], version: 2)
        s.at(ms: 3)
        s.read("<b>app</b>", "n<1>", ["title": .string(evil)], version: 1, source: .cache)
        s.record("<b>app</b>", .error(ErrorRecord(kind: .other, message: "</td><script>x</script>")))
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

/// What reaches a terminal or a CI log: no escape sequence from a scenario, one line per message, and a
/// harness error reported as an error (not a failure) in JUnit.
@Suite("console, markdown and junit hygiene")
struct ReportHygieneTests {
    static func run(value: String) -> ReportedRun {
        var s = TraceScript(processes: [("app", .host), ("share", .share)], scenario: "s\u{1B}[31m", expected: .pass)
        s.at(ms: 1)
        s.insert("app", "n1", ["title": .string("A")])
        s.at(ms: 2)
        s.update("share", "n1", ["title": .string(value)], version: 2)
        s.at(ms: 3)
        s.read("app", "n1", ["title": .string("A")], version: 1, source: .cache)
        s.record("runner", .warning("the workload ran\nslower"))
        return ReportedRun(checking: s.trace)
    }

    @Test func consoleAndMarkdownCarryNoTerminalEscapes() {
        let run = Self.run(value: "\u{1B}]0;pwned\u{07}B\u{85}C")
        let console = ConsoleReport.lines(run.result)
        #expect(!console.joined().contains("\u{1B}"))
        #expect(console.allSatisfy { !$0.contains("\n") && !$0.contains("\u{85}") })
        #expect(console.contains { $0.hasPrefix("  warning: runner: the workload ran\\u{a}slower") })
        let markdown = MarkdownReport.render(run)
        #expect(!markdown.contains("\u{1B}") && !markdown.contains("\u{85}"))
    }

    /// What a terminal acts on or that reorders text: control characters but line feed and tab, C1
    /// controls, bidirectional overrides and isolates.
    private static func acts(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\n" && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
            || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    @Test func htmlAndJUnitCarryNoTerminalEscapesAndJUnitKeepsTheTextExactly() throws {
        let hostile = "\u{1B}]0;pwned\u{07}B\rC\u{85}D\u{202E}E"
        var s = TraceScript(processes: [("app", .host), ("share", .share)], scenario: "s\u{1B}[31m",
                            file: "Scenarios/a\r\nb\u{1B}[2J.yaml", expected: .pass)
        s.at(ms: 1)
        s.insert("app", "n1", ["title": .string("A")])
        s.at(ms: 2)
        s.step("share", "share: update n1 \(hostile)", line: 4)
        s.update("share", "n1", ["title": .string(hostile)], version: 2)
        s.at(ms: 3)
        s.read("app", "n1", ["title": .string("A")], version: 1, source: .cache)
        let run = ReportedRun(checking: s.trace)
        for page in [HTMLReport.render(run, variants: [run]), IndexPage.render([run])] {
            let raw = page.unicodeScalars.filter(Self.acts)
            #expect(raw.isEmpty, "raw: \(raw.map { String($0.value, radix: 16) })")
            #expect(page.contains("s\\u{1B}[31m"), "the scenario's name is shown, escaped")
        }
        let xml = JUnitReport.render([run])
        #expect(xml.unicodeScalars.filter(Self.acts).isEmpty)
        // A file name's line breaks are kept exactly (a raw one in an attribute reads back as a space).
        let parser = XMLParser(data: Data(xml.utf8))
        let collector = TextCollector()
        parser.delegate = collector
        #expect(parser.parse())
        #expect(collector.attributes.contains("Scenarios/a\r\nb\u{FFFD}[2J.yaml"), "\(collector.attributes)")
    }

    /// A step that failed with no anomaly to show for it is on the console, matched or not (it was only in
    /// the reports, so a run read "matched, no anomalies" while a push's update found nothing).
    @Test func anErrorWithNoAnomalyIsOnTheConsole() {
        var s = TraceScript(processes: [("app", .host)], expected: .pass)
        s.at(ms: 1)
        s.step("app", "app: update n9", line: 7)
        s.record("app", .error(ErrorRecord(kind: .notFound, message: "no object n9\u{1B}[2J")))
        let run = ReportedRun(checking: s.trace)
        let lines = ConsoleReport.lines(run.result)
        #expect(run.result.verdict.matched, "\(run.result.anomalies.map(\.explanation))")
        #expect(lines.contains { $0.hasPrefix("  other error: ") && $0.contains("app not-found: no object n9\\u{1b}[2J") }, "\(lines)")
    }

    @Test func aLongValueIsCutInSentences() throws {
        let run = Self.run(value: String(repeating: "x", count: 5_000))
        let explanation = try #require(run.result.anomalies.first?.explanation)
        #expect(explanation.count < 600)
        #expect(explanation.contains("(5000 characters)"))
    }

    @Test func aHarnessErrorIsAJUnitErrorNotAFailure() {
        var undecided = Self.run(value: "B")
        undecided.result.undecided(by: HarnessFailure(location: "s.yaml:9", process: "app", message: "timed out"))
        let matched = ReportedRun(checking: TraceScript(processes: [("app", .host)]).trace)
        let xml = JUnitReport.render([undecided, matched])
        #expect(xml.contains("tests=\"2\" failures=\"0\" errors=\"1\""))
        #expect(xml.contains("<error message=\"s.yaml:9: process &apos;app&apos;: timed out\" type=\"harness-error\">"))
        #expect(!xml.contains("<failure"))
        #expect(ExitStatus(verdict: undecided.result.verdict) == .undecided)
        #expect(ConsoleReport.line(undecided.result).contains("HARNESS ERROR: s.yaml:9: process 'app': timed out"))
    }
}
