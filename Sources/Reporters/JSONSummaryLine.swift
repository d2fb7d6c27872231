import Checkers
import Foundation

extension JSONReport {
    /// One run in one line of JSON (`groupsim run --format json`): report.json's `run`, `verdict` and
    /// latency summaries, the anomaly count and where the run's report is. Keys sorted, no spaces.
    public struct SummaryLine: Codable, Sendable, Equatable {
        public var schemaVersion: Int
        public var run: Run
        public var verdict: VerdictDoc
        public var anomalies: Int
        public var refreshed: SummaryDoc?
        public var shown: SummaryDoc?
        public var report: String
    }

    /// The line for `run`, whose report is in `directory`.
    public static func summaryLine(_ run: ReportedRun, report directory: String, options: ReportOptions = ReportOptions()) throws -> String {
        let document = Document(run, options: options)
        let line = SummaryLine(
            schemaVersion: schemaVersion, run: document.run, verdict: document.verdict, anomalies: document.anomalies.count,
            refreshed: document.latency.refreshed, shown: document.latency.shown, report: directory)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(line), as: UTF8.self)
    }
}
