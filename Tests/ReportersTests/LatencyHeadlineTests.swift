import Checkers
@testable import Reporters
import Testing

/// The console's one-line latency names the pair that matters when there are several.
@Suite struct LatencyHeadlineTests {
    @Test func theConsoleLineNamesTheHeadlinePair() throws {
        var report = LatencyReport(pairs: [
            PairLatency(writer: "app", reader: "share", refreshed: LatencySummary(count: 1, min: 1, p50: 1, p90: 1, p99: 159_000_000, max: 1),
                        shown: nil, notified: nil, unrefreshed: 0, unseen: 0, refreshedBuckets: [], shownBuckets: []),
            PairLatency(writer: "share", reader: "app", refreshed: nil, shown: nil, notified: nil,
                        unrefreshed: 2, unseen: 1, refreshedBuckets: [], shownBuckets: []),
        ])
        report.headline = LatencyPair(writer: "share", reader: "app")
        #expect(ConsoleReport.latencyText(report) == "  share → app never refreshed")
    }
}
