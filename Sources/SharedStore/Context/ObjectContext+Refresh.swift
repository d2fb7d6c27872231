extension ObjectContext {
    /// Turns a registered object into a fault (Core Data's `refresh(_:mergeChanges:)`).
    ///
    /// With `mergeChanges` true its pending changes are kept and re-applied over the values it reads when
    /// it fires; with false they are discarded. The next access reads the row cache or SQL by the
    /// staleness rules. An unregistered object is left alone.
    public func refresh(_ id: ObjectID, mergeChanges: Bool) {
        guard let object = objects[id], !object.isInserted else { return }
        noteChanged(id)
        object.makeFault(keepChanges: mergeChanges)
        if !mergeChanges { updatedSet.remove(id) }
    }

    /// Refreshes every registered object, keeping pending changes (Core Data's `refreshAllObjects()`):
    /// clean objects become faults, edited ones keep their edits. Objects never fetched are not added.
    public func refreshAllObjects() {
        for object in objects.values where !object.isInserted {
            noteChanged(object.id)
            object.makeFault(keepChanges: true)
        }
    }

    /// Forgets every registered object and pending change, and empties the view: a reset context shows
    /// nothing until it fetches again. Advances a pinned query generation.
    public func reset() {
        objects.removeAll()
        deletedOrder.removeAll()
        deletedSet.removeAll()
        updatedSet.removeAll()
        screen.clear()
        advanceGeneration()
    }

    /// Discards pending changes: inserts are forgotten (and leave the view), deletes undone, updated
    /// objects return to the values they last read.
    public func rollback() {
        let inserted = objects.inserted.map(\.id)
        if logsProcessedChanges {
            for id in inserted + deletedOrder + updatedSet.sorted() { noteChanged(id) }
        }
        objects.removeAllInserted()
        screen.remove(Set(inserted))
        for id in deletedOrder { objects[id]?.isDeleted = false }
        for object in objects.values { object.clearChanges() }
        deletedOrder.removeAll()
        deletedSet.removeAll()
        updatedSet.removeAll()
    }
}
