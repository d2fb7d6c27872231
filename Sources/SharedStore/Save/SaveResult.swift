/// What a successful save did.
public struct SaveResult: Sendable {
    /// The saving context's name.
    public let context: String
    /// Every committed change (permanent IDs), with versions and the values written.
    public let changes: [CommittedChange]
    /// Temporary IDs of inserted objects mapped to their permanent IDs.
    public let permanentIDs: [ObjectID: ObjectID]
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
        SaveResult(context: context, changes: [], permanentIDs: [:], conflicts: [], historyToken: nil)
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
