import Basics
import Foundation

/// A property value's stamp: when it was set and by which store. Stamps order lexicographically; the
/// greater one wins (later time, then the greater store identifier).
struct SyncStamp: Comparable {
    var time: Double
    var store: String

    static func < (lhs: SyncStamp, rhs: SyncStamp) -> Bool {
        (lhs.time, lhs.store) < (rhs.time, rhs.store)
    }
}

/// The sync engine's SQL on the store's writer connection: identities, stamps, tombstones. Every method
/// runs inside the caller's transaction (or alone, for the read-only lookups).
final class SyncEngine {
    let core: StoreCore
    let syncModel: SyncModel
    /// Where a row without a `uuid` value gets its global identifier.
    var identifiers: SyncIdentifiers
    var db: SQLiteConnection { core.writer }

    init(core: StoreCore, identifiers: SyncIdentifiers) {
        self.core = core
        self.identifiers = identifiers
        syncModel = SyncModel(core.model)
    }

    // MARK: Metadata

    func meta(_ key: String) throws -> Value? {
        guard try db.tableExists(StoreSchema.metaTable) else { return nil }
        return try StoreSchema.meta(db, key)
    }

    func setMeta(_ key: String, _ value: Value) throws {
        try StoreSchema.setMeta(db, key, value)
    }

    /// This store's ensemble identifier, or nil when it has not leeched.
    func storeIdentifier() throws -> String? {
        try meta(SyncSchema.storeKey)?.stringValue
    }

    // MARK: Identity

    /// The global identifier recorded for a row, if any.
    func mappedIdentifier(_ entity: EntityInfo, _ primaryKey: Int64) throws -> String? {
        let statement = try db.cached("SELECT ZGID FROM GROUPSIM_SYNCOBJECT WHERE ZENT = ? AND ZPK = ?")
        try statement.bind([.int(entity.entityNumber), .int(primaryKey)])
        defer { statement.reset() }
        return try statement.step() ? statement.string(at: 0) : nil
    }

    /// The row recorded for a global identifier, if any.
    func mappedKey(_ entity: EntityInfo, _ identifier: String) throws -> Int64? {
        try db.scalarInt("SELECT ZPK FROM GROUPSIM_SYNCOBJECT WHERE ZENT = ? AND ZGID = ?",
                         [.int(entity.entityNumber), .string(identifier)])
    }

    func setMapping(_ entity: EntityInfo, _ primaryKey: Int64, _ identifier: String) throws {
        try db.cached("INSERT OR REPLACE INTO GROUPSIM_SYNCOBJECT (ZENT, ZPK, ZGID) VALUES (?, ?, ?)")
            .run([.int(entity.entityNumber), .int(primaryKey), .string(identifier)])
    }

    func removeMapping(_ entity: EntityInfo, _ primaryKey: Int64) throws {
        try db.cached("DELETE FROM GROUPSIM_SYNCOBJECT WHERE ZENT = ? AND ZPK = ?")
            .run([.int(entity.entityNumber), .int(primaryKey)])
    }

    /// The identifier a row's `uuid` attribute gives it, if the entity has one and the value is set.
    func uuidIdentifier(_ entity: EntityInfo, _ values: [Value]) -> String? {
        guard let slot = syncModel.uuidSlot[entity.index], case .uuid(let uuid) = values[slot] else { return nil }
        return uuid.uuidString
    }

    /// The local row for a global identifier: the recorded mapping, else (for an entity with a `uuid`
    /// attribute) an unmapped row whose uuid equals it, which is then recorded. Never by primary key.
    func localKey(_ entity: EntityInfo, _ identifier: String) throws -> Int64? {
        let (key, mapped) = try findKey(entity, identifier)
        if let key, !mapped { try setMapping(entity, key, identifier) }
        return key
    }

    /// `localKey` without recording anything: the key, and whether it came from the recorded mapping.
    func findKey(_ entity: EntityInfo, _ identifier: String) throws -> (Int64?, mapped: Bool) {
        if let key = try mappedKey(entity, identifier) { return (key, true) }
        guard let slot = syncModel.uuidSlot[entity.index], let uuid = UUID(uuidString: identifier) else { return (nil, false) }
        let column = entity.slots[slot].column
        let key = try db.scalarInt("""
            SELECT Z_PK FROM \(entity.tableName) t WHERE \(column) = ? AND NOT EXISTS
            (SELECT 1 FROM GROUPSIM_SYNCOBJECT o WHERE o.ZENT = ? AND o.ZPK = t.Z_PK) ORDER BY Z_PK LIMIT 1
            """, [.uuid(uuid), .int(entity.entityNumber)])
        return (key, false)
    }

    /// A row's global identifier, recording one when it has none yet: its `uuid` value when that is not
    /// already another row's identifier, otherwise a new one from `identifiers`.
    func identifier(_ entity: EntityInfo, _ primaryKey: Int64, values: [Value]) throws -> String {
        if let identifier = try mappedIdentifier(entity, primaryKey) { return identifier }
        let identifier: String
        if let candidate = uuidIdentifier(entity, values), try mappedKey(entity, candidate) == nil {
            identifier = candidate
        } else {
            identifier = identifiers.next().uuidString
        }
        try setMapping(entity, primaryKey, identifier)
        return identifier
    }

    /// The identifier of a row that must exist (a relationship's destination).
    func identifier(_ entity: EntityInfo, _ primaryKey: Int64) throws -> String? {
        if let identifier = try mappedIdentifier(entity, primaryKey) { return identifier }
        guard let row = try core.readRow(entity, primaryKey, on: db) else { return nil }
        return try identifier(entity, primaryKey, values: row.values)
    }

    // MARK: Tombstones

    func isTombstoned(_ entity: EntityInfo, _ identifier: String) throws -> Bool {
        try db.scalarInt("SELECT 1 FROM GROUPSIM_SYNCTOMBSTONE WHERE ZENT = ? AND ZGID = ?",
                         [.int(entity.entityNumber), .string(identifier)]) != nil
    }

    /// Records that `identifier` is deleted for good and forgets its stamps.
    func addTombstone(_ entity: EntityInfo, _ identifier: String, _ stamp: SyncStamp) throws {
        try db.cached("INSERT OR IGNORE INTO GROUPSIM_SYNCTOMBSTONE (ZENT, ZGID, ZTIME, ZSTORE) VALUES (?, ?, ?, ?)")
            .run([.int(entity.entityNumber), .string(identifier), .double(stamp.time), .string(stamp.store)])
        try db.cached("DELETE FROM GROUPSIM_SYNCSTAMP WHERE ZENT = ? AND ZGID = ?")
            .run([.int(entity.entityNumber), .string(identifier)])
    }

    // MARK: Stamps

    func stamp(_ entity: EntityInfo, _ identifier: String, _ property: String) throws -> (SyncStamp, String?)? {
        let statement = try db.cached("SELECT ZTIME, ZSTORE, ZVALUE FROM GROUPSIM_SYNCSTAMP WHERE ZENT = ? AND ZGID = ? AND ZPROPERTY = ?")
        try statement.bind([.int(entity.entityNumber), .string(identifier), .string(property)])
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return (SyncStamp(time: statement.double(at: 0), store: statement.string(at: 1) ?? ""), statement.string(at: 2))
    }

    func setStamp(_ entity: EntityInfo, _ identifier: String, _ property: String, _ stamp: SyncStamp,
                  value: String? = nil) throws
    {
        try db.cached("INSERT OR REPLACE INTO GROUPSIM_SYNCSTAMP (ZENT, ZGID, ZPROPERTY, ZTIME, ZSTORE, ZVALUE) VALUES (?, ?, ?, ?, ?, ?)")
            .run([.int(entity.entityNumber), .string(identifier), .string(property), .double(stamp.time),
                  .string(stamp.store), value.map(Value.string) ?? .null])
    }

    // MARK: Rows

    /// The destination primary keys a join table holds for `owner`.
    func joinTargets(_ table: String, _ owner: String, _ target: String, _ key: Int64) throws -> [Int64] {
        let statement = try db.cached("SELECT \(target) FROM \(table) WHERE \(owner) = ? ORDER BY \(target)")
        try statement.bind([.int(key)])
        defer { statement.reset() }
        var keys: [Int64] = []
        while try statement.step() { keys.append(statement.int64(at: 0)) }
        return keys
    }

    /// Deletes a row and its join-table rows (as a save does), and its unresolved references.
    func deleteRow(_ entity: EntityInfo, _ key: Int64) throws {
        try db.cached("DELETE FROM \(entity.tableName) WHERE Z_PK = ?").run([.int(key)])
        for relationship in entity.relationships {
            guard case .joinTable(let table, let owner, _) = relationship.storage else { continue }
            try db.cached("DELETE FROM \(table) WHERE \(owner) = ?").run([.int(key)])
        }
        try db.cached("DELETE FROM GROUPSIM_SYNCPENDINGREF WHERE ZENT = ? AND ZPK = ?").run([.int(entity.entityNumber), .int(key)])
    }

    // MARK: Unresolved references

    /// The relationship targets of a row not resolved yet (global identifiers).
    func pendingTargets(_ entity: EntityInfo, _ key: Int64, _ property: String) throws -> [String] {
        let statement = try db.cached("SELECT ZTARGET FROM GROUPSIM_SYNCPENDINGREF WHERE ZENT = ? AND ZPK = ? AND ZPROPERTY = ?")
        try statement.bind([.int(entity.entityNumber), .int(key), .string(property)])
        defer { statement.reset() }
        var targets: [String] = []
        while try statement.step() { targets.append(statement.string(at: 0) ?? "") }
        return targets
    }

    func clearPending(_ entity: EntityInfo, _ key: Int64, _ property: String) throws {
        try db.cached("DELETE FROM GROUPSIM_SYNCPENDINGREF WHERE ZENT = ? AND ZPK = ? AND ZPROPERTY = ?")
            .run([.int(entity.entityNumber), .int(key), .string(property)])
    }

    func addPending(_ entity: EntityInfo, _ key: Int64, _ property: String, _ target: String) throws {
        try db.cached("INSERT OR IGNORE INTO GROUPSIM_SYNCPENDINGREF (ZENT, ZPK, ZPROPERTY, ZTARGET) VALUES (?, ?, ?, ?)")
            .run([.int(entity.entityNumber), .int(key), .string(property), .string(target)])
    }

    /// The value of `property` of a row as a change set carries it.
    func syncValue(_ entity: EntityInfo, _ key: Int64, _ values: [Value], _ property: SyncProperty) throws -> SyncValue {
        switch property.kind {
        case .attribute(let slot, _):
            return .value(values[slot])
        case .toOne(let slot, let destination):
            guard case .int(let target) = values[slot] else {
                return .reference(try pendingTargets(entity, key, property.name).first)
            }
            return .reference(try identifier(core.model.entities[destination], target))
        case .joinTable(let table, let owner, let target, let destination):
            let info = core.model.entities[destination]
            let resolved = try joinTargets(table, owner, target, key).compactMap { try identifier(info, $0) }
            return .references(Array(Set(resolved + (try pendingTargets(entity, key, property.name)))).sorted())
        }
    }
}

extension SyncValue {
    /// The canonical text of a many-to-many value (kept in `GROUPSIM_SYNCSTAMP.ZVALUE`).
    var referencesText: String? {
        guard case .references(let ids) = self else { return nil }
        return ids.joined(separator: ",")
    }
}
