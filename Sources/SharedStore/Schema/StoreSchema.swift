import Basics
import Foundation

/// Creates a store's tables in Core Data's layout, or checks an existing store against the model.
///
/// Tables: `Z<ENTITY>` (`Z_PK`, `Z_ENT`, `Z_OPT`, `Z<ATTR>`, `Z<TOONE>`), `Z_<n><REL>` join tables,
/// `Z_PRIMARYKEY` (`Z_ENT`, `Z_NAME`, `Z_SUPER`, `Z_MAX`), `Z_METADATA` (`Z_VERSION`, `Z_UUID`, `Z_PLIST`
/// holding the model hash as JSON), and `Z_STOREMETA` (key/value: history tracking, purges).
enum StoreSchema {
    struct Metadata {
        let storeIdentifier: String
        /// Whether some process ever opened the store with history tracking.
        let historyTracked: Bool
    }

    static func createStatements(for model: Model) -> [String] {
        var sql = [
            "CREATE TABLE IF NOT EXISTS Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
            "CREATE TABLE IF NOT EXISTS Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
            "CREATE TABLE IF NOT EXISTS Z_STOREMETA (Z_KEY VARCHAR PRIMARY KEY, Z_VALUE)",
        ]
        var joinTables: Set<String> = []
        for entity in model.entities {
            let columns = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"]
                + entity.slots.map { slot in
                    switch slot.kind {
                    case .attribute(let type): "\(slot.column) \(type.sqlType)"
                    case .toOne: "\(slot.column) INTEGER"
                    }
                }
            sql.append("CREATE TABLE IF NOT EXISTS \(entity.tableName) (\(columns.joined(separator: ", ")))")
            for slot in entity.slots where slot.attributeType == nil {
                sql.append("CREATE INDEX IF NOT EXISTS \(entity.tableName)_\(slot.column)_INDEX ON \(entity.tableName) (\(slot.column))")
            }
            for relationship in entity.relationships {
                guard case .joinTable(let table, let owner, let target) = relationship.storage,
                    joinTables.insert(table).inserted
                else { continue }
                let (a, b) = owner < target ? (owner, target) : (target, owner)
                sql.append("CREATE TABLE IF NOT EXISTS \(table) (\(a) INTEGER, \(b) INTEGER, PRIMARY KEY (\(a), \(b)))")
                sql.append("CREATE INDEX IF NOT EXISTS \(table)_\(b)_INDEX ON \(table) (\(b), \(a))")
            }
        }
        return sql
    }

    /// Creates the schema when the file is new, or checks the model hash; runs in one IMMEDIATE transaction
    /// so processes opening the store together agree.
    static func prepare(_ db: SQLiteConnection, model: Model, historyTracking: Bool) throws(StoreError) -> Metadata {
        do {
            // An existing store that needs nothing written opens with a read: opening it takes no write
            // lock, so a process can launch while another holds one (as Core Data adds such a store).
            if try db.tableExists("Z_METADATA") {
                let metadata = try check(db, model: model)
                let historyReady = try db.tableExists("ATRANSACTION")
                if !historyTracking || (metadata.historyTracked && historyReady) {
                    return metadata
                }
            }
            return try db.writeTransaction {
                if try db.tableExists("Z_METADATA") {
                    let metadata = try check(db, model: model)
                    if historyTracking {
                        try HistorySchema.create(db)
                        try setMeta(db, "historyTracking", .int(1))
                    }
                    return Metadata(storeIdentifier: metadata.storeIdentifier,
                                    historyTracked: historyTracking || metadata.historyTracked)
                }
                for statement in createStatements(for: model) { try db.execute(statement) }
                for entity in model.entities {
                    try db.cached("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, 0, 0)")
                        .run([.int(entity.entityNumber), .string(entity.name)])
                }
                let identifier = UUID().uuidString
                let plist = #"{"NSStoreType":"SQLite","NSStoreModelVersionHash":"\#(model.versionHash)"}"#
                try db.cached("INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)")
                    .run([.string(identifier), .string(plist)])
                if historyTracking {
                    try HistorySchema.create(db)
                    try setMeta(db, "historyTracking", .int(1))
                }
                return Metadata(storeIdentifier: identifier, historyTracked: historyTracking)
            }
        } catch {
            throw StoreError.wrap(error)
        }
    }

    /// Reads the metadata of an existing store (no writes), checking the model hash.
    static func check(_ db: SQLiteConnection, model: Model) throws(StoreError) -> Metadata {
        do {
            let statement = try db.cached("SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1")
            defer { statement.reset() }
            guard try statement.step(), let identifier = statement.string(at: 0) else {
                throw StoreError.modelMismatch(path: db.path, storeHash: "(no metadata)", modelHash: model.versionHash)
            }
            let plist = statement.string(at: 1) ?? ""
            let storeHash = plist.range(of: #""NSStoreModelVersionHash":""#).map { range in
                String(plist[range.upperBound...].prefix { $0 != "\"" })
            } ?? "(none)"
            guard storeHash == model.versionHash else {
                throw StoreError.modelMismatch(path: db.path, storeHash: storeHash, modelHash: model.versionHash)
            }
            let tracked = try db.tableExists("Z_STOREMETA")
                ? (try meta(db, "historyTracking")?.intValue ?? 0) == 1 : false
            return Metadata(storeIdentifier: identifier, historyTracked: tracked)
        } catch {
            throw StoreError.wrap(error)
        }
    }

    static func meta(_ db: SQLiteConnection, _ key: String) throws(SQLiteError) -> Value? {
        let statement = try db.cached("SELECT Z_VALUE FROM Z_STOREMETA WHERE Z_KEY = ?")
        try statement.bind([.string(key)])
        defer { statement.reset() }
        return try statement.step() ? statement.value(at: 0) : nil
    }

    static func setMeta(_ db: SQLiteConnection, _ key: String, _ value: Value) throws(SQLiteError) {
        try db.cached("INSERT OR REPLACE INTO Z_STOREMETA (Z_KEY, Z_VALUE) VALUES (?, ?)").run([.string(key), value])
    }
}
