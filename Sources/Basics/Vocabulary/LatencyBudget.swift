/// A latency budget (`latency: { p99: 50ms }`): the most that change propagation (commit to first shown)
/// may take at each named percentile, over every writer -> reader pair, in nanoseconds.
public struct LatencyBudget: Sendable, Hashable, Codable {
    /// The median's limit.
    public var p50: UInt64?
    /// The 90th percentile's limit.
    public var p90: UInt64?
    /// The 99th percentile's limit.
    public var p99: UInt64?
    /// The maximum's limit.
    public var max: UInt64?

    /// Creates a budget.
    public init(p50: UInt64? = nil, p90: UInt64? = nil, p99: UInt64? = nil, max: UInt64? = nil) {
        self.p50 = p50
        self.p90 = p90
        self.p99 = p99
        self.max = max
    }

    /// This budget with every limit `other` sets replacing this one's.
    public func overridden(by other: LatencyBudget) -> LatencyBudget {
        LatencyBudget(p50: other.p50 ?? p50, p90: other.p90 ?? p90, p99: other.p99 ?? p99, max: other.max ?? max)
    }

    /// The keys a budget may set, in order.
    public static let keys = ["p50", "p90", "p99", "max"]

    /// The limits that are set, by key, in `keys` order.
    public var limits: [(key: String, nanoseconds: UInt64)] {
        [("p50", p50), ("p90", p90), ("p99", p99), ("max", max)].compactMap { key, value in value.map { (key, $0) } }
    }
}
