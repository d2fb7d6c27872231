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
/// - a relationship whose storage changes (its inverse added or removed, a to-one made to-many, a join
///   table renamed by renumbering) keeps the objects it held: they are read from the old storage and
///   written to the new before anything is dropped;
/// - entities are renumbered (Core Data numbers them alphabetically): `Z_ENT` in their rows, in
///   `Z_PRIMARYKEY`, in history's `ZENTITY` and in the sync tables follows; history of a removed entity is
///   kept under entity 0, which no model has.
/// What it cannot infer fails with `StoreError.migrationFailed` and leaves the store as it was: an
/// attribute whose type changed, a property that changed between attribute and relationship, a to-many
/// made to-one, a relationship that points at another entity.
struct StoreMigration {
    let source: Model
    let destination: Model

    /// Runs the migration on `db`, which must be inside a write transaction.
    /// - Returns: the rows it rewrote: those its statements changed, and each row of a table it dropped a
    ///   column of (SQLite rewrites the table, which its count of changes does not show).
    func run(on db: SQLiteConnection) throws -> Int {
        let before = db.totalChanges
        try checkInferable()
        let retired = try retireChangingJoinTables(on: db)
        let renumbered = try addTablesAndColumns(on: db)
        try createJoinTables(on: db)
        // A to-many made ordered gains its order keys, empty: its members keep their key order until reordered.
        try StoreSchema.addMissingOrderColumns(db, model: destination)
        try carryRelationships(retired: retired, on: db)
        let dropped = try dropWhatIsGone(retired: retired, on: db)
        try rewritePrimaryKeyTable(on: db)
        if !renumbered.isEmpty { try renumberReferences(renumbered, on: db) }
        return db.totalChanges - before + dropped
    }

    // MARK: What can be inferred

    private func checkInferable() throws {
        // Sub-entities share their root's table: moving rows and columns between families is not built.
        if source.modelDescription.hasInheritance || destination.modelDescription.hasInheritance {
            throw StoreError.migrationFailed(reason: "one of the models has sub-entities, and SharedStore does not migrate "
                + "stores with entity inheritance yet")
        }
        for entity in destination.entities {
            guard let oldIndex = source.entityIndex[entity.name] else { continue }
            let old = source.entities[oldIndex]
            for slot in entity.slots {
                guard let oldSlot = old.slotIndex[slot.name].map({ old.slots[$0] }) else { continue }
                switch (oldSlot.kind, slot.kind) {
                case let (.attribute(was), .attribute(now)) where was != now:
                    throw StoreError.migrationFailed(reason: "\(entity.name).\(slot.name) was a \(was) and is a \(now): "
                        + "a lightweight migration cannot infer a type change (it needs a mapping model)")
                case (.attribute, .toOne), (.toOne, .attribute):
                    throw StoreError.migrationFailed(reason: "\(entity.name).\(slot.name) changed between attribute and "
                        + "relationship: a lightweight migration cannot infer that")
                default: break
                }
            }
            for relationship in entity.relationships {
                if let oldSlot = old.slotIndex[relationship.name].map({ old.slots[$0] }), oldSlot.attributeType != nil {
                    throw StoreError.migrationFailed(reason: "\(entity.name).\(relationship.name) changed between attribute and "
                        + "relationship: a lightweight migration cannot infer that")
                }
                guard let was = old.relationshipIndex[relationship.name].map({ old.relationships[$0] }) else { continue }
                if was.isToMany, !relationship.isToMany {
                    throw StoreError.migrationFailed(reason: "\(entity.name).\(relationship.name) was a to-many and is a to-one: "
                        + "a lightweight migration infers the other way only")
                }
                if source.entities[was.destination].name != destination.entities[relationship.destination].name {
                    throw StoreError.migrationFailed(reason: "\(entity.name).\(relationship.name) pointed at "
                        + "\(source.entities[was.destination].name) and points at \(destination.entities[relationship.destination].name): "
                        + "a lightweight migration cannot infer that")
                }
            }
        }
    }

    // MARK: Join tables, entities and columns

    /// Renames every source join table that the destination does not keep as it is (its name or columns
    /// change with the entity numbers, or its relationship's storage changes), so that a new table can take
    /// its name; returns old name -> the name it has now.
    private func retireChangingJoinTables(on db: SQLiteConnection) throws -> [String: String] {
        let kept = Set(Self.joinTables(of: destination).map { "\($0.table)|\($0.owner)|\($0.target)" })
        var retired: [String: String] = [:]
        for join in Self.joinTables(of: source) where !kept.contains("\(join.table)|\(join.owner)|\(join.target)") {
            guard retired[join.table] == nil else { continue }
            let (_, second) = join.owner < join.target ? (join.owner, join.target) : (join.target, join.owner)
            try db.execute("DROP INDEX IF EXISTS \(join.table)_\(second)_INDEX")
            try db.execute("ALTER TABLE \(join.table) RENAME TO \(join.table)_GSRETIRED")
            retired[join.table] = "\(join.table)_GSRETIRED"
        }
        return retired
    }

    /// Creates the added entities' tables and the added columns; returns the kept entities whose number
    /// changed (old -> new) and removed ones (old -> 0).
    private func addTablesAndColumns(on db: SQLiteConnection) throws -> [Int64: Int64] {
        var renumbered: [Int64: Int64] = [:]
        for old in source.entities where destination.entityIndex[old.name] == nil { renumbered[old.entityNumber] = 0 }
        for entity in destination.entities {
            guard let oldIndex = source.entityIndex[entity.name] else {
                for statement in StoreSchema.tableStatements(for: entity, in: destination) { try db.execute(statement) }
                continue
            }
            let old = source.entities[oldIndex]
            let table = entity.tableName
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
                if oldSlot.isOptional, !slot.isOptional, slot.defaultValue != .null {
                    try db.cached("UPDATE \(table) SET \(slot.column) = ? WHERE \(slot.column) IS NULL").run([slot.defaultValue])
                }
            }
            if old.entityNumber != entity.entityNumber {
                try db.cached("UPDATE \(table) SET Z_ENT = ?").run([.int(entity.entityNumber)])
                renumbered[old.entityNumber] = entity.entityNumber
            }
        }
        try replaceConstraintIndexes(on: db)
        return renumbered
    }

    /// Drops the unique indexes of constraints the destination no longer has and creates its own: rows that
    /// already break a new constraint fail the migration (`SQLITE_CONSTRAINT`), as they would Core Data's.
    private func replaceConstraintIndexes(on db: SQLiteConnection) throws {
        let kept = Set(destination.entities.flatMap { $0.constraints.map(\.indexName) })
        for entity in source.entities {
            for constraint in entity.constraints where !kept.contains(constraint.indexName) {
                try db.execute("DROP INDEX IF EXISTS \(constraint.indexName)")
            }
        }
        for entity in destination.entities {
            for constraint in entity.constraints where constraint.declaringEntity == entity.index {
                try db.execute(constraint.indexStatement(table: entity.tableName))
            }
        }
    }

    private func createJoinTables(on db: SQLiteConnection) throws {
        var created: Set<String> = []
        for join in Self.joinTables(of: destination) where created.insert(join.table).inserted {
            for statement in StoreSchema.joinTableStatements(table: join.table, join.owner, join.target,
                                                             orderColumns: StoreSchema.orderColumns(of: destination, in: join.table)) {
                try db.execute(statement)
            }
        }
    }

    /// For every relationship in both models whose storage changed: the pairs (owner key, destination key)
    /// it held, read from the old storage and written to the new one.
    private func carryRelationships(retired: [String: String], on db: SQLiteConnection) throws {
        for entity in destination.entities {
            guard let oldIndex = source.entityIndex[entity.name] else { continue }
            let old = source.entities[oldIndex]
            for relationship in entity.relationships {
                guard let was = old.relationshipIndex[relationship.name].map({ old.relationships[$0] }) else { continue }
                let from = pairs(of: was, in: old, model: source, retired: retired)
                let to = location(of: relationship, in: entity, model: destination)
                guard from.location != to else { continue }
                let with = "WITH pairs(e, d) AS (\(from.select)) "
                switch relationship.storage {
                case .foreignKey(let slot):
                    let (table, column) = (entity.tableName, entity.slots[slot].column)
                    try db.execute(with + "UPDATE \(table) SET \(column) = (SELECT d FROM pairs WHERE e = \(table).Z_PK LIMIT 1) "
                        + "WHERE Z_PK IN (SELECT e FROM pairs)")
                case .inverseForeignKey(let slot):
                    let target = destination.entities[relationship.destination]
                    let (table, column) = (target.tableName, target.slots[slot].column)
                    try db.execute(with + "UPDATE \(table) SET \(column) = (SELECT e FROM pairs WHERE d = \(table).Z_PK LIMIT 1) "
                        + "WHERE Z_PK IN (SELECT d FROM pairs)")
                case .joinTable(let table, let owner, let target):
                    try db.execute(with + "INSERT OR IGNORE INTO \(table) (\(owner), \(target)) SELECT e, d FROM pairs")
                }
            }
        }
    }

    /// Where a relationship's pairs are kept, as a comparable string, and a SELECT of them as (e, d).
    private func pairs(of relationship: RelationshipInfo, in entity: EntityInfo, model: Model, retired: [String: String])
        -> (location: String, select: String)
    {
        switch relationship.storage {
        case .foreignKey(let slot):
            let column = entity.slots[slot].column
            return ("fk:\(entity.tableName).\(column)",
                    "SELECT Z_PK, \(column) FROM \(entity.tableName) WHERE \(column) IS NOT NULL")
        case .inverseForeignKey(let slot):
            let target = model.entities[relationship.destination]
            let column = target.slots[slot].column
            return ("fk:\(target.tableName).\(column)",
                    "SELECT \(column), Z_PK FROM \(target.tableName) WHERE \(column) IS NOT NULL")
        case .joinTable(let table, let owner, let target):
            // A retired table is read under its new name; its location stays the old one, which the
            // destination does not use any more.
            return ("join:\(table)|\(owner)|\(target)", "SELECT \(owner), \(target) FROM \(retired[table] ?? table)")
        }
    }

    private func location(of relationship: RelationshipInfo, in entity: EntityInfo, model: Model) -> String {
        switch relationship.storage {
        case .foreignKey(let slot): "fk:\(entity.tableName).\(entity.slots[slot].column)"
        case .inverseForeignKey(let slot):
            "fk:\(model.entities[relationship.destination].tableName).\(model.entities[relationship.destination].slots[slot].column)"
        case .joinTable(let table, let owner, let target): "join:\(table)|\(owner)|\(target)"
        }
    }

    /// Drops what the destination has not: columns, entity tables, the retired join tables and the join
    /// tables of removed relationships.
    /// - Returns: the rows of the tables a column was dropped from, once per column.
    private func dropWhatIsGone(retired: [String: String], on db: SQLiteConnection) throws -> Int {
        var rewritten = 0
        for old in source.entities {
            guard let newIndex = destination.entityIndex[old.name] else {
                try db.execute("DROP TABLE IF EXISTS \(old.tableName)")
                continue
            }
            let entity = destination.entities[newIndex]
            for slot in old.slots where entity.slotIndex[slot.name] == nil {
                if slot.attributeType == nil { try db.execute("DROP INDEX IF EXISTS \(old.tableName)_\(slot.column)_INDEX") }
                rewritten += Int(try db.scalarInt("SELECT count(*) FROM \(old.tableName)") ?? 0)
                try db.execute("ALTER TABLE \(old.tableName) DROP COLUMN \(slot.column)")
            }
        }
        for name in retired.values.sorted() { try db.execute("DROP TABLE IF EXISTS \(name)") }
        return rewritten
    }

    /// Every join table of a model, once each: its name and the two columns (owner side, target side) as
    /// the first relationship that uses it sees them.
    static func joinTables(of model: Model) -> [(table: String, owner: String, target: String)] {
        var seen: Set<String> = []
        var result: [(table: String, owner: String, target: String)] = []
        for entity in model.entities {
            for relationship in entity.relationships {
                guard case .joinTable(let table, let owner, let target) = relationship.storage,
                      seen.insert(table).inserted else { continue }
                result.append((table, owner, target))
            }
        }
        return result
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
        for table in ["GROUPSIM_SYNCOBJECT", "GROUPSIM_SYNCSTAMP", "GROUPSIM_SYNCTOMBSTONE", "GROUPSIM_SYNCPENDINGREF"] where try db.tableExists(table) {
            if !removed.isEmpty { try db.execute("DELETE FROM \(table) WHERE ZENT IN (\(removed))") }
            guard !moved.isEmpty else { continue }
            try db.execute("UPDATE \(table) SET ZENT = CASE ZENT \(movedCases) END WHERE ZENT IN (\(movedKeys))")
            try db.execute("UPDATE \(table) SET ZENT = -ZENT WHERE ZENT < 0")
        }
    }
}
