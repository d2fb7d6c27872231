import Trace

/// Everything the checkers concluded about one run.
public struct CheckResult: Sendable {
    public var info: RunInfo
    /// The `t` of the first event; reports print times relative to it.
    public var origin: UInt64
    /// The `t` of the last event.
    public var end: UInt64
    /// Every anomaly, in time order.
    public var anomalies: [Anomaly]
    public var verdict: Verdict
    public var latency: LatencyReport
    /// Time spent refreshing, per process.
    public var refreshCosts: [RefreshCost]
    /// Errors that are no anomaly and were not expected (`not-found`, `timeout`, `other`).
    public var unexpectedErrors: [UnexpectedError]
    public var eventCount: Int
    /// What the harness could not do as asked (`warning` events), in time order.
    public var warnings: [String] = []
    /// How far each store grew (history, file and `-wal` sizes), as the runner measured it at the end.
    public var growth: [StoreGrowth] = []

    public init(
        info: RunInfo, origin: UInt64, end: UInt64, anomalies: [Anomaly], latency: LatencyReport,
        refreshCosts: [RefreshCost], unexpectedErrors: [UnexpectedError], eventCount: Int
    ) {
        self.info = info
        self.origin = origin
        self.end = end
        self.anomalies = anomalies
        self.verdict = Verdict(expected: info.expected, anomalies: anomalies)
        self.latency = latency
        self.refreshCosts = refreshCosts
        self.unexpectedErrors = unexpectedErrors
        self.eventCount = eventCount
    }

    /// The run's time relative to its first event.
    public func offset(_ t: UInt64) -> UInt64 { t >= origin ? t - origin : 0 }
}
