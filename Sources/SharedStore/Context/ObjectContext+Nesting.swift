import Basics
import Foundation

// Nested contexts, after Apple's documentation of `NSManagedObjectContext.parent` and of saving
// ("changes are only committed one store up. If you save a child context, changes are pushed to its
// parent. These changes are not saved to the persistent store until the root context is saved"):
// - a child's faults fire from what its parent holds now (the parent's unsaved changes included), and a
//   child's fetch runs through its parent, seeing the parent's unsaved inserts, edits and deletes;
// - a child's save copies its inserts, changed properties and deletes into the parent and writes nothing;
//   the child's values win, without optimistic locking (the parent's version of the object is what the
//   store save later checks);
// - a child takes its parent's saves only with `automaticallyMergesChangesFromParent`; what the parent
//   merges from elsewhere, or another child pushes into it, reaches the child when its objects fire again.

extension ObjectContext {
    /// A new context whose parent is this one (Core Data's `NSManagedObjectContext` with `parent` set): it
    /// reads through this context and saves into it. It takes this context's staleness, merge policy,
    /// author and `shouldDeleteInaccessibleFaults`, and merges nothing automatically.
    public func newChildContext(name: String) -> ObjectContext {
        let child = ObjectContext(core: core, name: name, isViewContext: false, parent: self)
        child.transactionAuthor = transactionAuthor
        child.stalenessInterval = stalenessInterval
        child.mergePolicy = mergePolicy
        child.shouldDeleteInaccessibleFaults = shouldDeleteInaccessibleFaults
        return child
    }

    /// Whether `id` is registered here or in an ancestor: a temporary ID is reachable only there.
    public func canReach(_ id: ObjectID) -> Bool {
        objects[id] != nil || parent?.canReach(id) == true
    }

    /// Whether `ancestor` is this context's parent, or its parent's, and so on.
    func descends(from ancestor: ObjectContext) -> Bool {
        var context = parent
        while let current = context {
            if current === ancestor { return true }
            context = current.parent
        }
        return false
    }

    /// What this context holds for `id` now, for a child's firing fault: its values with its pending
    /// changes, read (and registered here) first when needed; `nil` when it is deleted here, or gone.
    func snapshot(forChild id: ObjectID, _ info: EntityInfo) throws(StoreError) -> RowSnapshot? {
        if id.isTemporary && objects[id] == nil {
            // Not inserted here: an ancestor's insert, or nobody's.
            return try parent?.snapshot(forChild: id, info)
        }
        let object = try fired(id, info)
        guard !object.isDeleted, !object.isInaccessible else { return nil }
        return RowSnapshot(values: object.current, version: object.version, readAt: core.clock.now)
    }

    /// A child's fetch: its parent's results (the parent's own unsaved changes applied, nothing shown in
    /// the parent's view), registered here; this context's pending changes are applied by the caller.
    func fetchThroughParent(_ parent: ObjectContext, _ request: FetchRequest, _ info: EntityInfo)
        throws(StoreError) -> [ObjectID]
    {
        var upward = request
        upward.includesPendingChanges = true
        let found = try parent.results(of: upward)
        var ids: [ObjectID] = []
        ids.reserveCapacity(found.count)
        for id in found {
            if request.includesPendingChanges && deletedSet.contains(id) { continue }
            // The object's own entity: a fetch of a parent entity finds its sub-entities' objects too.
            guard let info = id.entity == info.name ? info : try? entityInfo(of: id) else { continue }
            if let object = objects[id] {
                if object.isFault ? !request.returnsObjectsAsFaults : (shouldRefreshRefetchedObjects || request.shouldRefreshRefetchedObjects),
                   let snapshot = try parent.snapshot(forChild: id, info) {
                    fill(object, with: snapshot)
                }
            } else {
                let object = register(id, entity: info.index)
                if !request.returnsObjectsAsFaults, let snapshot = try parent.snapshot(forChild: id, info) {
                    fill(object, with: snapshot)
                }
            }
            ids.append(id)
        }
        return ids
    }

    /// A child's save: its inserts, changed properties and deletes move into the parent, which now holds
    /// them as its own unsaved changes; the child keeps the values it saved, as clean objects.
    func pushToParent(_ parent: ObjectContext) throws(SaveError) -> SaveResult {
        let updates = updatedSet.sorted().compactMap { objects[$0] }.filter { $0.hasUpdates && !$0.isDeleted }
        // Every object the save changes must be there to change before anything moves.
        let targets: [ManagedObject]
        do {
            targets = try updates.map { object throws(StoreError) in try parent.editable(object.id) }
            for id in deletedOrder { _ = try parent.object(for: id) }
        } catch {
            throw .store(error)
        }
        var changes: [CommittedChange] = []
        for object in objects.inserted {
            let copy = ManagedObject(id: object.id, entity: object.entity, isFault: false, values: object.values, version: 0)
            copy.isInserted = true
            copy.joinAdds = object.joinAdds
            copy.orders = object.orders
            parent.objects.insertPushed(copy)
            parent.screen.addInserted(object.id)
            parent.noteChanged(object.id)
            changes.append(change(object, .insert))
        }
        for (object, target) in zip(updates, targets) {
            parent.take(object, into: target)
            changes.append(change(object, .update))
        }
        for id in deletedOrder {
            do { try parent.delete(id) } catch { throw .store(error) }
            changes.append(CommittedChange(object: id, operation: .delete, version: 0, values: [:]))
        }
        // The child's objects are clean now: what it saved is what it holds.
        for object in objects.inserted {
            object.isInserted = false
            objects.reregister(object, as: object.id, entity: object.entity)
        }
        objects.removeAllInserted()
        for object in updates {
            object.values = object.current
            object.clearChanges()
            object.toMany = nil
        }
        for id in deletedOrder { objects[id] = nil }
        screen.remove(deletedSet)
        deletedOrder.removeAll()
        deletedSet.removeAll()
        updatedSet.removeAll()
        // Children that merge automatically take the save: their objects fire again from this context (the
        // row cache still holds the values from before the save).
        for context in core.liveContexts() where context.parent === self && context.automaticallyMergesChangesFromParent {
            context.mergePush(changes)
        }
        return SaveResult(context: name, record: SaveRecord(changes: changes, temporaryKeys: []), conflicts: [],
                          historyToken: nil, savedInto: parent.name)
    }

    /// Takes a save its parent received from another child: updated objects become faults (keeping this
    /// context's own pending changes) so they fire from the parent, inserted ones join the view, deleted ones
    /// leave it.
    private func mergePush(_ changes: [CommittedChange]) {
        for change in changes where change.operation != .update || objects[change.object] != nil { noteChanged(change.object) }
        for change in changes {
            switch change.operation {
            case .update:
                objects[change.object]?.makeFault(keepChanges: true)
            case .insert:
                guard let info = try? entityInfo(of: change.object) else { continue }
                _ = register(change.object, entity: info.index)
                screen.add(change.object)
            case .delete:
                break
            }
        }
        removeDeleted(changes.filter { $0.operation == .delete }.map(\.object), dropSnapshots: false)
    }

    private func change(_ object: ManagedObject, _ operation: ChangeOperation) -> CommittedChange {
        let info = core.model.entities[object.entity]
        return CommittedChange(object: object.id, operation: operation, version: object.version,
                               values: core.namedValues(info, object.current))
    }

    /// Takes a child's pending changes of one object over this context's `target`: its changed slots, its
    /// join-table changes, and that a relationship of it changed.
    private func take(_ object: ManagedObject, into target: ManagedObject) {
        for (slot, value) in object.changes { store(value, slot: slot, of: target) }
        if object.touched && !target.isInserted { target.touched = true }
        for (index, keys) in object.orders { target.orders[index] = keys }
        for (index, keys) in object.joinAdds {
            for key in keys {
                if target.joinRemoves[index]?.contains(key) == true {
                    target.joinRemoves[index]!.removeAll { $0 == key }
                } else if target.joinAdds[index]?.contains(key) != true {
                    target.joinAdds[index, default: []].append(key)
                }
            }
        }
        for (index, keys) in object.joinRemoves {
            for key in keys {
                if target.joinAdds[index]?.contains(key) == true {
                    target.joinAdds[index]!.removeAll { $0 == key }
                } else if target.joinRemoves[index]?.contains(key) != true {
                    target.joinRemoves[index, default: []].append(key)
                }
            }
        }
        markUpdated(target)
    }

    /// After this context saved to the store: its descendants hold objects it pushed or they reached under
    /// temporary IDs; they take the permanent IDs (a choice: Core Data leaves a child's objects with
    /// their temporary IDs until it asks for permanent ones, which the harness's names could not follow).
    /// Children that merge automatically take the save.
    func passSaveToChildren(_ mapping: TemporaryKeyMap, _ event: DidSaveEvent?) {
        for context in core.liveContexts() where context.descends(from: self) {
            if !mapping.isEmpty { context.adoptPermanentKeys(mapping) }
            context.catchUpVersions()
            if let event, context.parent === self, context.automaticallyMergesChangesFromParent {
                context.mergeChanges(fromContextDidSave: event)
            }
        }
    }

    /// A clean object of this child whose values are the ones just saved to the store (what it pushed, or
    /// fired with) is of that version now: a later edit of it is based on it. One that holds other values
    /// keeps the older version it read (it is stale).
    private func catchUpVersions() {
        for object in objects.values where !object.isFault && !object.isInserted && !object.hasUpdates && !object.id.isTemporary {
            guard let snapshot = core.snapshot(object.entity, object.id.primaryKey), snapshot.version > object.version,
                  snapshot.values == object.values else { continue }
            object.version = snapshot.version
        }
    }

    private func adoptPermanentKeys(_ mapping: TemporaryKeyMap) {
        for info in core.model.entities {
            let moved = objects.values(entity: info.index).filter { !$0.isInserted && mapping[$0.id.primaryKey] != nil }
            for object in moved {
                objects[object.id] = nil
                let id = core.objectID(info, mapping[object.id.primaryKey]!)
                object.id = id
                objects[id] = object
            }
        }
        for object in objects.values {
            for (index, keys) in object.joinAdds { object.joinAdds[index] = keys.map { mapping[$0] ?? $0 } }
            for (index, keys) in object.joinRemoves { object.joinRemoves[index] = keys.map { mapping[$0] ?? $0 } }
            if let toMany = object.toMany { object.toMany = toMany.mapValues { $0.map { mapping[$0] ?? $0 } } }
        }
        screen.remap(mapping)
        remapTemporaryKeys(mapping)
        // Pending edits and deletes of the objects it pushed (clean in the parent by now) follow them.
        func permanent(_ id: ObjectID) -> ObjectID {
            guard id.isTemporary, let key = mapping[id.primaryKey], let info = try? entityInfo(of: id) else { return id }
            return core.objectID(info, key)
        }
        updatedSet = Set(updatedSet.map(permanent))
        deletedOrder = deletedOrder.map(permanent)
        deletedSet = Set(deletedOrder)
    }
}
