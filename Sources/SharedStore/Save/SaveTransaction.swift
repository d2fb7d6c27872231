import Basics
import Foundation

/// What happened to one object in a save, applied to the context after COMMIT.
///
/// The object and entity are not retained: a save touches each write several times, and every retain and
/// release is an atomic operation on the object's header. `ObjectContext.save()` keeps the saved objects
/// alive until it has applied the writes; entities live as long as the model.
struct SaveWrite {
    enum Kind {
        /// Inserted, updated or deleted in the store.
        case committed(ChangeOperation)
        /// Nothing written: the object takes the store's values (rollback policy, or a discarded delete).
        case tookStore(undelete: Bool)
        /// The row had been deleted in the store: the object leaves the context.
        case vanished
    }
    unowned(unsafe) let object: ManagedObject
    unowned(unsafe) let entity: EntityInfo
    /// The row's primary key (the permanent one, for an insert).
    let primaryKey: Int64
    let kind: Kind
    /// The row's values after the save (resolved primary keys). Applying the write moves them out.
    var values: [Value]
    let version: Int64
    /// The slots an update wrote, for history's updated columns (empty for inserts and deletes).
    let changedSlots: [Int]
}

/// An ordered to-many's members, in order, whose order keys a save writes (temporary keys allowed).
struct OrderWrite {
    let owner: Int64
    let relationship: RelationshipInfo
    let members: [Int64]
}

/// One save's SQL: primary keys, optimistic-locking writes, conflict resolution, join tables, history,
/// the before-commit hook, COMMIT. The context is changed only after it returns.
struct SaveTransaction {
    let core: StoreCore
    let contextName: String
    let author: String?
    let policy: MergePolicy
    var db: SQLiteConnection { core.writer }
    /// Temporary primary key -> permanent primary key, for the inserted objects.
    var mapping = TemporaryKeyMap()
    /// How many objects the save inserts.
    private(set) var insertCount = 0
    var writes: [SaveWrite] = []
    var conflicts: [SaveConflict] = []
    var historyToken: Int64?
    /// Each entity's INSERT, looked up once per save rather than once per object.
    private var insertStatements: [Statement?]

    init(core: StoreCore, contextName: String, author: String?, policy: MergePolicy) {
        self.core = core
        self.contextName = contextName
        self.author = author
        self.policy = policy
        insertStatements = Array(repeating: nil, count: core.model.entities.count)
    }

    /// - Parameters:
    ///   - inserts: the context's unsaved inserts, in insertion order (`ObjectTable.inserted`), with their
    ///     temporary keys (decreasing) and entities.
    ///   - orders: the ordered to-many lists whose members' order keys to write.
    mutating func run(inserts: [ManagedObject], temporaryKeys: [Int64], entities: [Int], updates: [ManagedObject],
                      deletes: [ManagedObject], orders: [OrderWrite] = []) throws(SaveError) {
        let nested = core.heldWrite
        do {
            if nested { try db.execute("SAVEPOINT save") } else { try core.beginOutermost(db) }
        } catch {
            throw .sqlite(error)
        }
        do {
            let keys = try allocateKeys(temporaryKeys: temporaryKeys, entities: entities)
            writes.reserveCapacity(inserts.count + updates.count + deletes.count)
            var pending: [(ManagedObject, Bool)] = []
            // With uniqueness constraints, deletes go first: a value the save frees is free for its inserts
            // and updates, as Core Data checks constraints against the state the save leaves.
            let constrained = core.model.hasUniqueAttributes
            if constrained { for object in deletes where !(try delete(object)) { pending.append((object, true)) } }
            let existing = constrained ? try constraintConflicts(inserts) : [:]
            for (i, (object, key)) in zip(inserts, keys).enumerated() {
                if let row = existing[i] { try upsert(object, onto: row) } else { try insert(object, key: key) }
            }
            for object in updates where !(try update(object)) { pending.append((object, false)) }
            if !constrained { for object in deletes where !(try delete(object)) { pending.append((object, true)) } }
            if !pending.isEmpty {
                let found = try pending.map { object, isDelete in
                    (object, isDelete, try core.readRow(core.model.entities[object.entity], object.id.primaryKey, on: db))
                }
                if policy == .error {
                    conflicts = found.map { object, isDelete, row in
                        conflict(object, row, isDelete: isDelete, outcome: .failed, resolved: nil)
                    }
                    throw SaveError.conflicts(conflicts)
                }
                for (object, isDelete, row) in found { try resolve(object, row, isDelete: isDelete) }
            }
            if core.model.hasCompanionColumns { try writeCompanions() }
            if core.model.hasJoinTables { try writeJoinTables() }
            if !orders.isEmpty { try writeOrders(orders) }
            if core.historyTracking {
                historyToken = try HistoryRecorder.record(core: core, contextName: contextName, author: author,
                                                          writes: writes)
            }
            if let hook = core.beforeCommit {
                hook(BeforeCommitEvent(context: contextName, inserted: inserts.count, updated: updates.count,
                                       deleted: deletes.count))
            }
            if nested { try db.execute("RELEASE save") } else { try core.commitOutermost(db) }
        } catch {
            if nested {
                try? db.execute("ROLLBACK TO save")
                try? db.execute("RELEASE save")
            } else if db.isInTransaction {
                try? db.execute("ROLLBACK")
            }
            for conflict in conflicts where conflict.outcome == .failed {
                core.emit(.conflict(context: contextName, conflict))
            }
            switch error {
            case let error as SaveError: throw error
            case let error as SQLiteError: throw .sqlite(error)
            default: throw .store(.wrap(error))
            }
        }
    }

    // MARK: Statements

    /// Takes primary keys from `Z_PRIMARYKEY` for the inserts of `entities` (one entity index per insert);
    /// returns them in the same order.
    private mutating func allocateKeys(temporaryKeys: [Int64], entities: [Int]) throws -> [Int64] {
        let models = core.model.entities
        var counts = [Int64](repeating: 0, count: models.count)
        for entity in entities { counts[entity] += 1 }
        var next = [Int64](repeating: 0, count: models.count)
        for (entity, count) in counts.enumerated() where count > 0 {
            let family = models[entity].family
            next[entity] = try KeyAllocator.take(count, of: family.keyEntityNumber, family: family.keyFamily, name: models[entity].name, db)
        }
        insertCount = entities.count
        var keys: [Int64] = []
        keys.reserveCapacity(entities.count)
        for entity in entities {
            keys.append(next[entity])
            next[entity] += 1
        }
        mapping = TemporaryKeyMap(temporary: temporaryKeys, permanent: keys)
        return keys
    }

    /// Replaces temporary primary keys in to-one slots by the permanent ones.
    func resolved(_ values: [Value], _ entity: EntityInfo) -> [Value] {
        guard entity.slots.count > entity.attributeCount else { return values }
        var result = values
        for slot in entity.attributeCount..<entity.slots.count {
            if case .int(let key) = result[slot], key < 0, let permanent = mapping[key] {
                result[slot] = .int(permanent)
            }
        }
        return result
    }

    private mutating func insert(_ object: ManagedObject, key: Int64) throws {
        let entity = core.model.entities[object.entity]
        let values = resolved(object.values, entity)
        let statement: Statement
        if let cached = insertStatements[entity.index] {
            statement = cached
            // Every parameter is bound again below: no need to clear the bindings.
            statement.rewind()
        } else {
            statement = try db.cached(entity.saveInsertSQL)
            insertStatements[entity.index] = statement
        }
        try statement.bind(key, at: 1)
        try statement.bind(values, from: 2)
        try statement.step()
        writes.append(SaveWrite(object: object, entity: entity, primaryKey: key, kind: .committed(.insert),
                                values: values, version: 1, changedSlots: []))
    }

    /// `false` when the optimistic-locking check failed (a conflict to resolve).
    private mutating func update(_ object: ManagedObject) throws -> Bool {
        let entity = core.model.entities[object.entity]
        let slots = object.changes.keys.sorted()
        let values = resolved(object.current, entity)
        if !entity.constraints.isEmpty { try checkConstraints(ofUpdate: object, entity, changed: slots) }
        var sets = slots.map { ", \(entity.slots[$0].column) = ?" }.joined()
        // A member of an ordered to-many that changes owner loses its place (its new owner's list gives it one).
        if core.model.hasOrderedRelationships {
            for slot in slots { if let order = core.model.slotOrderColumns[entity.index][slot] { sets += ", \(order) = NULL" } }
        }
        let statement = try db.cached(
            "UPDATE \(entity.tableName) SET Z_OPT = Z_OPT + 1\(sets) WHERE Z_PK = ? AND Z_OPT = ?")
        for (i, slot) in slots.enumerated() { try statement.bind(values[slot], at: Int32(i + 1)) }
        try statement.bind(object.id.primaryKey, at: Int32(slots.count + 1))
        try statement.bind(object.version, at: Int32(slots.count + 2))
        try statement.step()
        guard db.changes == 1 else { return false }
        writes.append(SaveWrite(object: object, entity: entity, primaryKey: object.id.primaryKey,
                                kind: .committed(.update), values: values,
                                version: object.version + 1, changedSlots: slots))
        return true
    }

    private mutating func delete(_ object: ManagedObject) throws -> Bool {
        let entity = core.model.entities[object.entity]
        if object.isInaccessible {
            writes.append(SaveWrite(object: object, entity: entity, primaryKey: object.id.primaryKey,
                                    kind: .vanished, values: object.values,
                                    version: object.version, changedSlots: []))
            return true
        }
        let statement = try db.cached("DELETE FROM \(entity.tableName) WHERE Z_PK = ? AND Z_OPT = ?")
        try statement.bind(object.id.primaryKey, at: 1)
        try statement.bind(object.version, at: 2)
        try statement.step()
        guard db.changes == 1 else { return false }
        try deleteJoinRows(entity, object.id.primaryKey)
        writes.append(SaveWrite(object: object, entity: entity, primaryKey: object.id.primaryKey,
                                kind: .committed(.delete), values: object.values,
                                version: object.version, changedSlots: []))
        return true
    }

    private func deleteJoinRows(_ entity: EntityInfo, _ primaryKey: Int64) throws {
        for relationship in entity.relationships {
            guard case .joinTable(let table, let owner, _) = relationship.storage else { continue }
            try db.cached("DELETE FROM \(table) WHERE \(owner) = ?").run([.int(primaryKey)])
        }
    }

    /// Each written to-one into an entity with sub-entities also stores its target's `Z_ENT` (`Z<n>_<NAME>`),
    /// read off the target's row: written after every insert of the save, so a target inserted with it is found.
    private func writeCompanions() throws {
        for write in writes {
            guard case .committed(let operation) = write.kind, operation != .delete else { continue }
            let entity = write.entity
            for companion in entity.family.companions {
                try db.cached(companion.updateSQL(in: entity)).run([.int(write.primaryKey)])
            }
        }
    }

    /// Each member's order key is its position, from 1: `Z_FOK_` beside its key (its row's, or its join row's).
    private func writeOrders(_ orders: [OrderWrite]) throws {
        for order in orders {
            let owner = mapping[order.owner] ?? order.owner
            guard let column = order.relationship.orderColumn else { continue }
            let statement: Statement
            switch order.relationship.storage {
            case .inverseForeignKey(let slot):
                // Only a row that is still a member: one another process moved to another owner since this
                // context read the list keeps the place its new owner gave it.
                let members = core.model.entities[order.relationship.destination]
                statement = try db.cached("UPDATE \(members.tableName) SET \(column) = ? WHERE Z_PK = ? AND \(members.slots[slot].column) = ?")
            case .joinTable(let table, let ownerColumn, let targetColumn):
                statement = try db.cached("UPDATE \(table) SET \(column) = ? WHERE \(targetColumn) = ? AND \(ownerColumn) = ?")
            case .foreignKey:
                continue
            }
            for (position, key) in order.members.enumerated() {
                try statement.run([.int(Int64(position + 1)), .int(mapping[key] ?? key), .int(owner)])
            }
        }
    }

    private func writeJoinTables() throws {
        for write in writes {
            let object = write.object
            guard case .committed(let operation) = write.kind, operation != .delete,
                !object.joinRemoves.isEmpty || !object.joinAdds.isEmpty
            else { continue }
            let ownerKey = write.primaryKey
            for (index, keys) in object.joinRemoves {
                guard case .joinTable(let table, let owner, let target) = write.entity.relationships[index].storage
                else { continue }
                for key in keys {
                    try db.cached("DELETE FROM \(table) WHERE \(owner) = ? AND \(target) = ?")
                        .run([.int(ownerKey), .int(mapping[key] ?? key)])
                }
            }
            for (index, keys) in object.joinAdds {
                guard case .joinTable(let table, let owner, let target) = write.entity.relationships[index].storage
                else { continue }
                for key in keys {
                    try db.cached("INSERT OR IGNORE INTO \(table) (\(owner), \(target)) VALUES (?, ?)")
                        .run([.int(ownerKey), .int(mapping[key] ?? key)])
                }
            }
        }
    }
}
