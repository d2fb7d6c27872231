import Basics
import Trace

/// Turns the scenario's `latency:` budget into `latency-budget` anomalies: every writer -> reader pair
/// whose propagation percentile (commit to first shown, as the contract defines latency) exceeds the
/// budget's, one anomaly per exceeded percentile.
struct LatencyBudgetChecker {
    let context: RunContext

    static func check(_ report: LatencyReport, budget: LatencyBudget?, t: UInt64, context: RunContext) -> [Anomaly] {
        guard let budget else { return [] }
        let limits: [(String, UInt64?)] = [("p50", budget.p50), ("p90", budget.p90), ("p99", budget.p99), ("max", budget.max)]
        var anomalies: [Anomaly] = []
        for pair in report.pairs {
            guard let visible = pair.shown else { continue }
            for case let (name, limit?) in limits {
                guard let value = visible.value(name), value > limit else { continue }
                anomalies.append(context.anomaly(
                    .latencyBudget, process: pair.reader, step: nil, t: t,
                    seen: "\(name) \(DurationText.format(value))", expected: "\(name) <= \(DurationText.format(limit))",
                    explanation: "Changes from \(pair.writer) took \(DurationText.format(value)) at \(name) to show in \(pair.reader) (\(visible.count) saves), over the \(DurationText.format(limit)) budget."))
            }
        }
        return anomalies
    }
}

extension LatencyBudgetChecker: TraceJudge {
    /// After the latency tracker has made its report.
    mutating func finish(into findings: inout CheckFindings) {
        findings.anomalies += Self.check(findings.latency, budget: context.info.latencyBudget, t: findings.end, context: context)
    }
}
