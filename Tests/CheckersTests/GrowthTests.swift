import Basics
import Checkers
import Testing
import Trace

/// `store-growth`: a store past the run's `limits:` is one anomaly per store and limit, on the store,
/// saying by how much; a store within them, or a run without limits, is none.
@Suite("store growth against limits")
struct GrowthTests {
    private func run(limits: GrowthLimits?, _ growth: StoreGrowth) -> CheckResult {
        var script = TraceScript(processes: [("app", .host)])
        script.info.growthLimits = limits
        script.at(ms: 10)
        script.step("app", "app: launch", line: 10)
        script.at(ms: 50)
        script.record("runner", .storeGrowth(growth))
        return TraceChecker.check(script.trace)
    }

    private let grown = StoreGrowth(
        store: "group:group.example.notes", historyTransactions: 1204, historyChanges: 9000, storeBytes: 20480,
        walBytes: 4096, walPeakBytes: 10_489_552, walPeakStep: 0)

    @Test func eachLimitExceededIsOneAnomalyOnTheStore() throws {
        let result = run(limits: GrowthLimits(historyTransactions: 1000, historyChanges: 9000, walBytes: 6 << 20), grown)
        #expect(result.anomalies.map(\.kind) == [.storeGrowth, .storeGrowth], "history changes are at their limit, not over it")
        let history = try #require(result.anomalies.first { $0.property == "history-transactions" })
        #expect(history.process == "group:group.example.notes")
        #expect(history.explanation == "group:group.example.notes holds 1204 history transactions at the end of the run, over the limit of 1000 (limits: history-transactions): no purge removed them.")
        let wal = try #require(result.anomalies.first { $0.property == "wal" })
        #expect(wal.step == 0 && wal.location == "Scenarios/sample.yaml:10", "the step after which the -wal file was largest")
        #expect(wal.seen == "10 MiB" && wal.expected == "at most 6 MiB")
        #expect(result.growth == [grown], "the measurements reach the reports")
    }

    @Test func withinItsLimitsOrWithoutAnyAStoreIsNoAnomaly() {
        #expect(run(limits: GrowthLimits(historyTransactions: 2000, walBytes: 11 << 20), grown).anomalies.isEmpty)
        let unlimited = run(limits: nil, grown)
        #expect(unlimited.anomalies.isEmpty)
        #expect(unlimited.growth.count == 1, "growth is reported whether or not the run sets limits")
    }
}
