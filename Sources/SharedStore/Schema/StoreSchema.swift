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
            sql += tableStatements(for: entity)
            for relationship in entity.relationships {
                guard case .joinTable(let table, let owner, let target) = relationship.storage,
                    joinTables.insert(table).inserted
                else { continue }
                sql += joinTableStatements(table: table, owner, target)
            }
        }
        return sql
    }

    /// The entity's table and the indexes of its to-one columns.
    static func tableStatements(for entity: EntityInfo) -> [String] {
        let columns = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"]
            + entity.slots.map { slot in
                switch slot.kind {
                case .attribute(let type): "\(slot.column) \(type.sqlType)"
                case .toOne: "\(slot.column) INTEGER"
                }
            }
        var sql = ["CREATE TABLE IF NOT EXISTS \(entity.tableName) (\(columns.joined(separator: ", ")))"]
        for slot in entity.slots where slot.attributeType == nil {
            sql.append("CREATE INDEX IF NOT EXISTS \(entity.tableName)_\(slot.column)_INDEX ON \(entity.tableName) (\(slot.column))")
        }
        return sql
    }

    /// A many-to-many relationship's join table, keyed by both columns, and its reverse index.
    static func joinTableStatements(table: String, _ owner: String, _ target: String) -> [String] {
        let (a, b) = owner < target ? (owner, target) : (target, owner)
        return ["CREATE TABLE IF NOT EXISTS \(table) (\(a) INTEGER, \(b) INTEGER, PRIMARY KEY (\(a), \(b)))",
                "CREATE INDEX IF NOT EXISTS \(table)_\(b)_INDEX ON \(table) (\(b), \(a))"]
    }

    /// `Z_METADATA.Z_PLIST` for a store of `model`.
    static func metadataPlist(_ model: Model) -> String {
        #"{"NSStoreType":"SQLite","NSStoreModelVersionHash":"\#(model.versionHash)"}"#
    }

    /// Creates the schema when the file is new, or checks the model hash; runs in one IMMEDIATE transaction
    /// so processes opening the store together agree.
    static func prepare(_ db: SQLiteConnection, model: Model, options: StoreOptions) throws(StoreError) -> Metadata {
        let historyTracking = options.historyTracking
        do {
            if try db.tableExists("Z_METADATA") { try migrateIfNeeded(db, to: model, options: options) }
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
                let plist = metadataPlist(model)
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
            let statement = try db.cached("SELECT Z_UUID FROM Z_METADATA WHERE Z_VERSION = 1")
            defer { statement.reset() }
            guard try statement.step(), let identifier = statement.string(at: 0) else {
                throw StoreError.modelMismatch(path: db.path, storeHash: "(no metadata)", modelHash: model.versionHash)
            }
            let storeHash = try modelHash(db) ?? "(none)"
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

    /// The version hash of the model the store was made with or last migrated to (`nil` without metadata).
    static func modelHash(_ db: SQLiteConnection) throws(SQLiteError) -> String? {
        let statement = try db.cached("SELECT Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1")
        defer { statement.reset() }
        guard try statement.step(), let plist = statement.string(at: 0) else { return nil }
        return plist.range(of: #""NSStoreModelVersionHash":""#).map { range in
            String(plist[range.upperBound...].prefix { $0 != "\"" })
        }
    }

    /// Migrates a store made with one of `options.previousModels` to `model` (Core Data's automatic
    /// lightweight migration), in one write transaction; does nothing for a store of `model`.
    /// - Throws: `.modelMismatch` for a store of a model this process does not know (a newer one);
    ///   `.migrationRequired` when `options.migratesAutomatically` is off; `.sqlite` (busy) when another
    ///   process holds the write lock past the busy timeout; `.migrationFailed` for a change a lightweight
    ///   migration cannot infer.
    static func migrateIfNeeded(_ db: SQLiteConnection, to model: Model, options: StoreOptions) throws {
        guard let storeHash = try modelHash(db), storeHash != model.versionHash else { return }
        guard let source = options.previousModels.first(where: { $0.versionHash == storeHash }) else {
            throw StoreError.modelMismatch(path: db.path, storeHash: storeHash, modelHash: model.versionHash)
        }
        guard options.migratesAutomatically, !options.readOnly else {
            throw StoreError.migrationRequired(path: db.path, storeHash: storeHash, modelHash: model.versionHash)
        }
        try db.writeTransaction {
            // Another process may have migrated it while this one waited for the lock.
            guard try modelHash(db) == storeHash else { return }
            try StoreMigration(source: source, destination: model).run(on: db)
            try db.cached("UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = 1").run([.string(metadataPlist(model))])
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
