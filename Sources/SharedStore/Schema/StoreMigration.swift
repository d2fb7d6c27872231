import Basics

/// Core Data's lightweight migration of a SQLite store, in place: the mapping inferred from the source
/// and destination models, carried out "solely by issuing SQL statements" in one write transaction, as
/// Apple's *Core Data Model Versioning and Data Migration Programming Guide* describes for an inferred
/// mapping and a SQLite store.
///
/// What it infers, by entity and property name (no renaming identifiers):
/// - an added entity gets its table and its `Z_PRIMARYKEY` row; a removed one loses both;
/// - an added attribute or to-one gets its column, filled with the attribute's default (null when it has
///   none); a removed one loses its column;
/// - an attribute that was optional and is not any more gets its default where the row held null;
/// - entities are renumbered (Core Data numbers them alphabetically): `Z_ENT` in their rows, in
///   `Z_PRIMARYKEY`, in history's `ZENTITY` and in the sync tables follows, and so do join tables named
///   after the numbers; history of a removed entity is kept under entity 0, which no model has.
/// What it cannot infer fails with `StoreError.migrationFailed` and leaves the store as it was: an
/// attribute whose type changed, a property that changed between attribute, to-one and to-many, a to-one
/// that points at another entity.
struct StoreMigration {
    let source: Model
    let destination: Model

    /// Runs the migration on `db`, which must be inside a write transaction.
    func run(on db: SQLiteConnection) throws {
        let renumbered = try migrateEntities(on: db)
        try migrateJoinTables(on: db)
        try rewritePrimaryKeyTable(on: db)
        if !renumbered.isEmpty { try renumberReferences(renumbered, on: db) }
    }

    // MARK: Entities and columns

    /// Creates, drops and alters the entity tables; returns the kept entities whose number changed.
    private func migrateEntities(on db: SQLiteConnection) throws -> [Int64: Int64] {
        var renumbered: [Int64: Int64] = [:]
        for old in source.entities where destination.entityIndex[old.name] == nil {
            try db.execute("DROP TABLE IF EXISTS \(old.tableName)")
            renumbered[old.entityNumber] = 0
        }
        for entity in destination.entities {
            guard let oldIndex = source.entityIndex[entity.name] else {
                for statement in StoreSchema.tableStatements(for: entity) { try db.execute(statement) }
                continue
            }
            let old = source.entities[oldIndex]
            try migrateColumns(from: old, to: entity, on: db)
            if old.entityNumber != entity.entityNumber {
                try db.cached("UPDATE \(entity.tableName) SET Z_ENT = ?").run([.int(entity.entityNumber)])
                renumbered[old.entityNumber] = entity.entityNumber
            }
        }
        return renumbered
    }

    private func migrateColumns(from old: EntityInfo, to entity: EntityInfo, on db: SQLiteConnection) throws {
        let table = entity.tableName
        for slot in old.slots where entity.slotIndex[slot.name] == nil {
            if slot.attributeType == nil { try db.execute("DROP INDEX IF EXISTS \(table)_\(slot.column)_INDEX") }
            try db.execute("ALTER TABLE \(table) DROP COLUMN \(slot.column)")
        }
        for slot in entity.slots {
            guard let oldSlot = old.slotIndex[slot.name].map({ old.slots[$0] }) else {
                switch slot.kind {
                case .attribute(let type):
                    try db.execute("ALTER TABLE \(table) ADD COLUMN \(slot.column) \(type.sqlType)")
                    if slot.defaultValue != .null {
                        try db.cached("UPDATE \(table) SET \(slot.column) = ?").run([slot.defaultValue])
                    }
                case .toOne:
                    try db.execute("ALTER TABLE \(table) ADD COLUMN \(slot.column) INTEGER")
                    try db.execute("CREATE INDEX IF NOT EXISTS \(table)_\(slot.column)_INDEX ON \(table) (\(slot.column))")
                }
                continue
            }
            try checkInferable(oldSlot, slot, of: entity, old: old)
            if oldSlot.isOptional, !slot.isOptional, slot.defaultValue != .null {
                try db.cached("UPDATE \(table) SET \(slot.column) = ? WHERE \(slot.column) IS NULL").run([slot.defaultValue])
            }
        }
        // A to-many in one version and an attribute or to-one in the other.
        for relationship in entity.relationships where relationship.isToMany && old.slotIndex[relationship.name] != nil {
            throw StoreError.migrationFailed(reason: "\(entity.name).\(relationship.name) is a to-one or an attribute in the store's model "
                + "and a to-many in this one: a lightweight migration cannot infer that")
        }
        for relationship in old.relationships where relationship.isToMany && entity.slotIndex[relationship.name] != nil {
            throw StoreError.migrationFailed(reason: "\(entity.name).\(relationship.name) is a to-many in the store's model "
                + "and a to-one or an attribute in this one: a lightweight migration cannot infer that")
        }
    }

    private func checkInferable(_ oldSlot: Slot, _ slot: Slot, of entity: EntityInfo, old: EntityInfo) throws {
        switch (oldSlot.kind, slot.kind) {
        case let (.attribute(was), .attribute(now)) where was != now:
            throw StoreError.migrationFailed(reason: "\(entity.name).\(slot.name) was a \(was) and is a \(now): "
                + "a lightweight migration cannot infer a type change (it needs a mapping model)")
        case let (.toOne(was), .toOne(now)) where source.entities[was].name != destination.entities[now].name:
            throw StoreError.migrationFailed(reason: "\(entity.name).\(slot.name) pointed at \(source.entities[was].name) "
                + "and points at \(destination.entities[now].name): a lightweight migration cannot infer that")
        case (.attribute, .toOne), (.toOne, .attribute):
            throw StoreError.migrationFailed(reason: "\(entity.name).\(slot.name) changed between attribute and relationship: "
                + "a lightweight migration cannot infer that")
        default:
            return
        }
    }

    // MARK: Join tables

    /// Creates the destination's join tables, moving the rows of a table whose name or columns changed
    /// (entity numbers are part of them), and drops the source's tables nothing uses any more.
    private func migrateJoinTables(on db: SQLiteConnection) throws {
        var kept: Set<String> = []
        for entity in destination.entities {
            for relationship in entity.relationships {
                guard case .joinTable(let table, let owner, let target) = relationship.storage,
                      kept.insert(table).inserted else { continue }
                for statement in StoreSchema.joinTableStatements(table: table, owner, target) { try db.execute(statement) }
                guard let oldEntity = source.entityIndex[entity.name].map({ source.entities[$0] }),
                      let oldRelationship = oldEntity.relationshipIndex[relationship.name].map({ oldEntity.relationships[$0] }),
                      case .joinTable(let oldTable, let oldOwner, let oldTarget) = oldRelationship.storage,
                      (oldTable, oldOwner, oldTarget) != (table, owner, target)
                else { continue }
                try db.execute("INSERT OR IGNORE INTO \(table) (\(owner), \(target)) SELECT \(oldOwner), \(oldTarget) FROM \(oldTable)")
            }
        }
        for entity in source.entities {
            for relationship in entity.relationships {
                guard case .joinTable(let table, _, _) = relationship.storage, !kept.contains(table) else { continue }
                try db.execute("DROP TABLE IF EXISTS \(table)")
                kept.insert(table)
            }
        }
    }

    // MARK: Numbers

    /// One row per destination entity, keeping each kept entity's `Z_MAX`.
    private func rewritePrimaryKeyTable(on db: SQLiteConnection) throws {
        var maxima: [String: Int64] = [:]
        let statement = try db.prepare("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY")
        while try statement.step() {
            if let name = statement.string(at: 0) { maxima[name] = statement.int64(at: 1) }
        }
        try db.execute("DELETE FROM Z_PRIMARYKEY WHERE Z_ENT < 16000")
        for entity in destination.entities {
            try db.cached("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, 0, ?)")
                .run([.int(entity.entityNumber), .string(entity.name), .int(maxima[entity.name] ?? 0)])
        }
    }

    /// Entity numbers held outside the entity tables: history's `ZENTITY` (a removed entity's become 0),
    /// the sync tables' `ZENT` (a removed entity's rows go). Sync tables key on the number, so they move
    /// through negative numbers: a swap of two numbers never meets itself half-done.
    private func renumberReferences(_ renumbered: [Int64: Int64], on db: SQLiteConnection) throws {
        let pairs = renumbered.sorted { $0.key < $1.key }
        let cases = pairs.map { "WHEN \($0.key) THEN \($0.value)" }.joined(separator: " ")
        if try db.tableExists("ACHANGE") {
            try db.execute("UPDATE ACHANGE SET ZENTITY = CASE ZENTITY \(cases) ELSE ZENTITY END")
        }
        let removed = pairs.filter { $0.value == 0 }.map { String($0.key) }.joined(separator: ", ")
        let moved = pairs.filter { $0.value != 0 }
        let movedCases = moved.map { "WHEN \($0.key) THEN \(-$0.value)" }.joined(separator: " ")
        let movedKeys = moved.map { String($0.key) }.joined(separator: ", ")
        for table in ["ZSYNCOBJECT", "ZSYNCSTAMP", "ZSYNCTOMBSTONE", "ZSYNCPENDINGREF"] where try db.tableExists(table) {
            if !removed.isEmpty { try db.execute("DELETE FROM \(table) WHERE ZENT IN (\(removed))") }
            guard !moved.isEmpty else { continue }
            try db.execute("UPDATE \(table) SET ZENT = CASE ZENT \(movedCases) END WHERE ZENT IN (\(movedKeys))")
            try db.execute("UPDATE \(table) SET ZENT = -ZENT WHERE ZENT < 0")
        }
    }
}
