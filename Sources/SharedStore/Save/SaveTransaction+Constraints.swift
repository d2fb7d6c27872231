import Basics

/// Uniqueness constraints: an insert whose unique attribute holds a value a row of the store already
/// holds is a constraint conflict, resolved by the merge policy as Core Data's `NSMergePolicy`
/// documents for `NSConstraintConflict`: `error` fails the save (133021); the object-trump and overwrite
/// policies make the insert an update of that row with the inserted object's values (an upsert); the
/// store-trump and rollback policies keep the row as it is and make the inserted object that row.
/// Either way the store keeps one row, and the inserted object becomes it.
extension SaveTransaction {
    /// A row an insert conflicts with.
    struct ExistingRow {
        let primaryKey: Int64
        let row: RowSnapshot
        let attribute: String
    }

    /// The inserts (by position) whose unique attributes conflict with a row of the store; under
    /// policy `error`, throws the conflicts instead. Decided before anything is inserted, so two inserts
    /// of one save with the same value are not checked against each other.
    mutating func constraintConflicts(_ inserts: [ManagedObject]) throws -> [Int: ExistingRow] {
        var found: [Int: ExistingRow] = [:]
        for (i, object) in inserts.enumerated() {
            let entity = core.model.entities[object.entity]
            guard !entity.uniqueSlots.isEmpty else { continue }
            let values = object.current
            for slot in entity.uniqueSlots where values[slot] != .null {
                let column = entity.slots[slot].column
                // In a family's table, a row of the same entity: the inserted object becomes that row, which
                // an object of another entity cannot.
                let kind = entity.family.ownRowsFilter.map { " AND \($0)" } ?? ""
                guard let key = try db.scalarInt("SELECT Z_PK FROM \(entity.tableName) WHERE \(column) = ?\(kind) LIMIT 1", [values[slot]]),
                      let row = try core.readRow(entity, key, on: db) else { continue }
                found[i] = ExistingRow(primaryKey: key, row: row, attribute: entity.slots[slot].name)
                break
            }
        }
        guard !found.isEmpty else { return [:] }
        // The inserted objects become the rows they conflict with: their keys, in every reference.
        var permanent = mapping.permanent
        for (i, existing) in found { permanent[i] = existing.primaryKey }
        mapping = TemporaryKeyMap(temporary: mapping.temporary, permanent: permanent)
        if policy == .error {
            conflicts = found.keys.sorted().map { i in
                constraintConflict(inserts[i], found[i]!, outcome: .failed, resolved: nil)
            }
            throw SaveError.conflicts(conflicts)
        }
        return found
    }

    /// Resolves one insert's constraint conflict with `existing` under the policy (never `error`).
    mutating func upsert(_ object: ManagedObject, onto existing: ExistingRow) throws {
        let entity = core.model.entities[object.entity]
        switch policy {
        case .objectTrump, .overwrite, .error:
            let values = resolved(object.current, entity)
            let sets = entity.slots.map { ", \($0.column) = ?" }.joined()
            let statement = try db.cached("UPDATE \(entity.tableName) SET Z_OPT = Z_OPT + 1\(sets) WHERE Z_PK = ?")
            for (slot, value) in values.enumerated() { try statement.bind(value, at: Int32(slot + 1)) }
            try statement.bind(existing.primaryKey, at: Int32(values.count + 1))
            try statement.step()
            conflicts.append(constraintConflict(object, existing, outcome: policy == .overwrite ? .overwritten : .merged, resolved: values))
            writes.append(SaveWrite(object: object, entity: entity, primaryKey: existing.primaryKey, kind: .committed(.update),
                                    values: values, version: existing.row.version + 1, changedSlots: Array(entity.slots.indices)))
        case .storeTrump, .rollback:
            conflicts.append(constraintConflict(object, existing, outcome: .discarded, resolved: existing.row.values))
            writes.append(SaveWrite(object: object, entity: entity, primaryKey: existing.primaryKey, kind: .tookStore(undelete: false),
                                    values: existing.row.values, version: existing.row.version, changedSlots: []))
        }
    }

    private func constraintConflict(_ object: ManagedObject, _ existing: ExistingRow, outcome: ConflictOutcome,
                                    resolved: [Value]?) -> SaveConflict {
        let entity = core.model.entities[object.entity]
        return SaveConflict(
            object: object.id, cachedVersion: 0, storeVersion: existing.row.version,
            cachedValues: core.namedValues(entity, object.current), storeValues: core.namedValues(entity, existing.row.values),
            changedProperties: [existing.attribute], policy: policy, outcome: outcome,
            resolvedValues: resolved.map { core.namedValues(entity, $0) } ?? [:],
            constraint: existing.attribute, existingObject: core.objectID(entity, existing.primaryKey))
    }
}
