import Basics
import Foundation

/// Creates a store's tables in Core Data's layout, or checks an existing store against the model.
///
/// Tables: `Z<ENTITY>` (`Z_PK`, `Z_ENT`, `Z_OPT`, `Z<ATTR>`, `Z<TOONE>`), `Z_<n><REL>` join tables,
/// `Z_PRIMARYKEY` (`Z_ENT`, `Z_NAME`, `Z_SUPER`, `Z_MAX`; with history, rows 16001-16003), `Z_METADATA`
/// (`Z_VERSION`, `Z_UUID`, `Z_PLIST`: a binary property list, `StoreMetadata`), `Z_MODELCACHE` (the
/// model, as JSON; Core Data keeps its compiled model there and tools ignore it), and the history tables
/// (`HistorySchema`). What SharedStore needs beyond them lives in tables whose names start with
/// `GROUPSIM_`, which no Core Data table can have (entity tables start with `Z`, history tables with
/// `A`): `GROUPSIM_META` (key/value: the highest history token purged, the sync engine's state) and the sync
/// engine's tables.
enum StoreSchema {
    struct Metadata {
        let storeIdentifier: String
        /// Whether the store has persistent history (some process opened it with history tracking).
        let historyTracked: Bool
        /// The rows a lightweight migration at this open rewrote (`migrateIfNeeded`); 0 when none ran.
        var rowsMigrated = 0
    }

    /// SharedStore's key/value table.
    static let metaTable = "GROUPSIM_META"

    static func createStatements(for model: Model) -> [String] {
        var sql = [
            "CREATE TABLE IF NOT EXISTS Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
            "CREATE TABLE IF NOT EXISTS Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
            "CREATE TABLE IF NOT EXISTS Z_MODELCACHE (Z_CONTENT BLOB)",
            "CREATE TABLE IF NOT EXISTS \(metaTable) (NAME VARCHAR PRIMARY KEY, VALUE)",
        ]
        var joinTables: Set<String> = []
        for entity in model.entities {
            if entity.family.root == entity.index { sql += tableStatements(for: entity, in: model) }
            for relationship in entity.relationships {
                guard case .joinTable(let table, let owner, let target) = relationship.storage,
                    joinTables.insert(table).inserted
                else { continue }
                sql += joinTableStatements(table: table, owner, target, orderColumns: orderColumns(of: model, in: table))
            }
        }
        return sql
    }

    /// Every ordered to-many's order-key column, with the table that holds it: the members' root table
    /// for a one-to-many, the join table for a many-to-many.
    static func orderColumns(of model: Model) -> [(table: String, column: String)] {
        var result: [(table: String, column: String)] = []
        for entity in model.entities {
            for relationship in entity.relationships {
                guard let column = relationship.orderColumn, let table = model.orderTable(of: relationship) else { continue }
                if !result.contains(where: { $0 == (table, column) }) { result.append((table, column)) }
            }
        }
        return result
    }

    /// The order-key columns `table` holds.
    static func orderColumns(of model: Model, in table: String) -> [String] {
        orderColumns(of: model).filter { $0.table == table }.map(\.column)
    }

    /// Adds the order-key columns a store made before its relationships were ordered lacks (a migration).
    static func addMissingOrderColumns(_ db: SQLiteConnection, model: Model) throws(SQLiteError) {
        for (table, column) in orderColumns(of: model) where !(try db.columns(of: table)).contains(column) {
            try db.execute("ALTER TABLE \(table) ADD COLUMN \(column) INTEGER")
        }
    }

    /// A root entity's table (its sub-entities' rows too, with their columns) and the indexes of its to-one
    /// columns, of `Z_ENT` when sub-entities share it, and of its family's uniqueness constraints.
    static func tableStatements(for root: EntityInfo, in model: Model) -> [String] {
        let columns = familyColumns(of: root, in: model)
        let table = root.tableName
        let definitions = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"] + columns.map { "\($0.name) \($0.type)" }
        var sql = ["CREATE TABLE IF NOT EXISTS \(table) (\(definitions.joined(separator: ", ")))"]
        for column in columns where column.isToOne {
            sql.append("CREATE INDEX IF NOT EXISTS \(table)_\(column.name)_INDEX ON \(table) (\(column.name))")
        }
        if root.family.sharesTable {
            sql.append("CREATE INDEX IF NOT EXISTS \(table)_Z_ENT_INDEX ON \(table) (Z_ENT)")
        }
        for entity in model.entities where entity.family.root == root.index {
            for constraint in entity.constraints where constraint.declaringEntity == entity.index {
                sql.append(constraint.indexStatement(table: table))
            }
        }
        return sql
    }

    /// The columns of a root entity's table after `Z_PK, Z_ENT, Z_OPT`: every slot of the entity and its
    /// sub-entities, then the companions of to-ones into entities with sub-entities.
    static func familyColumns(of root: EntityInfo, in model: Model) -> [(name: String, type: String, isToOne: Bool)] {
        var result: [(name: String, type: String, isToOne: Bool)] = []
        var seen: Set<String> = []
        let family = model.entities.filter { $0.family.root == root.index }
        for entity in family {
            for slot in entity.slots where seen.insert(slot.column).inserted {
                switch slot.kind {
                case .attribute(let type): result.append((slot.column, type.sqlType, false))
                case .toOne: result.append((slot.column, "INTEGER", true))
                }
            }
        }
        for entity in family {
            for companion in entity.family.companions where seen.insert(companion.column).inserted {
                result.append((companion.column, "INTEGER", false))
            }
        }
        for order in orderColumns(of: model) where order.table == root.tableName && seen.insert(order.column).inserted {
            result.append((order.column, "INTEGER", false))
        }
        return result
    }

    /// A many-to-many relationship's join table, keyed by both columns, and its reverse index.
    static func joinTableStatements(table: String, _ owner: String, _ target: String, orderColumns: [String] = []) -> [String] {
        let (a, b) = owner < target ? (owner, target) : (target, owner)
        let order = orderColumns.map { ", \($0) INTEGER" }.joined()
        return ["CREATE TABLE IF NOT EXISTS \(table) (\(a) INTEGER, \(b) INTEGER\(order), PRIMARY KEY (\(a), \(b)))",
                "CREATE INDEX IF NOT EXISTS \(table)_\(b)_INDEX ON \(table) (\(b), \(a))"]
    }

    /// Creates the schema when the file is new, or checks the model hashes; runs in one IMMEDIATE
    /// transaction so processes opening the store together agree.
    static func prepare(_ db: SQLiteConnection, model: Model, options: StoreOptions) throws(StoreError) -> Metadata {
        do {
            let migrated = try db.tableExists("Z_METADATA") ? try migrateIfNeeded(db, to: model, options: options) : 0
            var metadata = try prepared(db, model: model, options: options)
            metadata.rowsMigrated = migrated
            return metadata
        } catch {
            throw StoreError.wrap(error)
        }
    }

    /// `prepare` once the store is of `model`.
    private static func prepared(_ db: SQLiteConnection, model: Model, options: StoreOptions) throws -> Metadata {
        let historyTracking = options.historyTracking
        // An existing store that needs nothing written opens with a read: opening it takes no write
        // lock, so a process can launch while another holds one (as Core Data adds such a store).
        if try db.tableExists("Z_METADATA") {
            let metadata = try check(db, model: model)
            let historyReady = historyTracking && metadata.historyTracked ? try HistorySchema.isReady(db, model: model) : false
            if !historyTracking || historyReady { return metadata }
        }
        return try db.writeTransaction {
            if try db.tableExists("Z_METADATA") {
                let metadata = try check(db, model: model)
                if historyTracking { try HistorySchema.create(db, model: model) }
                return Metadata(storeIdentifier: metadata.storeIdentifier,
                                historyTracked: historyTracking || metadata.historyTracked)
            }
            for statement in createStatements(for: model) { try db.execute(statement) }
            for entity in model.entities {
                try db.cached("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)")
                    .run([.int(entity.entityNumber), .string(entity.name), .int(model.superNumber(of: entity))])
            }
            let identifier = UUID().uuidString
            let insert = try db.cached("INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)")
            try insert.bind([.string(identifier)])
            try insert.bind(StoreMetadata.encode(model), at: 2)
            while try insert.step() {}
            try writeModelCache(db, model)
            if historyTracking { try HistorySchema.create(db, model: model) }
            return Metadata(storeIdentifier: identifier, historyTracked: historyTracking)
        }
    }

    /// `Z_MODELCACHE`'s one row: the model, as JSON.
    static func writeModelCache(_ db: SQLiteConnection, _ model: Model) throws(SQLiteError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let content = (try? encoder.encode(model.modelDescription)) ?? Data()
        try db.execute("DELETE FROM Z_MODELCACHE")
        let insert = try db.cached("INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)")
        insert.reset()
        try insert.bind(content, at: 1)
        while try insert.step() {}
    }

    /// Reads the metadata of an existing store (no writes), checking that `model` fits it.
    static func check(_ db: SQLiteConnection, model: Model) throws(StoreError) -> Metadata {
        do {
            let statement = try db.cached("SELECT Z_UUID FROM Z_METADATA WHERE Z_VERSION = 1")
            defer { statement.reset() }
            guard try statement.step(), let identifier = statement.string(at: 0) else {
                throw StoreError.modelMismatch(path: db.path, storeHash: "(no metadata)", modelHash: model.versionHash)
            }
            let metadata = try storeMetadata(db)
            guard try fits(db, model: model, metadata: metadata) else {
                throw StoreError.modelMismatch(path: db.path, storeHash: metadata?.digest ?? "(none)", modelHash: model.versionHash)
            }
            let tracked = try db.scalarInt("SELECT count(*) FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [.int(HistorySchema.transactionEntity)]) ?? 0
            return Metadata(storeIdentifier: identifier, historyTracked: tracked > 0)
        } catch {
            throw StoreError.wrap(error)
        }
    }

    /// Whether `model` is the store's: its entity hashes match; or, for a store Core Data wrote (whose
    /// hashes SharedStore cannot compute), its schema has every table and column the model needs, with
    /// the model's entity numbers.
    static func fits(_ db: SQLiteConnection, model: Model, metadata: StoreMetadata?) throws(SQLiteError) -> Bool {
        if let metadata {
            if metadata.digest == model.versionHash { return true }
            guard !metadata.writtenByGroupSim else { return false }
        }
        // Core Data's (or unreadable) metadata: the schema decides.
        return try schemaHolds(db, model)
    }

    /// Whether the store's tables hold `model`: each entity's table with its columns and its
    /// `Z_PRIMARYKEY` row under the model's number, and each join table.
    static func schemaHolds(_ db: SQLiteConnection, _ model: Model) throws(SQLiteError) -> Bool {
        try schemaProblem(db, model) == nil
    }

    /// What of `model` the store's tables lack, as a sentence; nil when they hold it all.
    static func schemaProblem(_ db: SQLiteConnection, _ model: Model) throws(SQLiteError) -> String? {
        for entity in model.entities {
            let superNumber = model.superNumber(of: entity)
            if let stored = try db.scalarInt("SELECT ifnull(Z_SUPER, 0) FROM Z_PRIMARYKEY WHERE Z_ENT = ? AND Z_NAME = ?",
                                             [.int(entity.entityNumber), .string(entity.name)]), stored != superNumber {
                let model = entity.family.parent.map { "a sub-entity of \(model.entities[$0].name) (\(superNumber))" } ?? "a root entity (0)"
                return "Z_PRIMARYKEY's row \(entity.entityNumber) \(entity.name) has Z_SUPER \(stored), and the model makes it \(model)"
            }
            guard try db.scalarInt("SELECT count(*) FROM Z_PRIMARYKEY WHERE Z_ENT = ? AND Z_NAME = ? AND ifnull(Z_SUPER, 0) = ?",
                                   [.int(entity.entityNumber), .string(entity.name), .int(superNumber)]) == 1 else {
                let parent = entity.family.parent.map { " under \(model.entities[$0].name) (Z_SUPER \(model.superNumber(of: entity)))" } ?? ""
                return "Z_PRIMARYKEY has no row \(entity.entityNumber) for \(entity.name)\(parent) (SharedStore numbers entities from 1 in "
                    + "alphabetical order\(model.hasInheritance ? ", each root followed by its sub-entities" : ""))"
            }
            let columns = try db.columnTypes(of: entity.tableName)
            guard !columns.isEmpty else { return "there is no table \(entity.tableName) for \(entity.name)" }
            let expected = ["Z_PK", "Z_ENT", "Z_OPT"] + entity.slots.map(\.column) + entity.family.companions.map(\.column)
            for column in expected where columns[column] == nil {
                return "\(entity.tableName) has no column \(column) for \(entity.name)"
            }
            if entity.family.isAbstract,
               try db.scalarInt("SELECT count(*) FROM \(entity.tableName) WHERE Z_ENT = ?", [.int(entity.entityNumber)]) ?? 0 > 0 {
                return "\(entity.tableName) holds rows of \(entity.name), which the model makes abstract"
            }
            // A column the model could name and does not is another version's property: the model is not
            // the store's (an older version would otherwise open a newer store). Columns the scenario
            // language cannot describe (data, transformables, odd names) are the store's own business.
            let root = model.entities[entity.family.root]
            let known = Set(expected + familyColumns(of: root, in: model).map(\.name))
            for (column, type) in columns.sorted(by: { $0.key < $1.key }) where !known.contains(column) && isDescribable(column, type) {
                return "\(entity.tableName) has a column \(column) that \(root.name) in the model does not have"
            }
            for relationship in entity.relationships {
                if let order = relationship.orderColumn, let table = model.orderTable(of: relationship) {
                    guard try db.columns(of: table).contains(order) else {
                        return "\(table) has no column \(order) for the order of \(entity.name).\(relationship.name) (the model makes it ordered)"
                    }
                }
                guard case .joinTable(let table, let owner, let target) = relationship.storage else { continue }
                let joined = try db.columns(of: table)
                guard joined.contains(owner), joined.contains(target) else {
                    return "there is no join table \(table) (\(owner), \(target)) for \(entity.name).\(relationship.name)"
                }
            }
        }
        return nil
    }

    /// Whether a model could hold the column: `Z` and an identifier (not `Z_...` nor a `Z<n>_` companion),
    /// of a type the model language has.
    private static func isDescribable(_ column: String, _ type: String) -> Bool {
        let name = column.dropFirst().lowercased()
        guard column.hasPrefix("Z"), name.first?.isLetter == true, PropertySyntax.isIdentifier(name) else { return false }
        return ["INTEGER", "FLOAT", "DECIMAL", "TIMESTAMP", "VARCHAR"].contains(type)
    }

    /// Why the store at `path` is only read unless a process asks to write it: Core Data wrote it (its
    /// metadata has no mark of SharedStore's). Nil for a store SharedStore made, a new file, or a file it
    /// cannot tell (opening it proper reports what is wrong). Looked at through a read-only connection.
    static func foreignStoreReason(at path: String) -> String? {
        guard FileManager.default.fileExists(atPath: path),
              let db = try? SQLiteConnection(path: path, readOnly: true, walMode: false) else { return nil }
        defer { db.close() }
        guard (try? db.tableExists("Z_METADATA")) == true, (try? storeMetadata(db))?.writtenByGroupSim != true else { return nil }
        return "the store was written by Core Data, and SharedStore only reads such a store unless asked to write it "
            + "(StoreOptions.writesForeignStores)"
    }

    /// The store's `Z_METADATA.Z_PLIST`, decoded; `nil` without one.
    static func storeMetadata(_ db: SQLiteConnection) throws(SQLiteError) -> StoreMetadata? {
        let statement = try db.cached("SELECT Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1")
        defer { statement.reset() }
        guard try statement.step(), let data = statement.data(at: 0) else { return nil }
        return StoreMetadata.decode(data)
    }

    /// The version digest of the model the store was made with or last migrated to (`nil` without metadata).
    static func modelHash(_ db: SQLiteConnection) throws(SQLiteError) -> String? {
        try storeMetadata(db)?.digest
    }

    /// Migrates a store made with one of `options.previousModels` to `model` (Core Data's automatic
    /// lightweight migration), in one write transaction; does nothing for a store `model` fits.
    /// - Throws: `.modelMismatch` for a store of a model this process does not know (a newer one);
    ///   `.migrationRequired` when `options.migratesAutomatically` is off; `.sqlite` (busy) when another
    ///   process holds the write lock past the busy timeout; `.migrationFailed` for a change a lightweight
    ///   migration cannot infer.
    /// - Returns: the rows the migration rewrote (`StoreMigration.run`), 0 when the store fit.
    static func migrateIfNeeded(_ db: SQLiteConnection, to model: Model, options: StoreOptions) throws -> Int {
        let metadata = try storeMetadata(db)
        guard try !fits(db, model: model, metadata: metadata) else { return 0 }
        let storeHash = metadata?.digest ?? "(none)"
        // A store Core Data wrote carries hashes SharedStore cannot compute: its version is the earlier one
        // whose schema it holds.
        let foreign = !(metadata?.writtenByGroupSim ?? false)
        var source = options.previousModels.first { $0.versionHash == storeHash }
        if source == nil, foreign {
            for previous in options.previousModels.reversed() where try schemaHolds(db, previous) {
                source = previous
                break
            }
        }
        guard let source else {
            throw StoreError.modelMismatch(path: db.path, storeHash: storeHash, modelHash: model.versionHash)
        }
        guard options.migratesAutomatically, !options.readOnly else {
            throw StoreError.migrationRequired(path: db.path, storeHash: storeHash, modelHash: model.versionHash)
        }
        return try db.writeTransaction {
            // Another process may have migrated it while this one waited for the lock.
            guard try (modelHash(db) ?? "(none)") == storeHash else { return 0 }
            let rows = try StoreMigration(source: source, destination: model).run(on: db)
            let update = try db.cached("UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = 1")
            update.reset()
            try update.bind(StoreMetadata.encode(model), at: 1)
            while try update.step() {}
            if try db.tableExists("Z_MODELCACHE") { try writeModelCache(db, model) }
            if try db.tableExists("ACHANGE") { try HistorySchema.create(db, model: model) }
            return rows
        }
    }

    /// A value of `GROUPSIM_META`; `nil` when unset (or the store has no such table: Core Data wrote it).
    static func meta(_ db: SQLiteConnection, _ key: String) throws(SQLiteError) -> Value? {
        guard try db.tableExists(metaTable) else { return nil }
        let statement = try db.cached("SELECT VALUE FROM \(metaTable) WHERE NAME = ?")
        try statement.bind([.string(key)])
        defer { statement.reset() }
        return try statement.step() ? statement.value(at: 0) : nil
    }

    /// Sets a value of `GROUPSIM_META` (made first in a store Core Data wrote), inside the caller's write.
    static func setMeta(_ db: SQLiteConnection, _ key: String, _ value: Value) throws(SQLiteError) {
        try db.execute("CREATE TABLE IF NOT EXISTS \(metaTable) (NAME VARCHAR PRIMARY KEY, VALUE)")
        try db.cached("INSERT OR REPLACE INTO \(metaTable) (NAME, VALUE) VALUES (?, ?)").run([.string(key), value])
    }
}
