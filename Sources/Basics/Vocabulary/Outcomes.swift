// What happened, as the store, the agents and the runner report it and the trace records it: each
// outcome defined once, its raw value the word the trace writes.

/// What a conflict's resolution kept.
public enum ConflictOutcome: String, Sendable, Hashable, Codable, CaseIterable {
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


/// The kind of error an operation ended with.
public enum ErrorKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// An optimistic-locking conflict under the `error` merge policy.
    case conflict
    /// SQLITE_BUSY after the busy timeout.
    case busy
    /// The store is read-only to this process.
    case readOnly = "read-only"
    /// History was purged past the process's token.
    case expiredToken = "expired-token"
    /// The history token was saved for a store this one replaced (its identifier changed).
    case foreignToken = "foreign-token"
    /// No object with that id (or its row is gone).
    case notFound = "not-found"
    /// A save failed validation: it deletes an object whose `deny` relationship still holds objects, or an
    /// object it inserts or updates has a required to-one that holds nothing.
    case validation
    /// A sync could not complete.
    case syncFailed = "sync-failed"
    /// A `leech` of a store already in the ensemble.
    case alreadyLeeched = "already-leeched"
    /// A store file could not be opened (Core Data's `addPersistentStore` fails): a copy taken without
    /// its `-wal` that lacks even its schema, say.
    case storeLoadFailed = "store-load-failed"
    /// The harness waited too long.
    case timeout
    /// Anything else: the harness could not perform the step.
    case other

    /// Whether a step may expect it (`expect-error:`): the store's and Core Data's errors an app meets;
    /// a failed sync, a second leech, the harness's timeout and its other failures are never a step's
    /// intended outcome.
    public var isExpectable: Bool {
        switch self {
        case .conflict, .busy, .readOnly, .expiredToken, .foreignToken, .notFound, .validation, .storeLoadFailed: true
        case .syncFailed, .alreadyLeeched, .timeout, .other: false
        }
    }

    /// The anomaly a failure of this kind is reported as when no step expected it; nil for the kinds the
    /// contract has no anomaly for, which a report lists as unexpected errors.
    public var anomaly: AnomalyKind? {
        switch self {
        case .conflict: .conflict
        case .busy: .busy
        case .readOnly: .readOnly
        case .expiredToken: .expiredToken
        case .foreignToken: .foreignToken
        case .storeLoadFailed: .storeLoadFailed
        case .notFound, .validation, .syncFailed, .alreadyLeeched, .timeout, .other: nil
        }
    }
}

/// What a process holds open on a shared store (asked before it is suspended).
public enum LockKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A save (or batch operation) in progress.
    case write
    /// A `begin-write` held across steps.
    case beginWrite = "begin-write"
    /// A pinned query generation's read transaction.
    case pinnedRead = "pinned-read"
}

/// Where the values a read showed came from.
public enum ReadSource: String, Sendable, Hashable, Codable, CaseIterable {
    /// The object already held them in memory (no fault fired).
    case memory
    /// A fault fired and refilled from the row cache.
    case cache
    /// A fault fired and read SQL.
    case sql
    /// A fault fired through a pinned query generation.
    case generation
    /// A child context's fault fired from what its parent context held.
    case parent
    /// The fault could not be fulfilled.
    case error
    /// What a control's last reload rendered, which the system shows (and hands the control's action)
    /// until the next reload.
    case rendered
}

/// What made a commit.
public enum CommitSource: String, Sendable, Hashable, Codable, CaseIterable {
    case save
    /// A SwiftData main context's autosave: a save no step asked for.
    case autosave
    case batchInsert = "batch-insert"
    case batchUpdate = "batch-update"
    case batchDelete = "batch-delete"
    /// Changes a sync imported from a peer store.
    case syncImport = "sync-import"
    /// A `restore-store`: every row becomes the copy's (inserted, updated or deleted to match it).
    case restore
    /// A lightweight migration at a process's launch: the values it filled, the rows of removed entities.
    case migration
    /// The rows of the store file the run started from (`store: { from: }`), there before any process.
    case storeFile = "store-file"

    /// Whether a process wrote it for others to see, so the time it takes to reach their reads is
    /// propagation latency: not a restore, a migration or the starting store file, which no process wrote.
    public var propagates: Bool {
        switch self {
        case .save, .autosave, .batchInsert, .batchUpdate, .batchDelete, .syncImport: true
        case .restore, .migration, .storeFile: false
        }
    }
}

/// Why a store file was read back and checked for lost commits.
public enum VerificationReason: String, Sendable, Hashable, Codable, CaseIterable {
    /// A process crashed (a `crash` step or `fault: { crash: }`).
    case crash
    /// A `copy-store` was just taken.
    case copy
    /// A store was opened again.
    case restart
    /// A process was killed from outside the run.
    case killed
}

/// What a `check` trace event checked.
public enum CheckKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A `read` with `expect:` values.
    case read
    /// A `read` with `expect: absent`.
    case readAbsent = "read-absent"
    /// A `count` with `expect:`.
    case count
    /// A `results` check of a fetched-results controller: its objects or sections, and its delegate calls.
    case results
    /// An `expect-error` that did not happen.
    case expectError = "expect-error"
    /// A `state` check of an object's `isFault`, `isDeleted` and registration.
    case state
    /// A `purge-history` with `expect: { deleted: n }`: how many transactions it deleted.
    case purge
}
