import Checkers
import Trace

/// `junit.xml`: a `<testsuite>` per scenario and a `<testcase>` per variant, so CI systems show each
/// variant as a test. An unmatched run is a `<failure>` naming the missing (or unexpected) anomalies
/// and, for each anomaly, its step and explanation; a run the harness could not decide is an `<error>`
/// (counted in `errors`), with the harness's message.
public enum JUnitReport {
    public static func render(_ runs: [ReportedRun], options: ReportOptions = ReportOptions()) -> String {
        var scenarios: [String] = []
        var byScenario: [String: [ReportedRun]] = [:]
        for run in runs {
            if byScenario[run.info.scenario] == nil { scenarios.append(run.info.scenario) }
            byScenario[run.info.scenario, default: []].append(run)
        }
        func isError(_ run: ReportedRun) -> Bool { run.result.verdict.harnessFailure != nil }
        func isFailure(_ run: ReportedRun) -> Bool { !run.result.verdict.matched && !isError(run) }
        let failures = runs.count(where: isFailure), errors = runs.count(where: isError)
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"groupsim\" tests=\"\(runs.count)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(seconds(runs.map(\.result)))\"\(options.generatedAt.map { " timestamp=\"\(Escape.xmlAttribute($0))\"" } ?? "")>\n"
        for scenario in scenarios {
            let suite = byScenario[scenario]!
            xml += "  <testsuite name=\"\(Escape.xmlAttribute(scenario))\" tests=\"\(suite.count)\" failures=\"\(suite.count(where: isFailure))\" errors=\"\(suite.count(where: isError))\" skipped=\"0\" time=\"\(seconds(suite.map(\.result)))\">\n"
            for run in suite { xml += testcase(run, options: options) }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    private static func testcase(_ run: ReportedRun, options: ReportOptions) -> String {
        let result = run.result, info = result.info
        var xml = "    <testcase classname=\"\(Escape.xmlAttribute(info.scenario))\" name=\"\(Escape.xmlAttribute(info.variant))\" file=\"\(Escape.xmlAttribute(info.file))\" time=\"\(seconds([result]))\""
        var details: [String] = []
        for anomaly in result.anomalies {
            details.append("\(anomaly.location ?? anomaly.process): \(anomaly.kind.rawValue): \(anomaly.explanation)")
        }
        details.append("replay: \(options.replayCommand(info))")
        let body = Escape.xml(details.joined(separator: "\n"))
        // What every JUnit consumer shows: the replay command as the test's output.
        let replay = "      <system-out>\(Escape.xml("replay: \(options.replayCommand(info))"))</system-out>\n"
        if result.verdict.matched {
            return xml + ">\n      <system-out>\(body)</system-out>\n    </testcase>\n"
        }
        if let failure = result.verdict.harnessFailure {
            // The harness could not decide: an error, not a failure of the code under test.
            return xml + ">\n      <error message=\"\(Escape.xmlAttribute(Escape.oneLine(failure.description, limit: 300)))\" type=\"harness-error\">\(body)</error>\n\(replay)    </testcase>\n"
        }
        let message: String
        if !result.verdict.brokenCounts.isEmpty {
            // Too many of a kind: the first of them in its own words; too few: the counts alone.
            let first = result.anomalies.first { result.verdict.excess.contains($0.kind) }
            message = "expected \(result.verdict.brokenCountsText)"
                + (first.map { "; the first: \($0.kind.rawValue)\($0.location.map { " at \($0)" } ?? ""): \($0.explanation)" } ?? "")
        } else if !result.verdict.missing.isEmpty {
            message = "expected \(result.verdict.missingText) but found \(result.verdict.found.isEmpty ? "none" : result.verdict.foundText)"
        } else {
            // The first anomaly the variant did not expect, in its own words.
            let first = result.anomalies.first { result.verdict.unexpected.contains($0.kind) } ?? result.anomalies.first
            message = first.map { "\($0.kind.rawValue)\($0.location.map { " at \($0)" } ?? ""): \($0.explanation)" }
                ?? "expected pass but found \(result.verdict.foundText)"
        }
        xml += ">\n      <failure message=\"\(Escape.xmlAttribute(Escape.oneLine(message, limit: 500)))\" type=\"\(result.verdict.missing.isEmpty ? "unexpected-anomaly" : "missing-anomaly")\">\(body)</failure>\n"
        return xml + replay + "    </testcase>\n"
    }

    /// Total run time in seconds with millisecond precision (from the traces, not the wall clock).
    private static func seconds(_ results: [CheckResult]) -> String {
        let nanos = results.reduce(UInt64(0)) { $0 + ($1.end - $1.origin) }
        let millis = (nanos + 500_000) / 1_000_000
        let fraction = millis % 1000
        return "\(millis / 1000)." + String(repeating: "0", count: fraction < 10 ? 2 : (fraction < 100 ? 1 : 0)) + "\(fraction)"
    }
}
