import Foundation

/// The identity of one object in one store: entity, primary key and store identifier
/// (Core Data's `NSManagedObjectID`).
///
/// Objects inserted and not yet saved have a temporary ID (a negative key); saving replaces it with a
/// permanent one, and `SaveResult.permanentIDs` maps the first to the second.
public struct ObjectID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The entity's name.
    public let entity: String
    /// The row's `Z_PK` (positive), or a negative number for a temporary ID.
    public let primaryKey: Int64
    /// The store's identifier, interned: IDs are copied into every list, set and event, and copying a
    /// 36-character string is an atomic retain (short entity names are stored inline and cost nothing).
    let store: StoreIdentity

    /// The store's identifier (`Z_METADATA.Z_UUID`).
    public var storeIdentifier: String { store.name }

    /// Creates an ID; the runner and tests build them from keys they know.
    public init(entity: String, primaryKey: Int64, storeIdentifier: String) {
        self.init(entity: entity, primaryKey: primaryKey, store: StoreIdentity(storeIdentifier))
    }

    init(entity: String, primaryKey: Int64, store: StoreIdentity) {
        self.entity = entity
        self.primaryKey = primaryKey
        self.store = store
    }

    /// Whether this is the temporary ID of an object not saved yet.
    public var isTemporary: Bool { primaryKey < 0 }

    /// The URI form Core Data uses: `x-coredata://<store>/<Entity>/p<pk>` (`t<n>` when temporary).
    public var uriRepresentation: String {
        "x-coredata://\(storeIdentifier)/\(entity)/\(isTemporary ? "t\(-primaryKey)" : "p\(primaryKey)")"
    }

    /// A short form for traces: `Note/p3`.
    public var description: String { "\(entity)/\(isTemporary ? "t\(-primaryKey)" : "p\(primaryKey)")" }

    public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool {
        (lhs.entity, lhs.primaryKey) < (rhs.entity, rhs.primaryKey)
    }

    public func hash(into hasher: inout Hasher) {
        // The entity too: every entity's keys start at 1, so a store with thousands of entities (someone
        // else's) would put thousands of IDs in one bucket, and every lookup would compare them all.
        hasher.combine(primaryKey)
        hasher.combine(entity)
    }

    public static func == (lhs: ObjectID, rhs: ObjectID) -> Bool {
        lhs.primaryKey == rhs.primaryKey && lhs.store == rhs.store && lhs.entity == rhs.entity
    }
}

extension ObjectID: CustomReflectable {
    /// The entity, primary key and store identifier (what `dump` and `debugPrint` show).
    public var customMirror: Mirror {
        Mirror(self, children: ["entity": entity, "primaryKey": primaryKey, "storeIdentifier": storeIdentifier],
               displayStyle: .struct)
    }
}

/// A store identifier interned as a small number: equal identifiers, equal numbers (process-wide).
struct StoreIdentity: Hashable, Sendable {
    let interned: InternedString

    init(_ name: String) { interned = InternedString(name) }

    var name: String { interned.string }
}
