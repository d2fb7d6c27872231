/// The anomalies the checkers find, and the vocabulary of a variant's `expect` (Docs/ScenarioLanguage.md,
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
    /// Rows of a final store share the values a uniqueness constraint allows to one row (Core Data's unique
    /// index forbids it; a store that began that way keeps it).
    case constraintViolation = "constraint-violation"
    /// History was fetched after the part it needed was purged.
    case expiredToken = "expired-token"
    /// History was fetched with a token saved for a store this one replaced (restored or recreated).
    case foreignToken = "foreign-token"
    /// An operation failed with SQLITE_BUSY after the busy timeout.
    case busy
    /// A process was suspended with a transaction open on a shared store (0xdead10cc).
    case lockHeldWhileSuspended = "lock-held-while-suspended"
    /// A SwiftData process ended (it exited, or the system terminated it) with changes it never saved: an
    /// extension that finished before its save or its autosave, an app terminated while suspended.
    case unsavedChangesLost = "unsaved-changes-lost"
    /// A save failed because the store is read-only to the process.
    case readOnly = "read-only"
    /// A committed transaction is missing after a crash, restart or copy.
    case dataLoss = "data-loss"
    /// A store file could not be opened (a copy without its schema; Core Data's `addPersistentStore` fails).
    case storeLoadFailed = "store-load-failed"
    /// At the end, a live process's view differs from the store.
    case notConverged = "not-converged"
    /// A latency budget was exceeded.
    case latencyBudget = "latency-budget"
    /// A store grew past a `limits:` budget: history never purged, or a `-wal` file a long read kept
    /// from being checkpointed.
    case storeGrowth = "store-growth"
    /// A `read` or `count` did not show what it expected, and no class above explains it.
    case unmetExpectation = "unmet-expectation"

    /// Orders kinds as the contract's table lists them, so reports group them the same way.
    public static func < (lhs: AnomalyKind, rhs: AnomalyKind) -> Bool {
        lhs.order < rhs.order
    }

    private var order: Int { Self.allCases.firstIndex(of: self)! }
}

/// What a run must show: no anomaly at all, at least every named one, or a count of each named kind.
public enum Expectation: Sendable, Hashable, CustomStringConvertible {
    /// No anomaly may be found.
    case pass
    /// Every one of these must be found (others found beside them are reported, not failed).
    case anomalies([AnomalyKind])
    /// Each named kind must be found as many times as its count allows (`stale-read: 1`, `busy: 0`,
    /// `missed-insert: 1+`); kinds not named are reported, not failed.
    case counts([AnomalyCount])

    /// The kinds that must be found; none for `pass`.
    public var kinds: [AnomalyKind] {
        switch self {
        case .pass: []
        case let .anomalies(kinds): kinds
        case let .counts(counts):
            counts.filter { $0.atLeast > 0 }.map(\.kind).reduce(into: []) { kinds, kind in if !kinds.contains(kind) { kinds.append(kind) } }
        }
    }

    /// `pass`, the names in brackets (`[stale-read, busy]`), or the counts in braces (`{stale-read: 1, busy: 0}`).
    public var description: String {
        switch self {
        case .pass: "pass"
        case let .anomalies(names): "[" + names.map(\.rawValue).joined(separator: ", ") + "]"
        case .counts: "{" + text + "}"
        }
    }

    /// `pass`, the names joined (`stale-read, busy`), or the counts joined (`stale-read: 1, busy: 0`).
    public var text: String {
        switch self {
        case .pass: "pass"
        case .anomalies(let names): names.map(\.rawValue).joined(separator: ", ")
        case .counts(let counts): counts.map { "\($0.key): \($0.bound)" }.joined(separator: ", ")
        }
    }

    /// The names a run must show (empty for `pass`).
    public var names: [String] { kinds.map(\.rawValue) }
}

/// How many anomalies of one kind a run may show: exactly `n` (`0` forbids the kind), or `n` or more;
/// in one process only when `process` is set (`busy: { share: 1, app: 0 }`).
public struct AnomalyCount: Sendable, Hashable {
    public var kind: AnomalyKind
    public var atLeast: Int
    /// No upper limit when nil.
    public var atMost: Int?
    /// The process whose anomalies of `kind` are counted; nil counts every process's.
    public var process: String?

    public init(kind: AnomalyKind, atLeast: Int, atMost: Int?, process: String? = nil) {
        self.kind = kind
        self.atLeast = atLeast
        self.atMost = atMost
        self.process = process
    }

    /// `n` (exactly) or `n+` (at least); nil for anything else. Counts are small: at most 1,000,000.
    public init?(kind: AnomalyKind, bound: String, process: String? = nil) {
        let text = bound.filter { $0 != " " }
        let open = text.hasSuffix("+")
        guard let n = Int(open ? String(text.dropLast()) : text), (0...1_000_000).contains(n) else { return nil }
        self.init(kind: kind, atLeast: n, atMost: open ? nil : n, process: process)
    }

    /// `busy`, or `busy in share` for one process's: how reports and the JSON form name the count.
    public var key: String { process.map { "\(kind.rawValue) in \($0)" } ?? kind.rawValue }

    /// The count's kind and process from `key` (`busy`, `busy in share`); nil when it names no kind.
    public static func parse(key: String) -> (AnomalyKind, String?)? {
        let parts = key.components(separatedBy: " in ")
        guard let kind = AnomalyKind(rawValue: parts[0]), parts.count <= 2 else { return nil }
        return (kind, parts.count == 2 ? parts[1] : nil)
    }

    /// `3` or `1+`, as a scenario writes it.
    public var bound: String { atMost == nil ? "\(atLeast)+" : "\(atLeast)" }

    /// Whether `count` anomalies of this kind are allowed.
    public func admits(_ count: Int) -> Bool { count >= atLeast && atMost.map { count <= $0 } ?? true }
}

extension Expectation: Codable {
    /// Decodes `"pass"`, a list of anomaly names, or an object of counts (`{"busy": "0", "stale-read": "1+"}`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let word = try? container.decode(String.self), word == "pass" {
            self = .pass
        } else if let counts = try? container.decode([String: String].self) {
            var parsed: [AnomalyCount] = []
            for (name, bound) in counts {
                guard let (kind, process) = AnomalyCount.parse(key: name),
                      let count = AnomalyCount(kind: kind, bound: bound, process: process) else {
                    throw DecodingError.dataCorruptedError(in: container, debugDescription: "bad anomaly count \(name): \(bound)")
                }
                parsed.append(count)
            }
            self = .counts(parsed.sorted { ($0.kind, $0.process ?? "") < ($1.kind, $1.process ?? "") })
        } else {
            self = .anomalies(try container.decode([AnomalyKind].self))
        }
    }

    /// Encodes `"pass"`, the list of anomaly names, or the counts as an object: plain JSON, no enum-case wrapper.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .pass: try container.encode("pass")
        case .anomalies(let kinds): try container.encode(kinds)
        case .counts(let counts):
            try container.encode(Dictionary(counts.map { ($0.key, $0.bound) }, uniquingKeysWith: { a, _ in a }))
        }
    }
}

