import Basics
import Trace

/// Turns the scenario's `limits:` into `store-growth` anomalies: one per store and per limit its
/// growth exceeds, on the store (the report's `stores` lane), saying by how much and, for the `-wal`
/// file, after which step it was largest.
struct GrowthChecker {
    let context: RunContext

    static func check(_ growth: StoreGrowth, limits: GrowthLimits?, step: Int?, t: UInt64, context: RunContext) -> [Anomaly] {
        guard let limits else { return [] }
        let store = growth.store
        var anomalies: [Anomaly] = []
        func exceeded(_ key: String, _ value: Int64, _ limit: Int64?, _ text: (Int64) -> String, at step: Int?, _ sentence: String, why: String) {
            guard let limit, value > limit else { return }
            anomalies.append(context.anomaly(
                .storeGrowth, process: store, step: step, t: t, property: key, seen: text(value), expected: "at most \(text(limit))",
                explanation: "\(sentence), over the limit of \(text(limit)) (limits: \(key))\(why)."))
        }
        let count = { (n: Int64) in String(n) }
        exceeded("history-transactions", growth.historyTransactions, limits.historyTransactions, count, at: step,
                 "\(store) holds \(growth.historyTransactions) history transactions at the end of the run",
                 why: ": no purge removed them")
        exceeded("history-changes", growth.historyChanges, limits.historyChanges, count, at: step,
                 "\(store) holds \(growth.historyChanges) history changes at the end of the run",
                 why: ": no purge removed them")
        exceeded("wal", growth.walPeakBytes, limits.walBytes, ByteSize.text, at: growth.walPeakStep ?? step,
                 "the -wal file of \(store) grew to \(ByteSize.text(growth.walPeakBytes))"
                    + (growth.walPeakStep.map { " (largest after step \($0))" } ?? ""),
                 why: ": SQLite starts the log over only after a checkpoint that no open read transaction (a pinned query generation, say) holds back, and writes past it keep it growing")
        exceeded("store", growth.storeBytes, limits.storeBytes, ByteSize.text, at: step,
                 "the file of \(store) is \(ByteSize.text(growth.storeBytes)) at the end of the run", why: "")
        return anomalies
    }
}

extension GrowthChecker: TraceJudge {
    static var sees: EventKinds { .storeGrowth }

    /// Keeps each store's growth for the report, and judges it against the file's limits.
    mutating func see(_ event: inout JudgedEvent, into findings: inout CheckFindings) {
        guard case .storeGrowth(let growth) = event.kind else { return }
        findings.growth.append(growth)
        findings.anomalies += Self.check(growth, limits: context.info.growthLimits, step: event.step, t: event.t, context: context)
    }
}
