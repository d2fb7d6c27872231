/// The vocabulary of `expect`: every anomaly the checkers can find.
public enum AnomalyName: String, Sendable, Hashable, Codable, CaseIterable, ScenarioKeyword {
    /// A read showed a committed value older than the latest committed before it (minus the tolerance).
    case staleRead = "stale-read"
    /// An object committed elsewhere is absent from the view.
    case missedInsert = "missed-insert"
    /// An object deleted in the store is still in the view.
    case missedDelete = "missed-delete"
    /// A read showed a value that no process ever committed.
    case phantomRead = "phantom-read"
    /// A save replaced a newer committed value without detecting a conflict.
    case lostUpdate = "lost-update"
    /// A save failed on an optimistic-locking conflict.
    case conflict
    /// One scenario object exists more than once in a store.
    case duplicate
    /// History was fetched after the part it needed was purged.
    case expiredToken = "expired-token"
    /// An operation failed with SQLITE_BUSY after the busy timeout.
    case busy
    /// A process was suspended with a transaction open on a shared store (0xdead10cc).
    case lockHeldWhileSuspended = "lock-held-while-suspended"
    /// A save failed because the store is read-only to the process.
    case readOnly = "read-only"
    /// A committed transaction is missing after a crash, restart or copy.
    case dataLoss = "data-loss"
    /// At the end, a live process's view differs from the store.
    case notConverged = "not-converged"
    /// A latency budget was exceeded.
    case latencyBudget = "latency-budget"
    /// A `read` or `count` did not show what it expected, and no class above explains it.
    case unmetExpectation = "unmet-expectation"
}

/// What a run must show: no anomaly at all, or at least every named one.
public enum Expectation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// No anomaly may be found.
    case pass
    /// Every one of these must be found (others found beside them are reported, not failed).
    case anomalies([AnomalyName])

    /// `pass`, or the names in brackets: `[stale-read, busy]`.
    public var description: String {
        switch self {
        case .pass: "pass"
        case let .anomalies(names): "[" + names.map(\.rawValue).joined(separator: ", ") + "]"
        }
    }
}

/// An error a step expects (`expect-error:`); when it happens it is the step's outcome, not an anomaly.
public enum ExpectedError: String, Sendable, Hashable, Codable, CaseIterable, ScenarioKeyword {
    /// The save fails on an optimistic-locking conflict.
    case conflict
    /// The operation fails with SQLITE_BUSY after the busy timeout.
    case busy
    /// The save fails because the store is read-only to this process.
    case readOnly = "read-only"
    /// The history fetch finds its token expired.
    case expiredToken = "expired-token"
    /// The object is not in the store.
    case notFound = "not-found"
}

/// A latency budget (`latency: { p99: 50ms }`): the most that change propagation may take at each
/// named percentile, over every writer -> reader pair.
public struct LatencyBudget: Sendable, Hashable, Codable {
    /// The median's limit.
    public var p50: Duration?
    /// The 90th percentile's limit.
    public var p90: Duration?
    /// The 99th percentile's limit.
    public var p99: Duration?
    /// The maximum's limit.
    public var max: Duration?

    /// Creates a budget.
    public init(p50: Duration? = nil, p90: Duration? = nil, p99: Duration? = nil, max: Duration? = nil) {
        self.p50 = p50
        self.p90 = p90
        self.p99 = p99
        self.max = max
    }

    /// This budget with every limit `other` sets replacing this one's.
    public func overridden(by other: LatencyBudget) -> LatencyBudget {
        LatencyBudget(p50: other.p50 ?? p50, p90: other.p90 ?? p90, p99: other.p99 ?? p99, max: other.max ?? max)
    }

    /// The keys a budget may set.
    static let keys = ["p50", "p90", "p99", "max"]
}
