import Basics
import Foundation

extension ObjectContext {
    /// Runs a fetch against the store and shows its results in the view, replacing the list this same fetch
    /// showed before.
    ///
    /// Every fetched row refreshes the row cache. Objects already registered keep their in-memory values
    /// unless `shouldRefreshRefetchedObjects` is true (Core Data's behavior); new ones are registered as
    /// faults (or filled, with `returnsObjectsAsFaults` false). With `includesPendingChanges` (the
    /// default) the predicate sees this context's unsaved edits, as Core Data's does: an edited object is
    /// matched by its in-memory values, not its row's; unsaved inserts that match are appended and
    /// pending deletes are left out.
    /// - Returns: the objects, in sort order (unsaved inserts appended).
    /// - Throws: `StoreError.unknownEntity`, `.invalidPredicate` (with the column), `.sqlite`.
    ///
    /// A child context's fetch runs through its parent (see `newChildContext(name:)`): its results are
    /// what the parent would fetch with its own unsaved changes, then this context's.
    @discardableResult
    public func fetch(_ request: FetchRequest) throws(StoreError) -> [ObjectID] {
        let ids = try results(of: request)
        let before = screen.lists[request.viewKey]
        screen.setList(request.viewKey, ids)
        // A fetch of every object of the entity shows what the store holds of it: it takes over the objects
        // shown outside lists (merged in, reached by ID, saved inserts). A filtered or limited one lists
        // some of them only, and leaves the others where they were; but an object its list held before
        // and no longer does (its row deleted, or it no longer matches, or fell past the limit) has left
        // the screen, whatever first brought it there (a saved insert of this context, say): unsaved
        // inserts aside, as `includesPendingChanges` keeps them.
        if request.resolvesEveryObject {
            screen.removeExtras(entities: request.includesSubentities ? core.model.kindNames(of: request.entity) : [request.entity],
                                keeping: Set(objects.inserted.lazy.map(\.id)))
        } else if let before, !before.isEmpty {
            let now = Set(ids)
            let dropped = Set(before.lazy.filter { !$0.isTemporary && !now.contains($0) })
            if !dropped.isEmpty { screen.removeExtras(dropped) }
        }
        // After the list's bookkeeping: what the prefetch reaches is shown even if it just left the list.
        if !request.relationshipKeyPathsForPrefetching.isEmpty {
            try prefetch(request.relationshipKeyPathsForPrefetching, from: ids)
        }
        return ids
    }

    /// The objects `request` finds, registered here, without changing the view.
    func results(of request: FetchRequest) throws(StoreError) -> [ObjectID] {
        let info = try core.model.entity(named: request.entity)
        var predicate: FetchPredicate?
        var whereClause: String?
        var arguments: [Value] = []
        let orderBy: String
        do {
            predicate = try request.resolvedPredicate(info, model: core.model)
            if let predicate { (whereClause, arguments) = try PredicateSQL.whereClause(predicate, info, model: core.model) }
            orderBy = PredicateSQL.orderBy(try request.resolvedSort(info), info)
        } catch {
            throw .invalidPredicate(error)
        }
        var ids: [ObjectID]
        if let parent {
            ids = try fetchThroughParent(parent, request, info)
        } else {
            ids = try storeResults(request, info, whereClause, arguments, orderBy)
        }
        if request.includesPendingChanges, let predicate {
            ids = matchingUnsavedEdits(ids, info, predicate, subentities: request.includesSubentities)
        }
        if request.includesPendingChanges {
            for object in objects.inserted where request.includesSubentities ? core.model.isKind(object.entity, of: info) : object.entity == info.index {
                let id = object.id
                if let predicate, !(predicate.followsRelationships ? matches(predicate, id)
                    : predicate.evaluate(core.namedValues(core.model.entities[object.entity], object.values))) { continue }
                ids.append(id)
            }
        }
        // The limit bounds the results, pending changes included (the SQL took at most as many rows).
        if let limit = request.fetchLimit, ids.count > limit { ids.removeLast(ids.count - limit) }
        return ids
    }

    /// The rows `request` selects in the store, registered here (pending deletes left out when the request
    /// includes pending changes), each refreshing the row cache.
    private func storeResults(_ request: FetchRequest, _ info: EntityInfo, _ whereClause: String?,
                              _ arguments: [Value], _ orderBy: String) throws(StoreError) -> [ObjectID] {
        try ensurePinned()
        var rows = try core.readRows(info, where: whereClause, arguments: arguments, orderBy: orderBy,
                                     limit: request.fetchLimit, includingSubentities: request.includesSubentities, on: connection)
        core.emit(.sqlRead(entity: info.name, rowCount: rows.count, context: name))
        let cache = !generation.isPinned
        var ids: [ObjectID] = []
        ids.reserveCapacity(rows.count)
        if cache { core.rows[info.index].reserveCapacity(core.rows[info.index].count + rows.count) }
        objects.reserveCapacity(rows.count, entity: info.index)
        let entities = core.model.entities
        // Each row's snapshot is moved out of the array into the row cache (no copy to retain and release).
        rows.withUnsafeMutableBufferPointer { rows in
            for i in rows.indices {
                let primaryKey = rows[i].primaryKey
                // The row's own entity: a fetch of a parent entity returns its sub-entities' objects too.
                let own = rows[i].entity == info.index ? info : entities[rows[i].entity]
                var snapshot = RowSnapshot(values: [], version: 0, readAt: .distantPast)
                swap(&snapshot, &rows[i].snapshot)
                let id = core.objectID(own, primaryKey)
                if !(request.includesPendingChanges && !deletedSet.isEmpty && deletedSet.contains(id)) {
                    if let object = objects[entity: own.index, primaryKey] {
                        if object.isFault ? !request.returnsObjectsAsFaults : (shouldRefreshRefetchedObjects || request.shouldRefreshRefetchedObjects) {
                            fill(object, with: snapshot)
                        }
                    } else {
                        let object = ManagedObject(id: id, entity: own.index, isFault: request.returnsObjectsAsFaults,
                                                   values: request.returnsObjectsAsFaults ? [] : snapshot.values,
                                                   version: request.returnsObjectsAsFaults ? 0 : snapshot.version)
                        objects[entity: own.index, primaryKey] = object
                    }
                    ids.append(id)
                }
                if cache { core.store(snapshot, own.index, primaryKey) }
            }
        }
        return ids
    }

    /// Core Data evaluates a fetch's predicate against an edited object's unsaved values: an object
    /// whose unsaved edits match joins the results even when its stored row does not, and one whose
    /// edits no longer match leaves them even when its row does.
    private func matchingUnsavedEdits(_ ids: [ObjectID], _ info: EntityInfo, _ predicate: FetchPredicate,
                                      subentities: Bool) -> [ObjectID] {
        let edited = updatedSet.filter { id in
            objects[id].map { $0.hasUpdates && (subentities ? core.model.isKind($0.entity, of: info) : $0.entity == info.index) } ?? false
        }
        guard !edited.isEmpty else { return ids }
        func matches(_ id: ObjectID) -> Bool { self.matches(predicate, id) }
        var result = ids.filter { !edited.contains($0) || matches($0) }
        let fetched = Set(ids)
        for id in edited.sorted() where !fetched.contains(id) && !isDeleted(id) && matches(id) { result.append(id) }
        return result
    }

    /// How many objects of the view `where` matches (all when `nil`); evaluating a predicate fires faults.
    public func countInView(entity: String, where predicate: String? = nil) throws(StoreError) -> Int {
        let ids = viewObjects(entity: entity)
        guard let predicate else { return ids.count }
        let info = try core.model.entity(named: entity)
        let parsed: FetchPredicate
        do { parsed = try FetchPredicate(parsing: predicate, entity: StoreEntitySchema(model: core.model, entity: info)) } catch {
            throw .invalidPredicate(error)
        }
        var count = 0
        for id in ids {
            _ = try values(of: id)
            if matches(parsed, id) { count += 1 }
        }
        return count
    }

    /// Whether the object matches `predicate` by the values this context has for it (firing its fault),
    /// and, for a key path, the values of the objects its relationships hold here (firing theirs); false
    /// for an object whose values cannot be read.
    public func matches(_ predicate: FetchPredicate, _ id: ObjectID) -> Bool {
        guard let values = try? values(of: id) else { return false }
        guard predicate.followsRelationships else { return predicate.evaluate(values) }
        return predicate.evaluate(values) { relationship in self.predicateObjects(related: id, via: relationship) }
    }

    /// The objects `relationship` of `id` holds here, with their values (firing their faults) and their
    /// own relationships, for a key path; those whose values cannot be read are left out.
    private func predicateObjects(related id: ObjectID, via relationship: String) -> [PredicateObject] {
        ((try? relatedObjects(of: id, via: relationship)) ?? []).compactMap { other in
            guard let values = try? values(of: other) else { return nil }
            return PredicateObject(values: values) { next in self.predicateObjects(related: other, via: next) }
        }
    }
}
