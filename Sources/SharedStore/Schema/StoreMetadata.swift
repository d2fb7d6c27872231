import Foundation
import Synchronization

/// `Z_METADATA.Z_PLIST` as Core Data writes it: a binary property list (`bplist00`) with the store type,
/// the per-entity model version hashes and their digest, plus `GroupSimLayout` in the stores SharedStore
/// made (Core Data keeps an app's own metadata keys in the same dictionary, so the key is at home there).
///
/// Foundation's property list coders cost about a millisecond a store open, most of what opening an
/// existing store costs; every process of a run opens the same few stores, so each process keeps the
/// lists it wrote and read (a few, bounded) and codes each only once.
struct StoreMetadata: Sendable {
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
    /// layout was read off (see Docs/SharedStore.md, "The file").
    static let frameworkVersion = 1344
    /// The marker key of a store SharedStore made, and its layout's version.
    static let layoutKey = "GroupSimLayout"
    static let layoutVersion = 1

    /// The lists this process wrote (by model version) and read (by their bytes, up to 64 KiB), at most
    /// `cacheLimit` each.
    private static let written = Mutex<[String: Data]>([:])
    private static let read = Mutex<[Data: StoreMetadata?]>([:])
    private static let cacheLimit = 16

    /// The property list for a store of `model`.
    static func encode(_ model: Model) -> Data {
        if let known = written.withLock({ $0[model.versionHash] }) { return known }
        let data = serialize(model)
        written.withLock { cache in
            if cache.count >= cacheLimit { cache.removeAll() }
            cache[model.versionHash] = data
        }
        return data
    }

    private static func serialize(_ model: Model) -> Data {
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
        if let known = read.withLock({ $0[data] }) { return known }
        let metadata = parse(data)
        // Only lists of the size a model gives are kept (someone else's store may hold a huge one).
        guard data.count <= 64 * 1024 else { return metadata }
        read.withLock { cache in
            if cache.count >= cacheLimit { cache.removeAll() }
            cache[data] = metadata
        }
        return metadata
    }

    private static func parse(_ data: Data) -> StoreMetadata? {
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
