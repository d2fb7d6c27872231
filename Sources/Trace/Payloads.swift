import Basics

/// A change of a process's lifecycle, recorded by the runner.
public struct LifecycleChange: Sendable, Hashable, Codable {
    public var state: LifecycleState
    public var pid: Int32?
    /// For `suspended`: whether the process held a transaction open on a shared store when stopped.
    public var holdsLock: Bool?
    /// What it held.
    public var lock: LockKind?

    public init(state: LifecycleState, pid: Int32? = nil, holdsLock: Bool? = nil, lock: LockKind? = nil) {
        self.state = state
        self.pid = pid
        self.holdsLock = holdsLock
        self.lock = lock
    }
}

/// One object written by a committed save (or batch operation).
public struct CommittedObject: Sendable, Hashable, Codable {
    /// Scenario id, or `Entity#pk` for rows the scenario never named (batch inserts).
    public var id: String
    public var entity: String
    public var operation: ChangeOperation
    /// The row version (`Z_OPT`) after the save.
    public var version: Int64
    /// The row version this process's changes were based on (nil for inserts and batch writes).
    public var baseVersion: Int64?
    /// Every column the save wrote, with its value (an `overwrite` writes them all).
    public var values: TraceValues
    /// The properties this process itself set since its base version.
    public var changed: [String]
    /// The row's primary key in its store (two rows may share a scenario id: a duplicate).
    public var pk: Int64?

    public init(
        id: String, entity: String, operation: ChangeOperation, version: Int64, baseVersion: Int64? = nil,
        values: TraceValues = [:], changed: [String] = [], pk: Int64? = nil
    ) {
        self.pk = pk
        self.id = id
        self.entity = entity
        self.operation = operation
        self.version = version
        self.baseVersion = baseVersion
        self.values = values
        self.changed = changed
    }
}

/// A committed save: the oracle the checkers judge every read against.
public struct SaveCommit: Sendable, Hashable, Codable {
    /// The store written: `group:<identifier>` or `own:<process>`.
    public var store: String
    /// What made it.
    public var source: CommitSource
    /// The history token of the transaction, when history is tracked.
    public var token: Int64?
    public var objects: [CommittedObject]
    /// Whether a save conflict was detected and resolved by a merge policy in this save.
    public var conflictResolved: Bool
    /// The objects whose conflict this save detected and resolved (nil in traces that predate it).
    public var conflicted: [String]?

    public init(store: String, source: CommitSource = .save, token: Int64? = nil, objects: [CommittedObject],
                conflictResolved: Bool = false, conflicted: [String]? = nil) {
        self.store = store
        self.source = source
        self.token = token
        self.objects = objects
        self.conflictResolved = conflictResolved
        self.conflicted = conflicted
    }
}

/// A save conflict found by optimistic locking, and how the merge policy resolved it.
public struct ConflictRecord: Sendable, Hashable, Codable {
    public var object: String
    public var cachedVersion: Int64
    public var storeVersion: Int64
    public var policy: MergePolicy
    public var outcome: ConflictOutcome
    public var cachedValues: TraceValues
    public var storeValues: TraceValues

    public init(object: String, cachedVersion: Int64, storeVersion: Int64, policy: MergePolicy, outcome: ConflictOutcome, cachedValues: TraceValues = [:], storeValues: TraceValues = [:]) {
        self.object = object
        self.cachedVersion = cachedVersion
        self.storeVersion = storeVersion
        self.policy = policy
        self.outcome = outcome
        self.cachedValues = cachedValues
        self.storeValues = storeValues
    }
}

/// An error an operation ended with.
public struct ErrorRecord: Sendable, Hashable, Codable {
    public var kind: ErrorKind
    public var message: String
    /// True when the step said `expect-error` with this kind: then it is not an anomaly.
    public var expected: Bool

    public init(kind: ErrorKind, message: String, expected: Bool = false) {
        self.kind = kind
        self.message = message
        self.expected = expected
    }
}

/// A read of one object from a process's view.
public struct Observation: Sendable, Hashable, Codable {
    public var object: String
    /// Whether the object is in the view.
    public var found: Bool
    public var values: TraceValues
    /// The row version the values come from, when known.
    public var version: Int64?
    /// Properties holding this process's own unsaved edits (never anomalies).
    public var dirty: [String]
    /// Where the values came from.
    public var source: ReadSource
    /// True for the read whose value the step is judged on (the last one of a `within` loop).
    public var final: Bool
    /// True for a workload read (judged with `stale-tolerance`).
    public var workload: Bool
    /// Set when the read came from an opened copy (`copy:<name>`) rather than the process's store.
    public var store: String?
    /// True when the object is missing from the view because this process deleted it and has not
    /// saved: its own unsaved edit, never an anomaly.
    public var deletedUnsaved: Bool?

    public init(object: String, found: Bool, values: TraceValues = [:], version: Int64? = nil, dirty: [String] = [], source: ReadSource = .memory, final: Bool = true, workload: Bool = false, store: String? = nil, deletedUnsaved: Bool? = nil) {
        self.store = store
        self.deletedUnsaved = deletedUnsaved
        self.object = object
        self.found = found
        self.values = values
        self.version = version
        self.dirty = dirty
        self.source = source
        self.final = final
        self.workload = workload
    }
}

/// A count of the objects of an entity in a process's view.
public struct CountObservation: Sendable, Hashable, Codable {
    public var entity: String
    public var predicate: String?
    /// The ids of the objects counted.
    public var ids: [String]
    public var final: Bool
    /// Set when the count came from an opened copy (`copy:<name>`) rather than the process's store.
    public var store: String?
    /// Objects of the entity this process deleted and has not saved (left out of `ids`, never anomalies).
    public var deletedUnsaved: [String]?
    /// For a final count: the committed objects that this process's own fetches of the entity return
    /// from the store (matching the count's predicate), read inside the count's interval. The list a
    /// screen built from those fetches should hold; nil when not read (a copy, an older trace).
    public var listed: [String]?
    /// Whether one of this process's fetches of the entity has no predicate (its list is every object).
    public var fetchedAll: Bool?
    /// For a count with a predicate: objects in the view that the predicate left out by the values the
    /// view shows (stale values can hide an object that belongs in the filtered list).
    public var hidden: [String]?
    /// Objects of the entity holding this process's own edits (unsaved, or inside a held write): their
    /// membership is the process's own doing, never judged against the list.
    public var edited: [String]?

    public init(entity: String, predicate: String? = nil, ids: [String], final: Bool = true, store: String? = nil,
                deletedUnsaved: [String]? = nil, listed: [String]? = nil, fetchedAll: Bool? = nil, hidden: [String]? = nil,
                edited: [String]? = nil) {
        self.edited = edited
        self.store = store
        self.deletedUnsaved = deletedUnsaved
        self.listed = listed
        self.fetchedAll = fetchedAll
        self.hidden = hidden
        self.entity = entity
        self.predicate = predicate
        self.ids = ids
        self.final = final
    }
}

/// The outcome of a `read` or `count` step that had an `expect`.
public struct CheckRecord: Sendable, Hashable, Codable {
    public var kind: CheckKind
    /// The object read, or the entity counted.
    public var subject: String
    public var expected: TraceValues
    public var actual: TraceValues
    public var expectedCount: Int?
    public var actualCount: Int?
    public var passed: Bool
    /// The `within` deadline in nanoseconds (0 for `now: true`).
    public var withinNanos: UInt64

    public init(kind: CheckKind, subject: String, expected: TraceValues = [:], actual: TraceValues = [:], expectedCount: Int? = nil, actualCount: Int? = nil, passed: Bool, withinNanos: UInt64) {
        self.kind = kind
        self.subject = subject
        self.expected = expected
        self.actual = actual
        self.expectedCount = expectedCount
        self.actualCount = actualCount
        self.passed = passed
        self.withinNanos = withinNanos
    }
}

/// A refresh strategy run (or a `refresh` step) and what it did.
public struct RefreshRecord: Sendable, Hashable, Codable {
    /// What ran.
    public var strategy: RefreshKind
    public var reason: RefreshReason
    public var inserted: Int
    public var updated: Int
    public var deleted: Int

    public init(strategy: RefreshKind, reason: RefreshReason, inserted: Int = 0, updated: Int = 0, deleted: Int = 0) {
        self.strategy = strategy
        self.reason = reason
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }
}

/// A persistent-history fetch: tokens before and after, and whether the token had expired.
public struct HistoryFetch: Sendable, Hashable, Codable {
    public var tokenBefore: Int64?
    public var tokenAfter: Int64?
    public var transactions: Int
    public var merged: Int
    public var expired: Bool

    public init(tokenBefore: Int64?, tokenAfter: Int64?, transactions: Int, merged: Int, expired: Bool) {
        self.tokenBefore = tokenBefore
        self.tokenAfter = tokenAfter
        self.transactions = transactions
        self.merged = merged
        self.expired = expired
    }
}

/// A history purge.
public struct PurgeRecord: Sendable, Hashable, Codable {
    public var policy: String
    /// Transactions strictly before this token were deleted.
    public var beforeToken: Int64?
    public var deleted: Int

    public init(policy: String, beforeToken: Int64?, deleted: Int) {
        self.policy = policy
        self.beforeToken = beforeToken
        self.deleted = deleted
    }
}

/// A notification as the hub or an agent saw it.
public struct NotificationRecord: Sendable, Hashable, Codable {
    public var name: String
    /// The sender (hub records) or nil (Darwin notifications carry no sender).
    public var from: String?
    /// The receiving process, for hub records.
    public var to: String?
    /// Monotonic time of the post, when known (for latency).
    public var postedAt: UInt64?

    public init(name: String, from: String? = nil, to: String? = nil, postedAt: UInt64? = nil) {
        self.name = name
        self.from = from
        self.to = to
        self.postedAt = postedAt
    }
}

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

    public init(store: String, objects: [ObjectState], absent: [String] = []) {
        self.store = store
        self.objects = objects
        self.absent = absent
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
