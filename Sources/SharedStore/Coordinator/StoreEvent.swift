import Basics
import Foundation

/// Where a firing fault found its values.
public enum FaultSource: String, Sendable {
    /// The coordinator's row cache (the snapshot was fresh enough for the staleness interval).
    case cache
    /// A SQL read.
    case sql
    /// A SQL read inside a pinned query generation.
    case pinnedGeneration = "pinned-generation"
    /// What a child context's parent held (`ObjectContext.newChildContext(name:)`).
    case parentContext = "parent-context"
}

/// Why a row snapshot left the row cache.
public enum SnapshotDropReason: String, Sendable {
    /// A remote change was merged (`mergeChanges(fromRemoteContextSave:)` or a history merge).
    case remoteMerge = "remote-merge"
    /// The row was deleted by this process's save.
    case deleted
    /// The row was found gone while reading.
    case rowGone = "row-gone"
}

/// A change a save committed: the object, its new version and the values written.
public struct CommittedChange: Sendable {
    /// The kind of change.
    /// The object (permanent ID).
    public let object: ObjectID
    /// Insert, update or delete.
    public let operation: ChangeOperation
    /// The new `Z_OPT` (the version of a deleted row before deletion).
    public let version: Int64
    /// The attribute values the row holds after the save (and to-one relationships as primary keys);
    /// empty for a delete.
    public let values: [String: Value]

    /// The entity's name.
    public var entity: String { object.entity }
    /// The row's primary key.
    public var primaryKey: Int64 { object.primaryKey }
}

/// Everything the store does that the trace records. Delivered synchronously to the coordinator's sink,
/// on the thread that caused it.
public enum StoreEvent: Sendable {
    /// A SQL query read rows of an entity (a fetch, or a fault reading its row).
    case sqlRead(entity: String, rowCount: Int, context: String)
    /// A fault fired and the object now holds `version`'s values.
    case faultFulfilled(object: ObjectID, source: FaultSource, version: Int64, context: String)
    /// A row snapshot was dropped from the row cache.
    case snapshotDropped(object: ObjectID, reason: SnapshotDropReason)
    /// A save committed.
    case saveCommitted(context: String, changes: [CommittedChange], historyToken: Int64?)
    /// A save met an optimistic-locking conflict (the conflict carries the policy and the outcome).
    case conflict(context: String, SaveConflict)
    /// A history fetch: the token before, the token after, the transactions merged and skipped.
    case historyFetched(consumer: String, tokenBefore: Int64?, tokenAfter: Int64?, merged: Int, skipped: Int)
    /// History was purged: transactions with tokens up to `throughToken` deleted.
    case historyPurged(policy: String, throughToken: Int64?, deleted: Int)
    /// A batch operation wrote straight to the store. `changes` holds each inserted or updated row's
    /// version and attribute values as read inside the operation's transaction, before COMMIT (a delete's
    /// rows carry version 0 and no values).
    case batch(operation: ChangeOperation, entity: String, rowCount: Int, historyToken: Int64?,
               changes: [CommittedChange])
    /// A context established the query generation it is pinned to (`token` is the store's latest transaction
    /// token seen).
    case generationPinned(token: Int64?, context: String)
    /// A context was unpinned from its query generation.
    case generationUnpinned(context: String)
}

/// The closure that receives store events (the runner's trace recorder).
public typealias StoreEventSink = @Sendable (StoreEvent) -> Void
