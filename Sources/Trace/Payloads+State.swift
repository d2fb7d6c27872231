import Basics

/// An object's state in a store or a view at the end of a run.
public struct ObjectState: Sendable, Hashable, Codable {
    public var id: String
    public var entity: String
    public var version: Int64?
    public var values: TraceValues
    /// The row's primary key, for a store's contents (two rows may share a scenario id).
    public var pk: Int64?

    public init(id: String, entity: String, version: Int64? = nil, values: TraceValues, pk: Int64? = nil) {
        self.id = id
        self.entity = entity
        self.version = version
        self.values = values
        self.pk = pk
    }
}

/// The contents of a store, or of a process's view, at the end of a run.
public struct StateSnapshot: Sendable, Hashable, Codable {
    /// `group:<identifier>`, `own:<process>`, or `copy:<name>`.
    public var store: String
    public var objects: [ObjectState]
    /// For a view: objects that the view's own fetches would return now but the view lacks
    /// (inserted elsewhere and never merged). Empty for a store.
    public var absent: [String]
    /// For a view: the entities it fetched every object of (no predicate, no limit, sub-entities
    /// included, as Core Data fetches by default). A widget's view is recorded when a reload rendered
    /// it, so what was inserted after is judged against the store at the end from these. Nil when none.
    public var fetchedAll: [String]?

    public init(store: String, objects: [ObjectState], absent: [String] = [], fetchedAll: [String]? = nil) {
        self.store = store
        self.objects = objects
        self.absent = absent
        self.fetchedAll = fetchedAll
    }
}

/// A store file read to check that it holds every committed transaction: after a crash, a copy just
/// taken, or a restart. The event's interval is when the file's contents were fixed (for a copy, while
/// the copy step ran; for a store, while it was read): the checkers expect every commit that completed
/// before it began and is not changed by one that may have run during it.
public struct VerificationRecord: Sendable, Hashable, Codable {
    /// What was read: the store (`group:<identifier>`, `own:<process>`) or the copy (`copy:<name>`).
    public var store: String
    /// The store whose commits it must hold (the store itself, or the store a copy was taken of).
    public var source: String?
    public var reason: VerificationReason
    /// Every row of the file, named as the run names them (with their primary keys).
    public var contents: StateSnapshot?
    /// Set when the file could not be read, with the reason (for example, a copy that does not exist).
    public var unreadable: String?
    /// Traces that predate `contents`: how many commits were checked, and one line per missing piece.
    public var checked: Int
    public var missing: [String]
    /// The object each line of `missing` is about (scenario id or `Entity#pk`), in the same order.
    public var objects: [String]

    public init(store: String, source: String? = nil, reason: VerificationReason, contents: StateSnapshot? = nil, unreadable: String? = nil,
                checked: Int = 0, missing: [String] = [], objects: [String] = []) {
        self.store = store
        self.source = source
        self.reason = reason
        self.contents = contents
        self.unreadable = unreadable
        self.checked = checked
        self.missing = missing
        self.objects = objects
    }

    private enum CodingKeys: String, CodingKey { case store, source, reason, contents, unreadable, checked, missing, objects }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            store: try c.decode(String.self, forKey: .store), source: try c.decodeIfPresent(String.self, forKey: .source),
            reason: try c.decode(VerificationReason.self, forKey: .reason),
            contents: try c.decodeIfPresent(StateSnapshot.self, forKey: .contents),
            unreadable: try c.decodeIfPresent(String.self, forKey: .unreadable),
            checked: try c.decodeIfPresent(Int.self, forKey: .checked) ?? 0,
            missing: try c.decodeIfPresent([String].self, forKey: .missing) ?? [],
            objects: try c.decodeIfPresent([String].self, forKey: .objects) ?? [])
    }
}

/// How big a store grew during a run, measured by the runner: its history at the end, its file, and
/// its `-wal` file at the end and at its largest (sampled after every step, while the processes
/// still have the store open; SQLite reuses a `-wal` file without shrinking it, so its size is the
/// most the log held at once).
public struct StoreGrowth: Sendable, Hashable, Codable {
    /// `group:<identifier>` or `own:<process>`.
    public var store: String
    /// History transactions (`ATRANSACTION` rows) at the end of the run; 0 without history tracking.
    public var historyTransactions: Int64
    /// History changes (`ACHANGE` rows) at the end of the run.
    public var historyChanges: Int64
    /// The store file's size in bytes at the end of the run.
    public var storeBytes: Int64
    /// The `-wal` file's size in bytes at the end of the run (before the processes closed the store).
    public var walBytes: Int64
    /// The largest the `-wal` file was after any step, in bytes, and the step after which it was.
    public var walPeakBytes: Int64
    public var walPeakStep: Int?

    public init(store: String, historyTransactions: Int64, historyChanges: Int64, storeBytes: Int64, walBytes: Int64,
                walPeakBytes: Int64, walPeakStep: Int? = nil) {
        self.store = store
        self.historyTransactions = historyTransactions
        self.historyChanges = historyChanges
        self.storeBytes = storeBytes
        self.walBytes = walBytes
        self.walPeakBytes = walPeakBytes
        self.walPeakStep = walPeakStep
    }
}
