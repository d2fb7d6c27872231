import Basics
import Foundation

extension ObjectContext {
    /// The object's attribute values (to-one relationships are not included), firing its fault if needed.
    ///
    /// A firing fault reuses the row cache's snapshot unless it is older than `stalenessInterval`
    /// (or the view context is pinned to a query generation, which reads its snapshot); otherwise it reads SQL.
    /// A child context's fault takes what its parent holds now, the parent's unsaved changes included.
    /// - Throws: `StoreError.notFound` when the row is gone and `shouldDeleteInaccessibleFaults` is false.
    public func values(of id: ObjectID) throws(StoreError) -> [String: Value] {
        let info = try entityInfo(of: id)
        let object = try fired(id, info)
        let current = object.current
        var result: [String: Value] = [:]
        for i in 0..<info.attributeCount { result[info.slots[i].name] = current[i] }
        return result
    }

    /// One attribute of the object, firing its fault if needed.
    public func value(_ key: String, of id: ObjectID) throws(StoreError) -> Value {
        let info = try entityInfo(of: id)
        let slot = try info.attributeSlot(key)
        let object = try fired(id, info)
        return object.hasValueChanges ? object.current[slot] : object.values[slot]
    }

    /// The object registered for `id`, reading its row when it is not registered (Core Data's
    /// `existingObject(with:)`); the object joins the view. Like a firing fault, it takes the row cache's
    /// snapshot when `stalenessInterval` allows ("might perform I/O if the data is uncached"), so a
    /// context of a process whose other contexts cached the row sees what they saw.
    /// - Throws: `StoreError.notFound` when the row is gone (and not cached).
    @discardableResult
    public func existingObject(with id: ObjectID) throws(StoreError) -> ObjectID {
        let info = try entityInfo(of: id)
        if let object = objects[id] {
            guard !object.isDeleted, !object.isInaccessible else { throw .notFound(id) }
            screen.add(id)
            return id
        }
        let snapshot: RowSnapshot?
        if let parent {
            guard parent.canReach(id) || !id.isTemporary else {
                throw .invalidObjectID(id, reason: "a temporary ID of another context")
            }
            snapshot = try parent.snapshot(forChild: id, info)
        } else {
            guard !id.isTemporary else { throw .invalidObjectID(id, reason: "a temporary ID of another context") }
            if !generation.isPinned, let cached = core.snapshot(info.index, id.primaryKey), isFresh(cached) {
                let version = cached.version
                let object = register(id, entity: info.index)
                fill(object, with: cached)
                core.emit(.faultFulfilled(object: id, source: .cache, version: version, context: name))
                screen.add(id)
                return id
            }
            snapshot = try readFromStore(id, info)
        }
        guard let snapshot else { throw .notFound(id) }
        let object = register(id, entity: info.index)
        fill(object, with: snapshot)
        screen.add(id)
        return id
    }

    /// Registers `id` as a fault without reading anything (Core Data's `object(with:)`).
    public func registerFault(_ id: ObjectID) throws(StoreError) {
        let info = try entityInfo(of: id)
        _ = register(id, entity: info.index)
    }

    /// The registered object with its values in memory: fires the fault when it is one.
    func fired(_ id: ObjectID, _ info: EntityInfo) throws(StoreError) -> ManagedObject {
        assert(id.store == core.store && id.entity == info.name)
        let object = objects[entity: info.index, id.primaryKey] ?? register(id, entity: info.index)
        guard object.isFault else { return object }
        let source: FaultSource
        let snapshot: RowSnapshot?
        if let parent {
            snapshot = try parent.snapshot(forChild: id, info)
            source = .parentContext
        } else if generation.isPinned {
            try ensurePinned()
            snapshot = try readFromStore(id, info)
            source = .pinnedGeneration
        } else if let cached = core.snapshot(info.index, id.primaryKey), isFresh(cached) {
            snapshot = cached
            source = .cache
        } else {
            try ensurePinned()
            snapshot = try readFromStore(id, info)
            source = .sql
        }
        guard let snapshot else {
            if parent == nil { core.dropSnapshot(id, entity: info.index, reason: .rowGone) }
            guard shouldDeleteInaccessibleFaults else { throw .notFound(id) }
            object.values = info.slots.map { $0.isOptional ? .null : $0.defaultValue }
            object.version = 0
            object.isFault = false
            object.isInaccessible = true
            return object
        }
        let version = snapshot.version
        fill(object, with: snapshot)
        core.emit(.faultFulfilled(object: id, source: source, version: version, context: name))
        return object
    }

    func isFresh(_ snapshot: RowSnapshot) -> Bool {
        isFresh(readAt: snapshot.readAt)
    }

    /// Whether cached data read at `readAt` may fulfil a fault, by `stalenessInterval`.
    func isFresh(readAt: Date) -> Bool {
        if stalenessInterval < 0 { return true }
        if stalenessInterval == 0 { return false }
        return core.clock.now.timeIntervalSince(readAt) <= stalenessInterval
    }

    func fill(_ object: ManagedObject, with snapshot: consuming RowSnapshot) {
        // A row read again takes its to-many contents with it (`shouldRefreshRefetchedObjects` included).
        object.toMany = nil
        object.values = snapshot.values
        object.version = snapshot.version
        object.isFault = false
        object.isInaccessible = false
    }

    /// Reads one row through this context's connection, caching it (unless read inside a pinned
    /// generation, whose snapshot may be older than the cache's).
    func readFromStore(_ id: ObjectID, _ info: EntityInfo) throws(StoreError) -> RowSnapshot? {
        try ensurePinned()
        let snapshot = try core.readRow(info, id.primaryKey, on: connection)
        core.emit(.sqlRead(entity: info.name, rowCount: snapshot == nil ? 0 : 1, context: name))
        if let snapshot, !generation.isPinned { core.store(snapshot, info.index, id.primaryKey) }
        return snapshot
    }
}
