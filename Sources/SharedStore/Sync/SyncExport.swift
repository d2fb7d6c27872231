import Basics
import Foundation

/// What one store wrote locally since its last export, per object (gathered from persistent history).
private struct LocalObjectChanges {
    var inserted = false
    var deleted = false
    var deleteTime: Double?
    var tombstone: [String: Value]?
    /// Each changed property's latest local write time.
    var times: [String: Double] = [:]
}

extension SyncEngine {
    /// Exports the local changes recorded in history after `token` (skipping the transactions sync itself
    /// wrote), stamping them for `store`. Runs inside the sync transaction.
    ///
    /// - Returns: the object changes and the history token exported through.
    func exportChanges(store: String, after token: Int64, applied: AppliedChanges) throws -> ([ObjectChange], Int64) {
        if let purged = try HistoryReader.purgedThrough(core), purged > token {
            throw SyncError.historyExpired(exportedThrough: token, purgedThrough: purged)
        }
        let transactions = try HistoryReader.transactions(core, afterToken: token, afterDate: nil)
        var pending: [RowKey: LocalObjectChanges] = [:]
        var order: [RowKey] = []
        for transaction in transactions where transaction.author != SyncEnsemble.importAuthor {
            let time = transaction.timestamp.timeIntervalSinceReferenceDate
            for change in transaction.changes {
                let entity = try core.model.entity(named: change.object.entity)
                let key = RowKey(entity: entity.index, primaryKey: change.object.primaryKey)
                if pending[key] == nil { order.append(key) }
                var local = pending[key] ?? LocalObjectChanges()
                switch change.operation {
                case .insert:
                    local.inserted = true
                    for property in syncModel.properties[entity.index] { local.times[property.name] = time }
                case .update:
                    for name in change.updatedProperties where syncModel.property(entity.index, name) != nil {
                        local.times[name] = time
                    }
                    // History does not name join-table changes: they are candidates, kept when the value differs.
                    for property in syncModel.properties[entity.index] {
                        if case .joinTable = property.kind { local.times[property.name] = time }
                    }
                case .delete:
                    local.deleted = true
                    local.deleteTime = time
                    local.tombstone = change.tombstone
                }
                pending[key] = local
            }
        }
        var changes: [ObjectChange] = []
        for key in order {
            let local = pending[key]!
            let entity = core.model.entities[key.entity]
            guard let row = try core.readRow(entity, key.primaryKey, on: db) else {
                if let change = try exportDelete(entity, key.primaryKey, local, store: store) { changes.append(change) }
                continue
            }
            if let change = try exportObject(entity, key.primaryKey, row.values, times: local.times,
                                             inserted: local.inserted, store: store, applied: applied)
            {
                changes.append(change)
            }
        }
        return (changes, transactions.last?.token ?? token)
    }

    /// Every row of the store as an insert stamped `now` (the baseline a store exports when it leeches).
    func exportBaseline(store: String, now: Date, applied: AppliedChanges) throws -> [ObjectChange] {
        var changes: [ObjectChange] = []
        let time = now.timeIntervalSinceReferenceDate
        for entity in core.model.entities {
            let times = Dictionary(uniqueKeysWithValues: syncModel.properties[entity.index].map { ($0.name, time) })
            for (key, _, row) in try core.readRows(entity, where: nil, arguments: [], orderBy: "Z_PK", limit: nil, on: db) {
                if let change = try exportObject(entity, key, row.values, times: times, inserted: true, store: store,
                                                 applied: applied)
                {
                    changes.append(change)
                }
            }
        }
        return changes
    }

    private func exportDelete(_ entity: EntityInfo, _ key: Int64, _ local: LocalObjectChanges, store: String)
        throws -> ObjectChange?
    {
        var identifier = try mappedIdentifier(entity, key)
        if identifier == nil, let slot = syncModel.uuidSlot[entity.index],
            case .uuid(let uuid) = local.tombstone?[entity.attributes[slot].name]
        {
            identifier = uuid.uuidString
        }
        // An object never exported and without a uuid: no peer knows it.
        try db.cached("DELETE FROM GROUPSIM_SYNCPENDINGREF WHERE ZENT = ? AND ZPK = ?").run([.int(entity.entityNumber), .int(key)])
        guard let identifier else { return nil }
        try removeMapping(entity, key)
        guard try !isTombstoned(entity, identifier) else { return nil }
        let stamp = SyncStamp(time: local.deleteTime ?? 0, store: store)
        try addTombstone(entity, identifier, stamp)
        return ObjectChange(id: identifier, entity: entity.name, operation: .delete, time: stamp.time, properties: [:])
    }

    /// One live object's change: the properties in `times` with their current values, stamped after any
    /// stamp the store already holds for them (a local write follows every import it could have seen).
    private func exportObject(_ entity: EntityInfo, _ key: Int64, _ values: [Value], times: [String: Double],
                              inserted: Bool, store: String, applied: AppliedChanges) throws -> ObjectChange?
    {
        let identifier = try identifier(entity, key, values: values)
        if try isTombstoned(entity, identifier) {
            // Deleted elsewhere in the ensemble (a uuid inserted again): the delete wins here too.
            applied.delete(RowKey(entity: entity.index, primaryKey: key), tombstone: HistoryRecorder.tombstone(entity, values))
            try deleteRow(entity, key)
            try removeMapping(entity, key)
            return nil
        }
        var properties: [String: PropertyChange] = [:]
        for property in syncModel.properties[entity.index] {
            guard let time = times[property.name] else { continue }
            // A to-one set here replaces a target still awaited from a peer.
            if case .toOne = property.kind, !inserted { try clearPending(entity, key, property.name) }
            let value = try syncValue(entity, key, values, property)
            let current = try stamp(entity, identifier, property.name)
            if !inserted, case .joinTable = property.kind, current?.1 == value.referencesText { continue }
            var stamp = SyncStamp(time: time, store: store)
            if let held = current?.0, held >= stamp { stamp.time = held.time.nextUp }
            try setStamp(entity, identifier, property.name, stamp, value: value.referencesText)
            properties[property.name] = PropertyChange(time: stamp.time, value: value)
        }
        guard inserted || !properties.isEmpty else { return nil }
        return ObjectChange(id: identifier, entity: entity.name, operation: inserted ? .insert : .update,
                            time: properties.values.map(\.time).max() ?? 0, properties: properties)
    }
}
