/// How a save resolves optimistic-locking conflicts (Core Data's `NSMergePolicy`).
public enum MergePolicy: String, Sendable, CaseIterable {
    /// `NSErrorMergePolicy` (the default): the save fails and writes nothing.
    case error
    /// `NSMergeByPropertyObjectTrumpMergePolicy`: properties this context changed win; the others take
    /// the store's values.
    case mergeByPropertyObjectTrump = "object-trump"
    /// `NSMergeByPropertyStoreTrumpMergePolicy`: properties the store changed keep the store's values;
    /// properties only this context changed are kept.
    case mergeByPropertyStoreTrump = "store-trump"
    /// `NSOverwriteMergePolicy`: this context's whole object is written over the store's.
    case overwrite
    /// `NSRollbackMergePolicy`: this context's changes to conflicting objects are discarded; the store wins.
    case rollback
}

/// What a conflict's resolution kept.
public enum ConflictOutcome: String, Sendable {
    /// The save failed (merge policy `error`).
    case failed
    /// Properties were merged (object-trump or store-trump) and written.
    case merged
    /// This context's object was written whole over the store's (overwrite).
    case overwritten
    /// This context's changes were discarded; the store's values kept (rollback, or store-trump on a delete).
    case discarded
    /// The row had been deleted in the store: this context's update was dropped and the object deleted.
    case deletedInStore = "deleted-in-store"
    /// This context deleted an object the store had changed, and the delete went through.
    case deleted
}

/// One optimistic-locking conflict: what this context had and what the store had.
public struct SaveConflict: Sendable, CustomStringConvertible {
    /// The object.
    public let object: ObjectID
    /// The version (`Z_OPT`) this context's values came from.
    public let cachedVersion: Int64
    /// The version in the store; `nil` when the row was deleted.
    public let storeVersion: Int64?
    /// This context's values (what it read, with its changes on top).
    public let cachedValues: [String: Value]
    /// The store's values; empty when the row was deleted.
    public let storeValues: [String: Value]
    /// The properties this context changed.
    public let changedProperties: [String]
    /// The context's merge policy.
    public let policy: MergePolicy
    /// What the resolution kept.
    public let outcome: ConflictOutcome
    /// The values the object ended with (written, or taken from the store); empty on failure.
    public let resolvedValues: [String: Value]

    public var description: String {
        "conflict on \(object): cached v\(cachedVersion), store \(storeVersion.map { "v\($0)" } ?? "deleted"), policy \(policy.rawValue) -> \(outcome.rawValue)"
    }
}

/// A save that failed.
public enum SaveError: Error, Sendable, CustomStringConvertible {
    /// Optimistic-locking conflicts under merge policy `error` (Core Data's 133020); nothing was written.
    case conflicts([SaveConflict])
    /// The store is read-only to this process (opened read-only, or the history-tracking trap).
    case readOnly(reason: String)
    /// A model or object error (unknown entity, type mismatch...).
    case store(StoreError)
    /// SQLite failed (`.busy` past the busy timeout, I/O...); nothing was written.
    case sqlite(SQLiteError)

    public var description: String {
        switch self {
        case .conflicts(let conflicts):
            "save failed with \(conflicts.count) optimistic-locking conflict(s): "
                + conflicts.map(\.description).joined(separator: "; ")
        case .readOnly(let reason): "save failed: the store is read-only to this process: \(reason)"
        case .store(let error): "save failed: \(error)"
        case .sqlite(let error): "save failed: \(error)"
        }
    }
}
