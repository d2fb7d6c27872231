import Basics
import Foundation

/// What a successful save did.
public struct SaveResult: Sendable {
    /// The saving context's name.
    public let context: String
    /// Every committed change (permanent IDs), with versions and the values written.
    public var changes: [CommittedChange] { record.changes }
    /// Temporary IDs of inserted objects mapped to their permanent IDs (built on first use: a save of
    /// many objects whose caller never asks does not pay for it).
    public var permanentIDs: [ObjectID: ObjectID] { record.permanentIDs }
    let record: SaveRecord
    /// Conflicts met and resolved by the merge policy.
    public let conflicts: [SaveConflict]
    /// The history transaction's token, when history tracking is on and something was written.
    public let historyToken: Int64?
    /// The parent context's name when the saving context is a child: its changes went there, not to the
    /// store (`changes` then lists them with the versions the child had read, and temporary IDs).
    public let savedInto: String?

    init(context: String, record: SaveRecord, conflicts: [SaveConflict], historyToken: Int64?,
         savedInto: String? = nil) {
        self.context = context
        self.record = record
        self.conflicts = conflicts
        self.historyToken = historyToken
        self.savedInto = savedInto
    }

    /// Inserted objects (permanent IDs).
    public var inserted: [ObjectID] { changes.filter { $0.operation == .insert }.map(\.object) }
    /// Updated objects.
    public var updated: [ObjectID] { changes.filter { $0.operation == .update }.map(\.object) }
    /// Deleted objects.
    public var deleted: [ObjectID] { changes.filter { $0.operation == .delete }.map(\.object) }

    static func empty(_ context: String) -> SaveResult {
        SaveResult(context: context, record: SaveRecord(changes: [], temporaryKeys: []), conflicts: [],
                   historyToken: nil)
    }
}

/// A save's committed changes and its temporary -> permanent IDs, made into `CommittedChange`s and a
/// dictionary the first time they are read.
///
/// A save that nobody observes (no event sink, did-save observer or other context: the changes' values
/// are then not filled either) keeps its changes as compact records of plain numbers; a large save whose
/// result is dropped then neither builds nor destroys an object ID per row. The inserts come first, in
/// the same order as `temporaryKeys`.
final class SaveRecord: @unchecked Sendable {
    /// One change without its object ID built.
    struct Compact {
        let entity: Int
        let operation: ChangeOperation
        let primaryKey: Int64
        let version: Int64
    }

    private let compact: [Compact]
    private let model: Model?
    private let store: StoreIdentity?
    private let temporaryKeys: [Int64]
    /// Temporary -> permanent IDs given whole (a save whose constraint conflicts made inserts into
    /// existing rows: its changes no longer pair one by one with its temporary keys).
    var givenPermanentIDs: [ObjectID: ObjectID]? {
        get { lock.withLock { builtPermanentIDs } }
        set { lock.withLock { builtPermanentIDs = newValue } }
    }
    /// Guards the built forms (a `SaveResult` is `Sendable`: it may be read from several threads).
    private let lock = NSLock()
    private var builtChanges: [CommittedChange]?
    private var builtPermanentIDs: [ObjectID: ObjectID]?

    /// A record of changes already built (an observed save).
    init(changes: [CommittedChange], temporaryKeys: [Int64]) {
        builtChanges = changes
        compact = []
        model = nil
        store = nil
        self.temporaryKeys = temporaryKeys
    }

    /// A record of compact changes, built into `CommittedChange`s (with empty values) when read.
    init(compact: [Compact], model: Model, store: StoreIdentity, temporaryKeys: [Int64]) {
        self.compact = compact
        self.model = model
        self.store = store
        self.temporaryKeys = temporaryKeys
    }

    var changes: [CommittedChange] {
        lock.withLock { changesLocked() }
    }

    private func changesLocked() -> [CommittedChange] {
        if let builtChanges { return builtChanges }
        let entities = model!.entities
        let built = compact.map { change in
            CommittedChange(object: ObjectID(entity: entities[change.entity].name, primaryKey: change.primaryKey,
                                             store: store!),
                            operation: change.operation, version: change.version, values: [:])
        }
        builtChanges = built
        return built
    }

    var permanentIDs: [ObjectID: ObjectID] {
        lock.withLock {
            if let builtPermanentIDs { return builtPermanentIDs }
            var result: [ObjectID: ObjectID] = [:]
            result.reserveCapacity(temporaryKeys.count)
            for (key, change) in zip(temporaryKeys, changesLocked()) {
                assert(change.operation == .insert)
                let id = change.object
                result[ObjectID(entity: id.entity, primaryKey: key, store: id.store)] = id
            }
            builtPermanentIDs = result
            return result
        }
    }
}

/// A context's did-save notification inside one process (`NSManagedObjectContextDidSave`).
public struct DidSaveEvent: Sendable {
    /// The saving context's name.
    public let context: String
    /// What the save committed.
    public let changes: [CommittedChange]

    /// The IDs as a `RemoteChanges` (what a cross-process notification would carry).
    public var objectIDs: RemoteChanges {
        RemoteChanges(inserted: changes.filter { $0.operation == .insert }.map(\.object),
                      updated: changes.filter { $0.operation == .update }.map(\.object),
                      deleted: changes.filter { $0.operation == .delete }.map(\.object))
    }
}
