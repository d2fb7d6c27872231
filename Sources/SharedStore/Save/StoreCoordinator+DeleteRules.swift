import Basics

/// A row of a store: its family's table and primary key (keys are unique per table only, so a batch that
/// reaches several entities tells rows apart by both).
struct TableRow: Hashable {
    let table: String
    let key: Int64

    init(_ entity: EntityInfo, _ key: Int64) {
        table = entity.tableName
        self.key = key
    }
}

/// What one batch delete removes and changes: the rows it deletes (those its predicate matched, then those
/// cascading relationships reach) and the rows on the other side of their relationships, which lose them.
struct BatchDeletion {
    /// The rows deleted, in the order they were found, each with its own entity.
    private(set) var deleted: [(Int64, EntityInfo)] = []
    /// The rows not deleted whose relationships held a deleted row: updated by the batch.
    private(set) var touched: [(Int64, EntityInfo)] = []
    private(set) var updated: Set<TableRow> = []
    /// What history keeps of each deleted row (its attributes marked to be preserved on deletion).
    private(set) var tombstones: [TableRow: [String: Value]] = [:]
    private var deletedRows: Set<TableRow> = []
    /// Foreign keys to clear: the table, the column, and the deleted row's key it holds.
    private var cleared: [(table: String, column: String, key: Int64)] = []
    /// The relationships of the touched rows that changed, for history's changed columns.
    private var changedRelationships: [String] = []

    func isDeleted(_ key: Int64, _ entity: EntityInfo) -> Bool {
        deletedRows.contains(TableRow(entity, key))
    }

    /// Adds a row to delete, with its attribute values; false when it is deleted already.
    @discardableResult
    mutating func delete(_ key: Int64, _ entity: EntityInfo, values: [Value]) -> Bool {
        let row = TableRow(entity, key)
        guard deletedRows.insert(row).inserted else { return false }
        deleted.append((key, entity))
        tombstones[row] = HistoryRecorder.tombstone(entity, values)
        return true
    }

    /// Marks a row whose `relationship` lost a deleted row as updated, unless it is deleted itself.
    mutating func touch(_ key: Int64, _ entity: EntityInfo, relationship: String?) {
        let row = TableRow(entity, key)
        guard !deletedRows.contains(row) else { return }
        if let relationship, !changedRelationships.contains(relationship) { changedRelationships.append(relationship) }
        if updated.insert(row).inserted { touched.append((key, entity)) }
    }

    /// Clears `column` of `table` wherever it holds `key` (a to-one pointing at a deleted row).
    mutating func clear(_ table: String, column: String, holding key: Int64) {
        cleared.append((table, column, key))
    }

    /// Writes the deletion: foreign keys cleared (with their companion columns), the touched rows' versions
    /// moved on, the deleted rows and their join-table rows removed.
    /// - Returns: the relationships of the touched rows that changed.
    func write(on db: SQLiteConnection) throws -> [String] {
        for (table, column, key) in cleared {
            try db.cached("UPDATE \(table) SET \(column) = NULL WHERE \(column) = ?").run([.int(key)])
        }
        for (key, entity) in touched {
            try db.cached("UPDATE \(entity.tableName) SET Z_OPT = Z_OPT + 1 WHERE Z_PK = ?").run([.int(key)])
            // A to-one cleared above clears its companion `Z_ENT` column too, as a save's does.
            for companion in entity.family.companions {
                try db.cached(companion.updateSQL(in: entity)).run([.int(key)])
            }
        }
        for (key, entity) in deleted {
            try db.cached("DELETE FROM \(entity.tableName) WHERE Z_PK = ?").run([.int(key)])
        }
        // The join rows of the owners that are gone, for every entity a row was deleted from.
        var cleaned: Set<String> = []
        for (_, entity) in deleted {
            for relationship in entity.relationships {
                guard case .joinTable(let table, let owner, _) = relationship.storage,
                      cleaned.insert("\(table).\(owner)").inserted else { continue }
                try db.cached("DELETE FROM \(table) WHERE \(owner) NOT IN (SELECT Z_PK FROM \(entity.tableName))").run()
            }
        }
        return changedRelationships
    }
}

extension StoreCoordinator {
    /// Applies the delete rules of every row `deletion` holds, as a context's delete does (see
    /// `ObjectContext.delete(_:)`): cascades first, to the end of every chain; then `deny`, which fails
    /// the whole batch while a denying relationship holds a row not deleted; then `nullify` and `cascade`
    /// with an inverse, which clear the other side's to-one and mark the other side updated.
    /// - Throws: `StoreError.deleteDenied`.
    func applyDeleteRules(_ deletion: inout BatchDeletion, on db: SQLiteConnection) throws {
        var next = 0
        while next < deletion.deleted.count {
            let (key, entity) = deletion.deleted[next]
            next += 1
            for relationship in entity.relationships where relationship.deleteRule == .cascade {
                for (otherKey, other) in try rows(relatedTo: key, entity, by: relationship, on: db)
                where !deletion.isDeleted(otherKey, other) {
                    guard let row = try core.readRow(other, otherKey, on: db) else { continue }
                    deletion.delete(otherKey, other, values: row.values)
                }
            }
        }
        for (key, entity) in deletion.deleted {
            for relationship in entity.relationships where relationship.deleteRule == .deny {
                let held = try rows(relatedTo: key, entity, by: relationship, on: db).filter { !deletion.isDeleted($0, $1) }
                guard held.isEmpty else {
                    throw StoreError.deleteDenied(core.objectID(entity, key), relationship: relationship.name, held: held.count)
                }
            }
        }
        for (key, entity) in deletion.deleted {
            for relationship in entity.relationships where relationship.inverseName != nil
                && (relationship.deleteRule == .nullify || relationship.deleteRule == .cascade) {
                let destination = core.model.entities[relationship.destination]
                if case .inverseForeignKey(let slot) = relationship.storage {
                    deletion.clear(destination.tableName, column: destination.slots[slot].column, holding: key)
                }
                // A one-to-one keeps a key on both sides: the other side's, naming the deleted row, is cleared.
                if case .foreignKey = relationship.storage,
                   let inverse = destination.relationships.first(where: { $0.name == relationship.inverseName }),
                   case .foreignKey(let inverseSlot) = inverse.storage {
                    deletion.clear(destination.tableName, column: destination.slots[inverseSlot].column, holding: key)
                }
                for (otherKey, other) in try rows(relatedTo: key, entity, by: relationship, on: db) {
                    deletion.touch(otherKey, other, relationship: relationship.inverseName)
                }
            }
        }
    }

    /// The rows `relationship` of the row `key` of `entity` holds in the store, each with its own entity.
    private func rows(relatedTo key: Int64, _ entity: EntityInfo, by relationship: RelationshipInfo,
                      on db: SQLiteConnection) throws -> [(Int64, EntityInfo)] {
        let destination = core.model.entities[relationship.destination]
        let table = destination.tableName
        let sql = switch relationship.storage {
        case .foreignKey(let slot):
            "SELECT Z_PK, Z_ENT FROM \(table) WHERE Z_PK = (SELECT \(entity.slots[slot].column) FROM \(entity.tableName) WHERE Z_PK = ?)"
        case .inverseForeignKey(let slot):
            "SELECT Z_PK, Z_ENT FROM \(table) WHERE \(destination.slots[slot].column) = ? ORDER BY Z_PK"
        case .joinTable(let joinTable, let owner, let target):
            "SELECT d.Z_PK, d.Z_ENT FROM \(table) d JOIN \(joinTable) j ON j.\(target) = d.Z_PK WHERE j.\(owner) = ? ORDER BY d.Z_PK"
        }
        let statement = try db.cached(sql)
        try statement.bind([.int(key)])
        defer { statement.reset() }
        var rows: [(Int64, EntityInfo)] = []
        while try statement.step() {
            rows.append((statement.int64(at: 0), core.model.entity(number: statement.int64(at: 1)) ?? destination))
        }
        return rows
    }
}
