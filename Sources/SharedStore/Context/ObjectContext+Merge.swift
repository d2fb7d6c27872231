/// Object IDs changed by another process (what its did-save notification or a history transaction carries).
public struct RemoteChanges: Sendable, Hashable {
    /// Objects inserted elsewhere.
    public var inserted: [ObjectID]
    /// Objects updated elsewhere.
    public var updated: [ObjectID]
    /// Objects deleted elsewhere.
    public var deleted: [ObjectID]

    /// Creates a change set.
    public init(inserted: [ObjectID] = [], updated: [ObjectID] = [], deleted: [ObjectID] = []) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}

extension ObjectContext {
    /// Merges another process's changes (Core Data's `mergeChanges(fromRemoteContextSave:into:)`).
    ///
    /// Updated objects: the row snapshot is dropped and a registered object becomes a fault (keeping its
    /// pending changes), so its next access reads SQL whatever the staleness. Inserted objects are registered
    /// as faults ("faulted in") and join the view; one already registered (this process's own insert, merged
    /// back from history) keeps what it holds, as `object(with:)` returns it unchanged. Deleted objects leave
    /// the view and the context. An insert of an object this process has since deleted and saved (a
    /// transaction older than the delete, fetched after it from an earlier token: the first merge of a
    /// process launched without one) does not bring it back: its row is gone, and Core Data deletes a
    /// fault whose row is gone when it fires (`shouldDeleteInaccessibleFaults`). Advances a pinned
    /// generation, when there is something to merge: an app merges history transaction by transaction, so a
    /// fetch that kept none merges nothing, and moves nothing.
    public func mergeChanges(fromRemoteContextSave changes: RemoteChanges) {
        guard !(changes.updated.isEmpty && changes.inserted.isEmpty && changes.deleted.isEmpty) else { return }
        var changes = changes
        if !core.committedDeletes.isEmpty { changes.inserted.removeAll { core.committedDeletes.contains($0) } }
        if logsProcessedChanges {
            // Updated objects this context holds are refreshed (and so processed); inserted ones join it.
            for id in changes.updated where objects[id] != nil { noteChanged(id) }
            for id in changes.inserted + changes.deleted { noteChanged(id) }
        }
        for id in changes.updated {
            guard let info = try? entityInfo(of: id) else { continue }
            core.dropSnapshot(id, entity: info.index, reason: .remoteMerge)
            if let object = objects[id] { object.makeFault(keepChanges: true) }
        }
        for id in changes.inserted {
            guard let info = try? entityInfo(of: id) else { continue }
            if objects[id] == nil { _ = register(id, entity: info.index) }
            screen.add(id)
        }
        removeDeleted(changes.deleted, dropSnapshots: true)
        advanceGeneration()
    }

    /// Merges a save of another context of this process (Core Data's `mergeChanges(fromContextDidSave:)`):
    /// updated registered objects take the saved values (pending changes stay on top), inserted objects
    /// join the view, deleted ones leave it.
    public func mergeChanges(fromContextDidSave event: DidSaveEvent) {
        for change in event.changes where change.operation != .update || objects[change.object] != nil { noteChanged(change.object) }
        for change in event.changes {
            guard let info = try? entityInfo(of: change.object) else { continue }
            switch change.operation {
            case .update:
                guard let object = objects[change.object] else { continue }
                if let snapshot = core.snapshot(info.index, change.primaryKey), snapshot.version == change.version {
                    fill(object, with: snapshot)
                } else {
                    object.makeFault(keepChanges: true)
                }
            case .insert:
                _ = register(change.object, entity: info.index)
                screen.add(change.object)
            case .delete:
                break
            }
        }
        removeDeleted(event.changes.filter { $0.operation == .delete }.map(\.object), dropSnapshots: false)
        advanceGeneration()
    }

    func removeDeleted(_ ids: [ObjectID], dropSnapshots: Bool) {
        guard !ids.isEmpty else { return }
        for id in ids {
            if dropSnapshots, let info = try? entityInfo(of: id) {
                core.dropSnapshot(id, entity: info.index, reason: .remoteMerge)
            }
            objects[id] = nil
            updatedSet.remove(id)
            if deletedSet.remove(id) != nil { deletedOrder.removeAll { $0 == id } }
        }
        screen.remove(Set(ids))
    }
}
