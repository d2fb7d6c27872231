import Basics
import Foundation

/// What one sync transaction did to this store's rows, in order: becomes the history transaction
/// (author `sync.import`) and the `RemoteChanges` handed to the caller.
final class AppliedChanges {
    enum Kind { case inserted, updated, deleted }
    private(set) var order: [RowKey] = []
    private var kinds: [RowKey: Kind] = [:]
    private var columns: [RowKey: [String]] = [:]
    private var tombstones: [RowKey: [String: Value]] = [:]
    /// Rows whose `Z_OPT` already moved in this transaction (inserted ones start at 1).
    var bumped: Set<RowKey> = []

    func insert(_ key: RowKey) {
        if kinds[key] == nil { order.append(key) }
        kinds[key] = .inserted
        bumped.insert(key)
    }

    func update(_ key: RowKey, _ names: [String]) {
        if kinds[key] == nil { order.append(key); kinds[key] = .updated }
        for name in names where !(columns[key]?.contains(name) ?? false) { columns[key, default: []].append(name) }
    }

    func delete(_ key: RowKey, tombstone: [String: Value]?) {
        if kinds[key] == .inserted {
            // Inserted and deleted in the same sync: nobody saw it.
            kinds[key] = nil
            order.removeAll { $0 == key }
            return
        }
        if kinds[key] == nil { order.append(key) }
        kinds[key] = .deleted
        tombstones[key] = tombstone
    }

    var isEmpty: Bool { order.isEmpty }

    func remoteChanges(_ core: StoreCore) -> RemoteChanges {
        var changes = RemoteChanges()
        for key in order {
            let id = core.objectID(core.model.entities[key.entity], key.primaryKey)
            switch kinds[key]! {
            case .inserted: changes.inserted.append(id)
            case .updated: changes.updated.append(id)
            case .deleted: changes.deleted.append(id)
            }
        }
        return changes
    }

    func historyChanges(_ core: StoreCore) -> [HistoryChange] {
        order.map { key in
            let kind = kinds[key]!
            return HistoryChange(
                entity: core.model.entities[key.entity], primaryKey: key.primaryKey,
                operation: kind == .inserted ? .insert : kind == .updated ? .update : .delete,
                columns: kind == .updated ? columns[key] ?? [] : [],
                tombstone: kind == .deleted ? tombstones[key] : nil)
        }
    }
}

/// A relationship value to write once every object of the import exists.
struct PendingReference {
    let entity: EntityInfo
    let key: Int64
    let property: SyncProperty
    let value: SyncValue
}

extension SyncEngine {
    /// Applies one peer change set: per property the greater stamp wins; a delete is final. Relationship
    /// values are queued in `references` for `resolveReferences`. Runs inside the sync transaction.
    func importChangeSet(_ changeSet: ChangeSet, name: String, applied: AppliedChanges,
                         references: inout [PendingReference]) throws
    {
        for change in changeSet.changes {
            try importChange(change, from: changeSet.store, name: name, applied: applied, references: &references)
        }
    }

    private func importChange(_ change: ObjectChange, from store: String, name: String, applied: AppliedChanges,
                              references: inout [PendingReference]) throws
    {
        guard let entity = try? core.model.entity(named: change.entity) else {
            throw SyncError.invalidChangeSet(name: name, reason: "unknown entity `\(change.entity)`")
        }
        let identifier = change.id
        guard try !isTombstoned(entity, identifier) else { return }
        let existing = try localKey(entity, identifier)
        if change.operation == .delete {
            try addTombstone(entity, identifier, SyncStamp(time: change.time, store: store))
            guard let key = existing else { return }
            let row = try core.readRow(entity, key, on: db)
            try deleteRow(entity, key)
            try removeMapping(entity, key)
            references.removeAll { $0.entity === entity && $0.key == key }
            applied.delete(RowKey(entity: entity.index, primaryKey: key),
                           tombstone: row.flatMap { HistoryRecorder.tombstone(entity, $0.values) })
            return
        }
        var sets: [(slot: Int, value: Value)] = []
        var names: [String] = []
        var relationships: [(SyncProperty, SyncValue)] = []
        for (propertyName, incoming) in change.properties.sorted(by: { $0.key < $1.key }) {
            guard let property = syncModel.property(entity.index, propertyName) else {
                throw SyncError.invalidChangeSet(name: name, reason: "\(entity.name) has no property `\(propertyName)`")
            }
            let stamp = SyncStamp(time: incoming.time, store: store)
            if let held = try self.stamp(entity, identifier, propertyName)?.0, held >= stamp { continue }
            try setStamp(entity, identifier, propertyName, stamp, value: incoming.value.referencesText)
            names.append(propertyName)
            switch property.kind {
            case .attribute(let slot, let type):
                guard case .value(let value) = incoming.value, let converted = value.converted(to: type) else {
                    throw SyncError.invalidChangeSet(
                        name: name, reason: "\(entity.name).\(propertyName): \(incoming.value) is not a \(type)")
                }
                sets.append((slot, converted))
            case .toOne, .joinTable:
                relationships.append((property, incoming.value))
            }
        }
        let key: Int64
        if let existing {
            key = existing
            let rowKey = RowKey(entity: entity.index, primaryKey: key)
            if !sets.isEmpty {
                let bump = applied.bumped.insert(rowKey).inserted ? 1 : 0
                let assignments = sets.map { ", \(entity.slots[$0.slot].column) = ?" }.joined()
                try db.cached("UPDATE \(entity.tableName) SET Z_OPT = Z_OPT + \(bump)\(assignments) WHERE Z_PK = ?")
                    .run(sets.map(\.value) + [.int(key)])
            }
            if !names.isEmpty { applied.update(rowKey, names) }
        } else {
            // Unknown here: insert it (an update of an unknown object inserts it too, with what it carries).
            var row = entity.initialValues
            for (slot, value) in sets { row[slot] = value }
            key = try KeyAllocator.take(1, of: entity.entityNumber, name: entity.name, db)
            try db.cached(entity.insertSQL).run([.int(key), .int(entity.entityNumber)] + row)
            try setMapping(entity, key, identifier)
            applied.insert(RowKey(entity: entity.index, primaryKey: key))
        }
        for (property, value) in relationships {
            references.append(PendingReference(entity: entity, key: key, property: property, value: value))
        }
    }

    /// Writes the queued relationship values, resolving global identifiers to this store's rows. A target
    /// deleted in the ensemble is left out; one unknown here is kept in `GROUPSIM_SYNCPENDINGREF` until it arrives.
    func resolveReferences(_ references: [PendingReference], name: String, applied: AppliedChanges) throws {
        for reference in references {
            let entity = reference.entity
            let rowKey = RowKey(entity: entity.index, primaryKey: reference.key)
            try clearPending(entity, reference.key, reference.property.name)
            switch (reference.property.kind, reference.value) {
            case (.toOne(let slot, let destination), .reference(let target)):
                var key: Int64?
                if let target {
                    key = try resolve(core.model.entities[destination], target)
                    if key == nil, try !isTombstoned(core.model.entities[destination], target) {
                        try addPending(entity, reference.key, reference.property.name, target)
                    }
                }
                let bump = applied.bumped.insert(rowKey).inserted ? 1 : 0
                try db.cached("UPDATE \(entity.tableName) SET Z_OPT = Z_OPT + \(bump), \(entity.slots[slot].column) = ? WHERE Z_PK = ?")
                    .run([key.map(Value.int) ?? .null, .int(reference.key)])
            case (.joinTable(let table, let owner, let target, let destination), .references(let targets)):
                try db.cached("DELETE FROM \(table) WHERE \(owner) = ?").run([.int(reference.key)])
                let info = core.model.entities[destination]
                for identifier in targets {
                    if let key = try resolve(info, identifier) {
                        try db.cached("INSERT OR IGNORE INTO \(table) (\(owner), \(target)) VALUES (?, ?)")
                            .run([.int(reference.key), .int(key)])
                    } else if try !isTombstoned(info, identifier) {
                        try addPending(entity, reference.key, reference.property.name, identifier)
                    }
                }
                if applied.bumped.insert(rowKey).inserted {
                    try db.cached("UPDATE \(entity.tableName) SET Z_OPT = Z_OPT + 1 WHERE Z_PK = ?").run([.int(reference.key)])
                }
            default:
                throw SyncError.invalidChangeSet(
                    name: name, reason: "\(entity.name).\(reference.property.name): \(reference.value) is not a relationship value")
            }
        }
        try resolvePendingTargets(applied: applied)
    }

    /// Writes the awaited relationship targets that have arrived (or drops those deleted meanwhile).
    private func resolvePendingTargets(applied: AppliedChanges) throws {
        let statement = try db.cached("SELECT ZENT, ZPK, ZPROPERTY, ZTARGET FROM GROUPSIM_SYNCPENDINGREF ORDER BY ZENT, ZPK, ZPROPERTY, ZTARGET")
        try statement.bind([])
        var rows: [(Int64, Int64, String, String)] = []
        while try statement.step() {
            rows.append((statement.int64(at: 0), statement.int64(at: 1), statement.string(at: 2) ?? "", statement.string(at: 3) ?? ""))
        }
        statement.reset()
        for (number, key, name, target) in rows {
            guard let entity = core.model.entities.first(where: { $0.entityNumber == number }),
                let property = syncModel.property(entity.index, name)
            else { continue }
            let destination: Int
            switch property.kind {
            case .toOne(_, let d), .joinTable(_, _, _, let d): destination = d
            case .attribute: continue
            }
            let info = core.model.entities[destination]
            let found = try resolve(info, target)
            let gone = try isTombstoned(info, target)
            guard found != nil || gone else { continue }
            try db.cached("DELETE FROM GROUPSIM_SYNCPENDINGREF WHERE ZENT = ? AND ZPK = ? AND ZPROPERTY = ? AND ZTARGET = ?")
                .run([.int(number), .int(key), .string(name), .string(target)])
            guard let found else { continue }
            let rowKey = RowKey(entity: entity.index, primaryKey: key)
            let bump = applied.bumped.insert(rowKey).inserted ? 1 : 0
            switch property.kind {
            case .toOne(let slot, _):
                try db.cached("UPDATE \(entity.tableName) SET Z_OPT = Z_OPT + \(bump), \(entity.slots[slot].column) = ? WHERE Z_PK = ?")
                    .run([.int(found), .int(key)])
            case .joinTable(let table, let owner, let targetColumn, _):
                try db.cached("INSERT OR IGNORE INTO \(table) (\(owner), \(targetColumn)) VALUES (?, ?)")
                    .run([.int(key), .int(found)])
                try db.cached("UPDATE \(entity.tableName) SET Z_OPT = Z_OPT + \(bump) WHERE Z_PK = ?").run([.int(key)])
            case .attribute:
                break
            }
            applied.update(rowKey, [name])
        }
    }

    private func resolve(_ entity: EntityInfo, _ identifier: String) throws -> Int64? {
        guard try !isTombstoned(entity, identifier) else { return nil }
        return try localKey(entity, identifier)
    }
}
