import Foundation

/// `Z_METADATA.Z_PLIST` as Core Data writes it: a binary property list (`bplist00`) with the store type,
/// the per-entity model version hashes and their digest, plus `GroupSimLayout` in the stores SharedStore
/// made (Core Data keeps an app's own metadata keys in the same dictionary, so the key is at home there).
struct StoreMetadata {
    /// `NSStoreModelVersionHashes`: entity name -> 32-byte hash.
    var entityHashes: [String: [UInt8]]
    /// Whether SharedStore wrote the store (`GroupSimLayout`); a store Core Data wrote carries Core Data's
    /// hashes, which SharedStore cannot compute.
    var writtenByGroupSim: Bool
    /// `NSPersistenceFrameworkVersion`, when present.
    var frameworkVersion: Int?

    /// The version digest of the hashes (`Model.versionHash` for the model that made them).
    var digest: String { Model.digest(of: entityHashes) }

    /// The version of Core Data's layout SharedStore writes (`NSPersistenceFrameworkVersion`): the one the
    /// layout was read off (see COREDATA-STORE.md).
    static let frameworkVersion = 1344
    /// The marker key of a store SharedStore made, and its layout's version.
    static let layoutKey = "GroupSimLayout"
    static let layoutVersion = 1

    /// The property list for a store of `model`.
    static func encode(_ model: Model) -> Data {
        let hashes = model.entityVersionHashes.mapValues { Data($0) }
        let plist: [String: Any] = [
            "NSStoreType": "SQLite",
            "NSPersistenceFrameworkVersion": frameworkVersion,
            "NSStoreModelVersionHashes": hashes,
            "NSStoreModelVersionHashesVersion": 3,
            "NSStoreModelVersionIdentifiers": [String](),
            "NSStoreModelVersionHashesDigest": model.versionHash,
            "NSStoreModelVersionChecksumKey": model.versionHash,
            "_NSAutoVacuumLevel": "2",
            layoutKey: layoutVersion,
        ]
        // A dictionary of strings, numbers, data and arrays always serializes.
        return try! PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
    }

    /// Reads a store's property list; `nil` when it is not one, or has no model hashes.
    static func decode(_ data: Data) -> StoreMetadata? {
        guard let plist = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: Any],
              let hashes = plist["NSStoreModelVersionHashes"] as? [String: Any]
        else { return nil }
        var entityHashes: [String: [UInt8]] = [:]
        for (name, value) in hashes {
            guard let data = value as? Data else { return nil }
            entityHashes[name] = Array(data)
        }
        return StoreMetadata(entityHashes: entityHashes, writtenByGroupSim: plist[layoutKey] != nil,
                             frameworkVersion: (plist["NSPersistenceFrameworkVersion"] as? NSNumber)?.intValue)
    }
}
