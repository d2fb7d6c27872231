/// The anomalies the checkers find, and the vocabulary of a variant's `expect` (SCENARIOS.md,
/// "Expectations and verdicts").
public enum AnomalyKind: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
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

    /// Orders kinds as the contract's table lists them, so reports group them the same way.
    public static func < (lhs: AnomalyKind, rhs: AnomalyKind) -> Bool {
        lhs.order < rhs.order
    }

    private var order: Int { Self.allCases.firstIndex(of: self)! }
}

/// What a run must show: no anomaly at all, or at least every named one.
public enum Expectation: Sendable, Hashable, CustomStringConvertible {
    /// No anomaly may be found.
    case pass
    /// Every one of these must be found (others found beside them are reported, not failed).
    case anomalies([AnomalyKind])

    /// The kinds that must be found; none for `pass`.
    public var kinds: [AnomalyKind] {
        switch self {
        case .pass: []
        case let .anomalies(kinds): kinds
        }
    }

    /// `pass`, or the names in brackets: `[stale-read, busy]`.
    public var description: String {
        switch self {
        case .pass: "pass"
        case let .anomalies(names): "[" + names.map(\.rawValue).joined(separator: ", ") + "]"
        }
    }

    /// `pass`, or the names joined: `stale-read, busy`.
    public var text: String {
        switch self {
        case .pass: "pass"
        case .anomalies(let names): names.map(\.rawValue).joined(separator: ", ")
        }
    }

    /// The names a run must show (empty for `pass`).
    public var names: [String] {
        switch self {
        case .pass: []
        case .anomalies(let kinds): kinds.map(\.rawValue)
        }
    }
}

extension Expectation: Codable {
    /// Decodes `"pass"` or a list of anomaly names.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let word = try? container.decode(String.self), word == "pass" {
            self = .pass
        } else {
            self = .anomalies(try container.decode([AnomalyKind].self))
        }
    }

    /// Encodes `"pass"` or the list of anomaly names: plain JSON, no enum-case wrapper.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .pass: try container.encode("pass")
        case .anomalies(let kinds): try container.encode(kinds)
        }
    }
}

