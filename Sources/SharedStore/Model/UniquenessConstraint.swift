import Basics

/// A uniqueness constraint as Core Data stores it: a unique index `Z_<Entity>_UNIQUE_<attributes>` on the
/// root entity's table, so no two rows of the declaring entity and its sub-entities hold the same non-nil
/// values in all its columns, whatever wrote them (a save, a batch insert, an update).
struct UniquenessConstraint: Sendable, Equatable {
    /// The attributes' names, as declared.
    let names: [String]
    /// Their slots in the entity that has the constraint (the same in every sub-entity: inherited slots come first).
    let slots: [Int]
    /// Their columns.
    let columns: [String]
    /// The entity that declares it: its rows and its sub-entities' are the ones it covers.
    let declaringEntity: Int
    /// `Z_Item_UNIQUE_name_folder`.
    let indexName: String
    /// The condition that keeps the rows the constraint covers, when the table holds other entities' rows
    /// too (a constraint declared by a sub-entity).
    let rowsFilter: String?

    /// `names` as one text, for messages (`name, folder`).
    var label: String { names.joined(separator: ", ") }

    /// `c1 = ? AND c2 = ?`, with the covered rows' condition.
    var matchClause: String {
        let equal = columns.map { "\($0) = ?" }.joined(separator: " AND ")
        return rowsFilter.map { "\(equal) AND \($0)" } ?? equal
    }

    /// The key and `Z_ENT` of a row of `table` this constraint covers that holds `values` (one per
    /// attribute, in order), other than row `except`; nil when there is none (or a value is nil: nil
    /// never conflicts). The one query behind every constraint check: a save's and a batch insert's.
    func row(holding values: [Value], in table: String, except: Int64? = nil,
             on db: SQLiteConnection) throws(SQLiteError) -> (key: Int64, entityNumber: Int64)? {
        guard !values.contains(.null) else { return nil }
        let other = except == nil ? "" : " AND Z_PK != ?"
        let statement = try db.cached("SELECT Z_PK, Z_ENT FROM \(table) WHERE \(matchClause)\(other) LIMIT 1")
        for (i, value) in values.enumerated() { try statement.bind(value, at: Int32(i + 1)) }
        if let except { try statement.bind(except, at: Int32(values.count + 1)) }
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return (statement.int64(at: 0), statement.int64(at: 1))
    }

    /// The unique index, as Core Data names it; partial when the constraint covers part of the table.
    func indexStatement(table: String) -> String {
        let columnList = columns.map { "\($0) COLLATE BINARY ASC" }.joined(separator: ", ")
        return "CREATE UNIQUE INDEX IF NOT EXISTS \(indexName) ON \(table) (\(columnList))" + (rowsFilter.map { " WHERE \($0)" } ?? "")
    }
}

extension ModelCompiler {
    /// The uniqueness constraints `entity` (index `i`) has, each with the highest ancestor that declares it.
    func constraints(of i: Int, slots: [Slot], hierarchy: Hierarchy) throws(ModelError) -> [UniquenessConstraint] {
        let entity = description.entities[i]
        var result: [UniquenessConstraint] = []
        for names in entity.allUniquenessConstraints {
            guard !names.isEmpty else { throw ModelError(entity: entity.name, reason: "a uniqueness constraint names no attribute") }
            var slotList: [Int] = []
            for name in names {
                guard let slot = entity.attributes.firstIndex(where: { $0.name == name }) else {
                    let isRelationship = entity.relationships.contains { $0.name == name }
                    throw ModelError(entity: entity.name, property: name, reason: isRelationship
                        ? "a uniqueness constraint holds attributes only, and this is a relationship"
                        : "a uniqueness constraint names an attribute the entity does not have")
                }
                guard !slotList.contains(slot) else {
                    throw ModelError(entity: entity.name, property: name, reason: "a uniqueness constraint names this attribute twice")
                }
                slotList.append(slot)
            }
            var declaring = i
            while let p = hierarchy.parent[declaring], description.entities[p].allUniquenessConstraints.contains(names) { declaring = p }
            let subtree = hierarchy.subtree(of: declaring)
            let root = hierarchy.root[declaring]
            let covers = subtree.count < hierarchy.subtree(of: root).count
            let first = hierarchy.numbers[declaring], last = first + Int64(subtree.count - 1)
            result.append(UniquenessConstraint(
                names: names, slots: slotList, columns: slotList.map { slots[$0].column }, declaringEntity: declaring,
                indexName: "Z_\(description.entities[declaring].name)_UNIQUE_\(names.joined(separator: "_"))",
                rowsFilter: covers ? (first == last ? "Z_ENT = \(first)" : "Z_ENT BETWEEN \(first) AND \(last)") : nil))
        }
        return result
    }
}
