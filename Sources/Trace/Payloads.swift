import Basics

/// A change of a process's lifecycle, recorded by the runner.
public struct LifecycleChange: Sendable, Hashable, Codable {
    public var state: LifecycleState
    public var pid: Int32?
    /// For `suspended`: whether the process held a transaction open on a shared store when stopped.
    public var holdsLock: Bool?
    /// What it held.
    public var lock: LockKind?
    /// For `exited` and `terminated`: the objects with changes no save had committed, which ended with the
    /// process (nil when there were none).
    public var unsaved: [String]?

    public init(state: LifecycleState, pid: Int32? = nil, holdsLock: Bool? = nil, lock: LockKind? = nil, unsaved: [String]? = nil) {
        self.state = state
        self.pid = pid
        self.holdsLock = holdsLock
        self.lock = lock
        self.unsaved = unsaved
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
    /// For a constraint conflict: the unique attribute the insert shared with a row of the store, and
    /// that row (scenario id or `Entity#pk`); nil for an optimistic-locking conflict.
    public var constraint: String?
    public var existing: String?

    public init(object: String, cachedVersion: Int64, storeVersion: Int64, policy: MergePolicy, outcome: ConflictOutcome, cachedValues: TraceValues = [:], storeValues: TraceValues = [:],
                constraint: String? = nil, existing: String? = nil) {
        self.constraint = constraint
        self.existing = existing
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
