/// Why a sync operation failed. The store is unchanged by a failed `leech` or `sync` (its SQL
/// transaction rolled back); files already written to the transfer service stay (they are idempotent).
public enum SyncError: Error, Sendable, CustomStringConvertible {
    /// `leech()` on a store that already belongs to the ensemble.
    case alreadyLeeched(storeIdentifier: String)
    /// The store was opened without persistent history tracking: sync exports from history.
    case historyTrackingRequired
    /// History after the last export was purged, so those local changes cannot be exported.
    case historyExpired(exportedThrough: Int64, purgedThrough: Int64)
    /// A peer's change-set file cannot be read or does not fit this store's model.
    case invalidChangeSet(name: String, reason: String)
    /// The object is not in the store (and has no global identifier).
    case notFound(ObjectID)
    /// The transfer service failed.
    case transfer(operation: String, reason: String)
    /// An interruption hook threw (a simulated crash at `stage`); nothing after it ran.
    case interrupted(stage: SyncStage, reason: String)
    /// The model has what sync does not carry yet (sub-entities).
    case unsupportedModel(reason: String)
    /// The store failed (read-only, SQLite...).
    case store(StoreError)

    public var description: String {
        switch self {
        case .alreadyLeeched(let id): "the store already belongs to the ensemble (as \(id)): leech only once"
        case .historyTrackingRequired:
            "sync exports from persistent history: open the store with history tracking (StoreOptions(historyTracking: true))"
        case .historyExpired(let exported, let purged):
            "history after the last export (token \(exported)) was purged through token \(purged): those changes cannot be exported"
        case .invalidChangeSet(let name, let reason): "change set \(name): \(reason)"
        case .notFound(let id): "object \(id) is not in the store"
        case .transfer(let operation, let reason): "transfer service \(operation) failed: \(reason)"
        case .interrupted(let stage, let reason): "sync interrupted at \(stage): \(reason)"
        case .unsupportedModel(let reason): "sync does not support this model: \(reason)"
        case .store(let error): "\(error)"
        }
    }

    static func wrap(_ error: any Error) -> SyncError {
        switch error {
        case let error as SyncError: error
        case let error as StoreError: .store(error)
        default: .store(StoreError.wrap(error))
        }
    }
}

/// The points of a sync where `SyncEnsemble.interruption` is called (where the runner simulates a crash).
public enum SyncStage: String, Sendable, CustomStringConvertible {
    /// Inside the transaction: the export is recorded (in the outbox), the peers' files not applied yet.
    case exported
    /// Inside the transaction: everything applied, before COMMIT.
    case beforeCommit
    /// After COMMIT, before the committed change sets are written to the transfer service.
    case beforeUpload

    public var description: String { rawValue }
}

/// What `leech()` or `sync()` did.
public struct SyncResult: Sendable {
    /// Whether this call joined the store to the ensemble (an explicit leech, or the first sync).
    public var leeched = false
    /// How many object changes this call exported (the baseline's objects when leeching).
    public var exportedObjects = 0
    /// The change-set files written to the transfer service (including ones an interrupted sync committed
    /// and did not get to write).
    public var exportedFiles: [String] = []
    /// The peers' change-set files applied, in the order applied.
    public var importedFiles: [String] = []
    /// The objects of this store the import (and the delete-wins rule) inserted, updated and deleted:
    /// merge them into the view context (`mergeChanges(fromRemoteContextSave:)`).
    public var changes = RemoteChanges()
    /// The history token of the transaction that recorded the import (author `sync.import`), if any.
    public var historyToken: Int64?

    /// Creates an empty result.
    public init() {}
}
