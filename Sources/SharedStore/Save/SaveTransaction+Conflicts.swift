import Basics

/// Resolving optimistic-locking conflicts by merge policy, as Core Data's `NSMergePolicy` documents.
extension SaveTransaction {
    func conflict(_ object: ManagedObject, _ row: RowSnapshot?, isDelete: Bool, outcome: ConflictOutcome,
                  resolved: [Value]?) -> SaveConflict
    {
        let entity = core.model.entities[object.entity]
        return SaveConflict(
            object: object.id,
            cachedVersion: object.version,
            storeVersion: row?.version,
            cachedValues: core.namedValues(entity, object.current),
            storeValues: row.map { core.namedValues(entity, $0.values) } ?? [:],
            changedProperties: isDelete ? [] : object.changes.keys.sorted().map { entity.slots[$0].name },
            policy: policy,
            outcome: outcome,
            resolvedValues: resolved.map { core.namedValues(entity, $0) } ?? [:])
    }

    /// Resolves one conflict under `policy` (never `.error`) and writes what the policy keeps.
    mutating func resolve(_ object: ManagedObject, _ row: RowSnapshot?, isDelete: Bool) throws {
        let entity = core.model.entities[object.entity]
        guard let row else {
            // The row was deleted elsewhere: an update has nothing to apply to, a delete is already done.
            record(conflict(object, nil, isDelete: isDelete, outcome: .deletedInStore, resolved: nil))
            writes.append(SaveWrite(object: object, entity: entity, primaryKey: object.id.primaryKey, kind: .vanished, values: object.values,
                                    version: object.version, changedSlots: []))
            return
        }
        if isDelete {
            switch policy {
            case .objectTrump, .overwrite, .error:
                try db.cached("DELETE FROM \(entity.tableName) WHERE Z_PK = ?").run([.int(object.id.primaryKey)])
                for relationship in entity.relationships {
                    guard case .joinTable(let table, let owner, _) = relationship.storage else { continue }
                    try db.cached("DELETE FROM \(table) WHERE \(owner) = ?").run([.int(object.id.primaryKey)])
                }
                record(conflict(object, row, isDelete: true, outcome: .deleted, resolved: nil))
                writes.append(SaveWrite(object: object, entity: entity, primaryKey: object.id.primaryKey, kind: .committed(.delete), values: row.values,
                                        version: row.version, changedSlots: []))
            case .storeTrump, .rollback:
                record(conflict(object, row, isDelete: true, outcome: .discarded, resolved: row.values))
                writes.append(SaveWrite(object: object, entity: entity, primaryKey: object.id.primaryKey, kind: .tookStore(undelete: true),
                                        values: row.values, version: row.version, changedSlots: []))
            }
            return
        }
        let mine = resolved(object.current, entity)
        let base = object.values
        let changed = object.changes.keys.sorted()
        var final = row.values
        var outcome = ConflictOutcome.merged
        switch policy {
        case .objectTrump, .error:
            for slot in changed { final[slot] = mine[slot] }
        case .storeTrump:
            for slot in changed where row.values[slot] == base[slot] { final[slot] = mine[slot] }
        case .overwrite:
            final = mine
            outcome = .overwritten
        case .rollback:
            record(conflict(object, row, isDelete: false, outcome: .discarded, resolved: row.values))
            writes.append(SaveWrite(object: object, entity: entity, primaryKey: object.id.primaryKey, kind: .tookStore(undelete: false),
                                    values: row.values, version: row.version, changedSlots: []))
            return
        }
        let slots = policy == .overwrite ? Array(entity.slots.indices) : changed.filter { final[$0] != row.values[$0] }
        let sets = slots.map { ", \(entity.slots[$0].column) = ?" }.joined()
        let statement = try db.cached("UPDATE \(entity.tableName) SET Z_OPT = ?\(sets) WHERE Z_PK = ?")
        try statement.bind(row.version + 1, at: 1)
        for (i, slot) in slots.enumerated() { try statement.bind(final[slot], at: Int32(i + 2)) }
        try statement.bind(object.id.primaryKey, at: Int32(slots.count + 2))
        try statement.step()
        record(conflict(object, row, isDelete: false, outcome: outcome, resolved: final))
        writes.append(SaveWrite(object: object, entity: entity, primaryKey: object.id.primaryKey, kind: .committed(.update), values: final,
                                version: row.version + 1, changedSlots: slots))
    }

    private mutating func record(_ conflict: SaveConflict) {
        conflicts.append(conflict)
    }
}
