import Foundation

/// What a successful save did.
public struct SaveResult: Sendable {
    /// The saving context's name.
    public let context: String
    /// Every committed change (permanent IDs), with versions and the values written.
    public let changes: [CommittedChange]
    /// Temporary IDs of inserted objects mapped to their permanent IDs (built on first use: a save of
    /// many objects whose caller never asks does not pay for it).
    public var permanentIDs: [ObjectID: ObjectID] { permanentIDMap.dictionary }
    let permanentIDMap: PermanentIDMap
    /// Conflicts met and resolved by the merge policy.
    public let conflicts: [SaveConflict]
    /// The history transaction's token, when history tracking is on and something was written.
    public let historyToken: Int64?

    /// Inserted objects (permanent IDs).
    public var inserted: [ObjectID] { changes.filter { $0.operation == .insert }.map(\.object) }
    /// Updated objects.
    public var updated: [ObjectID] { changes.filter { $0.operation == .update }.map(\.object) }
    /// Deleted objects.
    public var deleted: [ObjectID] { changes.filter { $0.operation == .delete }.map(\.object) }

    static func empty(_ context: String) -> SaveResult {
        SaveResult(context: context, changes: [], permanentIDMap: PermanentIDMap(temporaryKeys: [], changes: []),
                   conflicts: [], historyToken: nil)
    }
}

/// A save's temporary -> permanent IDs, kept as the inserts' temporary keys next to the committed changes
/// (whose first entries are the inserts, in the same order) and made a dictionary the first time it is read.
final class PermanentIDMap: @unchecked Sendable {
    private let temporaryKeys: [Int64]
    private let changes: [CommittedChange]
    /// Guards `built` (a `SaveResult` is `Sendable`: it may be read from several threads).
    private let lock = NSLock()
    private var built: [ObjectID: ObjectID]?

    /// - Parameters:
    ///   - temporaryKeys: the inserted objects' temporary primary keys.
    ///   - changes: the save's changes, starting with those inserts in the same order.
    init(temporaryKeys: [Int64], changes: [CommittedChange]) {
        self.temporaryKeys = temporaryKeys
        self.changes = changes
    }

    var dictionary: [ObjectID: ObjectID] {
        lock.withLock {
            if let built { return built }
            var result: [ObjectID: ObjectID] = [:]
            result.reserveCapacity(temporaryKeys.count)
            for (key, change) in zip(temporaryKeys, changes) {
                assert(change.operation == .insert)
                let id = change.object
                result[ObjectID(entity: id.entity, primaryKey: key, store: id.store)] = id
            }
            built = result
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
