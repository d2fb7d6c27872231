import Basics
import Foundation

extension ObjectContext {
    /// Writes pending inserts, updates and deletes in one IMMEDIATE transaction, with optimistic locking.
    ///
    /// Each update runs `UPDATE ... SET ..., Z_OPT = Z_OPT + 1 WHERE Z_PK = ? AND Z_OPT = ?` (deletes
    /// likewise); a row whose version moved is a conflict, resolved by `mergePolicy`. After COMMIT the
    /// row cache holds the saved rows, temporary IDs become permanent, a `.saveCommitted` event is emitted
    /// and the process's other contexts that merge automatically receive the did-save event.
    /// A context without changes saves nothing and succeeds.
    /// - Throws: `SaveError.conflicts` (policy `.error`, nothing written), `.readOnly`, `.sqlite` (e.g. busy),
    ///   `.store(.deleteDenied)` for a deleted object whose `deny` relationship still holds objects.
    @discardableResult
    public func save() throws(SaveError) -> SaveResult {
        guard hasChanges else { return .empty(name) }
        if let parent { return try pushToParent(parent) }
        if let reason = core.readOnlyReason { throw .readOnly(reason: reason) }
        let inserts = objects.inserted
        let updates = updatedSet.sorted().compactMap { objects[$0] }
            .filter { $0.hasUpdates && !$0.isInserted && !$0.isDeleted }
        let deletes = deletedOrder.compactMap { objects[$0] }
        var orders: [OrderWrite] = []
        do throws(StoreError) {
            // Validation before any write: a deleted object whose `deny` relationship still holds objects.
            if let denied = try deniedDeletes().first {
                throw StoreError.deleteDenied(denied.object, relationship: denied.relationship, held: denied.held)
            }
            // The save needs each object's version: edited or deleted faults fire first.
            for object in updates + deletes where object.isFault {
                _ = try fired(object.id, core.model.entities[object.entity])
            }
            // Validation of what is saved: each inserted or updated object's required to-ones hold an object.
            if let missing = missingMandatory(inserts + updates) {
                throw StoreError.missingMandatory(missing.object, relationship: missing.relationship)
            }
            orders = try orderWrites(inserts + updates)
        } catch {
            throw .store(error)
        }
        // The transaction's writes do not retain their objects: these arrays do, until they are applied.
        return try withExtendedLifetime((inserts, updates, deletes)) { () throws(SaveError) -> SaveResult in
            var transaction = SaveTransaction(core: core, contextName: name, author: transactionAuthor,
                                              policy: mergePolicy)
            try transaction.run(inserts: inserts, temporaryKeys: objects.insertedKeys,
                                entities: objects.insertedEntities, updates: updates, deletes: deletes, orders: orders)
            return apply(&transaction)
        }
    }

    /// The ordered to-many lists of the objects a save inserts or whose relationships changed, as this
    /// context holds them: their members' order keys are written with the save.
    private func orderWrites(_ saved: [ManagedObject]) throws(StoreError) -> [OrderWrite] {
        guard core.model.hasOrderedRelationships else { return [] }
        var result: [OrderWrite] = []
        for object in saved where object.isInserted || object.touched || !object.orders.isEmpty {
            for relationship in core.model.entities[object.entity].relationships where relationship.orderColumn != nil {
                let members = try relatedObjects(of: object.id, via: relationship.name).map(\.primaryKey)
                result.append(OrderWrite(owner: object.id.primaryKey, relationship: relationship, members: members))
            }
        }
        return result
    }

    private func apply(_ transaction: inout SaveTransaction) -> SaveResult {
        let now = core.clock.now
        let detailed = core.eventSink != nil || !core.didSaveObservers.isEmpty || core.contexts.count > 1
        // Observed saves build their changes now (events carry them); others keep compact records.
        var changes: [CommittedChange] = []
        var compact: [SaveRecord.Compact] = []
        if detailed {
            changes.reserveCapacity(transaction.writes.count)
        } else {
            compact.reserveCapacity(transaction.writes.count)
        }
        var counts = [Int](repeating: 0, count: core.model.entities.count)
        if transaction.insertCount > 0 {
            // Every unsaved insert was saved.
            for entity in objects.insertedEntities { counts[entity] += 1 }
            for (entity, count) in counts.enumerated() where count > 0 {
                core.rows[entity].reserveCapacity(core.rows[entity].count + count)
                objects.reserveCapacity(count, entity: entity)
            }
        }
        var removed: Set<ObjectID> = []
        // Which entities the save wrote, by index: a flag per entity, not a set insert per row.
        var written = [Bool](repeating: false, count: core.model.entities.count)
        // Inserts a constraint conflict made into existing rows: temporary -> permanent IDs are then given whole.
        let upserted = transaction.conflicts.contains { $0.constraint != nil }
        var permanentIDs: [ObjectID: ObjectID] = [:]
        // The writes are read in place and their values moved out (into the row cache): copying each write
        // would retain and release its values, whose header is no longer in the cache after a large save.
        var writes: [SaveWrite] = []
        swap(&writes, &transaction.writes)
        writes.withUnsafeMutableBufferPointer { writes in
            for i in writes.indices {
                unowned(unsafe) let object = writes[i].object
                unowned(unsafe) let entity = writes[i].entity
                written[entity.index] = true
                let version = writes[i].version
                var values: [Value] = []
                swap(&values, &writes[i].values)
                switch writes[i].kind {
                case .committed(let operation):
                    if operation == .insert || object.isInserted {
                        // An insert, or one a constraint conflict made an update of an existing row.
                        // Re-registered under its permanent ID, as obtainPermanentIDs does.
                        let permanent = core.objectID(entity, writes[i].primaryKey)
                        if upserted { permanentIDs[object.id] = permanent }
                        objects.reregister(object, as: permanent, entity: entity.index)
                        object.isInserted = false
                    }
                    if detailed {
                        changes.append(CommittedChange(object: object.id, operation: operation, version: version,
                                                       values: operation == .delete ? .init()
                                                           : core.namedValues(entity, values)))
                    } else {
                        compact.append(SaveRecord.Compact(entity: entity.index, operation: operation,
                                                          primaryKey: object.id.primaryKey, version: version))
                    }
                    if operation == .delete {
                        objects[object.id] = nil
                        removed.insert(object.id)
                        core.committedDeletes.insert(object.id)
                        core.dropSnapshot(object.id, entity: entity.index, reason: .deleted)
                    } else {
                        // An insert's values are the object's own unless the save resolved a temporary key.
                        if operation != .insert || entity.hasToOneSlots { object.values = values }
                        object.version = version
                        object.isFault = false
                        object.clearChanges()
                        core.store(RowSnapshot(values: values, version: version, readAt: now),
                                   entity.index, object.id.primaryKey)
                    }
                case .tookStore(let undelete):
                    if object.isInserted {
                        // An insert whose constraint conflict kept the store's row: it becomes that row.
                        let permanent = core.objectID(entity, writes[i].primaryKey)
                        permanentIDs[object.id] = permanent
                        objects.reregister(object, as: permanent, entity: entity.index)
                        object.isInserted = false
                    }
                    if undelete { object.isDeleted = false }
                    object.values = values
                    object.version = version
                    object.isFault = false
                    object.clearChanges()
                    core.store(RowSnapshot(values: values, version: version, readAt: now),
                               entity.index, object.id.primaryKey)
                case .vanished:
                    objects[object.id] = nil
                    removed.insert(object.id)
                    core.dropSnapshot(object.id, entity: entity.index, reason: .rowGone)
                }
            }
        }
        if !transaction.mapping.isEmpty {
            objects.removeAllInserted()
            screen.remap(transaction.mapping)
            remapTemporaryKeys(transaction.mapping)
        }
        forgetToMany(afterWritingTo: written)
        screen.remove(removed)
        deletedOrder.removeAll()
        deletedSet.removeAll()
        updatedSet.removeAll()
        if let token = transaction.historyToken { core.lastOwnToken = token }
        advanceGeneration()
        for conflict in transaction.conflicts { core.emit(.conflict(context: name, conflict)) }
        core.emit(.saveCommitted(context: name, changes: changes, historyToken: transaction.historyToken))
        let record = detailed
            ? SaveRecord(changes: changes, temporaryKeys: transaction.mapping.temporary)
            : SaveRecord(compact: compact, model: core.model, store: core.store,
                         temporaryKeys: transaction.mapping.temporary)
        if upserted { record.givenPermanentIDs = permanentIDs }
        let result = SaveResult(context: name, record: record, conflicts: transaction.conflicts,
                                historyToken: transaction.historyToken)
        let event = detailed && !changes.isEmpty ? DidSaveEvent(context: name, changes: changes) : nil
        if let event {
            // Contexts on the coordinator take the save; children take it from their parent, below.
            for context in core.liveContexts() where context !== self && context.parent == nil
                && context.automaticallyMergesChangesFromParent {
                context.mergeChanges(fromContextDidSave: event)
            }
            for observer in core.didSaveObservers { observer(event) }
        }
        passSaveToChildren(transaction.mapping, event)
        return result
    }

    /// A save changes the contents of the to-many relationships owned by, or pointing into, the entities it
    /// wrote: this context's fired ones and the cached ones are read again (Core Data updates both ends of
    /// a relationship in the saving context; re-reading gives the same answer).
    private func forgetToMany(afterWritingTo written: [Bool]) {
        guard core.model.hasToManyRelationships else { return }
        var affected = Set<ToManyKey.Relationship>()
        let model = core.model
        // An entity counts as written when one of its kinds was: a to-many into it may hold a sub-entity's.
        let writtenKind = model.hasInheritance
            ? model.entities.map { entity in written.indices.contains { written[$0] && model.isKind($0, of: entity) } }
            : written
        for entity in model.entities {
            for (index, relationship) in entity.relationships.enumerated() where relationship.isToMany
                && (written[entity.index] || writtenKind[relationship.destination]) {
                affected.insert(ToManyKey.Relationship(entity: entity.index, index: index))
            }
        }
        guard !affected.isEmpty else { return }
        core.dropToMany(affected)
        guard hasFiredToMany else { return }
        for object in objects.values where object.toMany != nil {
            for index in object.toMany!.keys where affected.contains(ToManyKey.Relationship(entity: object.entity, index: index)) {
                object.toMany![index] = nil
            }
        }
    }

    /// Other objects of this context may hold a just-saved object's temporary key in a to-one slot.
    func remapTemporaryKeys(_ mapping: TemporaryKeyMap) {
        for entity in core.model.entities where entity.slots.count > entity.attributeCount {
            for object in objects.values(entity: entity.index) where !object.isFault {
                for slot in entity.attributeCount..<entity.slots.count {
                    if case .int(let key) = object.values[slot], key < 0, let permanent = mapping[key] {
                        object.values[slot] = .int(permanent)
                    }
                    if case .int(let key) = object.changes[slot], key < 0, let permanent = mapping[key] {
                        object.changes[slot] = .int(permanent)
                    }
                }
            }
        }
    }
}
