import Basics

/// Uniqueness constraints: an insert whose constrained attributes hold values a row of the store already
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

    /// The inserts (by position) whose uniqueness constraints conflict with a row of the store; under
    /// policy `error`, throws the conflicts instead. A constraint covers the rows of the entity that
    /// declares it and of its sub-entities. An insert that meets a row of another entity, or another
    /// insert of the same save, cannot become that row: its conflict fails the save under every policy.
    mutating func constraintConflicts(_ inserts: [ManagedObject]) throws -> [Int: ExistingRow] {
        var found: [Int: ExistingRow] = [:]
        var unresolvable: [SaveConflict] = []
        var claimed: [[Value]: Int] = [:]  // constraint's index name and values -> the insert that holds them
        for (i, object) in inserts.enumerated() {
            let entity = core.model.entities[object.entity]
            guard !entity.constraints.isEmpty else { continue }
            let values = object.current
            for constraint in entity.constraints {
                let held = constraint.slots.map { values[$0] }
                guard !held.contains(.null) else { continue }
                if let other = claimed[[.string(constraint.indexName)] + held] {
                    unresolvable.append(insertConflict(object, with: inserts[other], constraint))
                    continue
                }
                claimed[[.string(constraint.indexName)] + held] = i
                guard let (key, kind) = try constraint.row(holding: held, in: entity.tableName, on: db) else { continue }
                let owner = core.model.entity(number: kind) ?? entity
                guard let row = try core.readRow(owner, key, on: db) else { continue }
                let existing = ExistingRow(primaryKey: key, row: row, attribute: constraint.label)
                if owner.index != entity.index {
                    unresolvable.append(constraintConflict(object, existing, outcome: .failed, resolved: nil, existingEntity: owner))
                } else if found[i] == nil {
                    found[i] = existing
                }
            }
        }
        if !unresolvable.isEmpty {
            conflicts = unresolvable
            throw SaveError.conflicts(conflicts)
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

    /// Before an update of `object`: a row other than its own that already holds the values it now has
    /// in all of one of its constraints is a conflict that fails the save, under every policy (see the
    /// deviation in Docs/SharedStore.md: Core Data's trump policies merge the two objects).
    mutating func checkConstraints(ofUpdate object: ManagedObject, _ entity: EntityInfo, changed: [Int]) throws {
        for constraint in entity.constraints where constraint.slots.contains(where: changed.contains) {
            let held = constraint.slots.map { object.current[$0] }
            guard !held.contains(.null),
                  let (key, kind) = try constraint.row(holding: held, in: entity.tableName, except: object.id.primaryKey, on: db)
            else { continue }
            let owner = core.model.entity(number: kind) ?? entity
            guard let row = try core.readRow(owner, key, on: db) else { continue }
            conflicts.append(constraintConflict(object, ExistingRow(primaryKey: key, row: row, attribute: constraint.label),
                                                outcome: .failed, resolved: nil, existingEntity: owner))
            throw SaveError.conflicts(conflicts)
        }
    }

    /// Two inserts of one save holding one constraint's values.
    private func insertConflict(_ object: ManagedObject, with other: ManagedObject, _ constraint: UniquenessConstraint) -> SaveConflict {
        let entity = core.model.entities[object.entity]
        return SaveConflict(
            object: object.id, cachedVersion: 0, storeVersion: 0,
            cachedValues: core.namedValues(entity, object.current),
            storeValues: core.namedValues(core.model.entities[other.entity], other.current),
            changedProperties: constraint.names, policy: policy, outcome: .failed, resolvedValues: [:],
            constraint: constraint.label, existingObject: other.id)
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
                                    resolved: [Value]?, existingEntity: EntityInfo? = nil) -> SaveConflict {
        let entity = core.model.entities[object.entity]
        let owner = existingEntity ?? entity
        return SaveConflict(
            object: object.id, cachedVersion: 0, storeVersion: existing.row.version,
            cachedValues: core.namedValues(entity, object.current), storeValues: core.namedValues(owner, existing.row.values),
            changedProperties: existing.attribute.components(separatedBy: ", "), policy: policy, outcome: outcome,
            resolvedValues: resolved.map { core.namedValues(entity, $0) } ?? [:],
            constraint: existing.attribute, existingObject: core.objectID(owner, existing.primaryKey))
    }
}
