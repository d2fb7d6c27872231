import Basics
import SharedStore
import Trace

extension AgentProcess {
    /// Saves the view context, records the commit (or the failure) with versions and the interval of
    /// its COMMIT, and posts the cross-process notification when the process is configured to.
    ///
    /// Inside `begin-write` the save is a savepoint: nothing is committed, recorded or posted until
    /// `end-write` commits the held transaction (`commitHeldWrite`).
    func performSave(into outcome: inout CommandOutcome, source: CommitSource = .save) throws {
        if let parent = view.parent { return try saveIntoParent(parent) }
        let touched = view.updatedObjects + view.deletedObjects
        var baseVersions: [ObjectID: Int64] = [:]
        for id in touched {
            // The save fires an edited fault first; firing it here reads the same version.
            _ = try? view.values(of: id)
            baseVersions[id] = [view.version(of: id), pushedBaseVersions[ObjectIdentifier(view)]?[id]].compactMap { $0 }.min()
        }
        let changedBefore = dirty
        let result: SaveResult
        commitTimes.reset()
        do {
            result = try view.save()
        } catch {
            // A save that met a lock the runner waits for changed nothing: it is asked again, not failed.
            if yieldingLockWait(error) is LockWaitYield { throw LockWaitYield() }
            for conflict in error.conflicts { recordConflict(conflict) }
            record(.saveFailed(errorRecord(error, expected: expectedError)))
            throw error
        }
        let temporaryOf = Dictionary(uniqueKeysWithValues: result.permanentIDs.map { ($1, $0) })
        ids.makePermanent(result.permanentIDs)
        for controller in controllers.values where controller.context === view {
            controller.objects = controller.objects.map { result.permanentIDs[$0] ?? $0 }
        }
        if heldWrite != nil {
            for (id, properties) in dirty { heldWrite?.edits[result.permanentIDs[id] ?? id, default: []].formUnion(properties) }
            for change in result.changes where change.operation == .delete { heldWrite?.deleted.insert(change.object) }
        }
        dirty.removeAll()
        failedToSave.removeAll()
        // Everything its children pushed is saved now.
        pushedBaseVersions[ObjectIdentifier(view)] = nil
        for conflict in result.conflicts { recordConflict(conflict) }
        guard !result.changes.isEmpty else { return }

        var objects: [CommittedObject] = []
        var made = CommandOutcome()
        for change in result.changes {
            let name = ids.name(of: change.object)
            let original = temporaryOf[change.object] ?? change.object
            let operation = change.operation
            objects.append(CommittedObject(
                id: name, entity: change.entity, operation: operation, version: change.version,
                baseVersion: baseVersions[change.object], values: change.values.traceValues,
                changed: (changedBefore[original] ?? []).sorted(), pk: change.primaryKey))
            switch operation {
            case .insert: made.inserted[name] = ObjectRef(entity: change.entity, pk: change.primaryKey)
            case .delete: made.deleted.append(name)
            case .update: break
            }
        }
        let commit = SaveCommit(
            store: committedStoreName, source: source, token: result.historyToken,
            objects: objects, conflictResolved: !result.conflicts.isEmpty,
            conflicted: result.conflicts.map { ids.name(of: $0.object) }.sorted())
        if heldWrite != nil {
            // Held for the runner, a save holds the lock the longer the more objects it writes: each beyond
            // the first, which the cost of its commit covers (`AgentReply.heldRows`).
            if heldWrite?.heldForRunner == true { heldWrite?.rows += Swift.max(result.changes.count - 1, 0) }
            hold(commit, made, notifies: settings.notify)
            return
        }
        outcome.inserted.merge(made.inserted) { $1 }
        outcome.deleted += made.deleted
        recordCommit(commit)
        if settings.notify { post(settings.notificationName) }
    }

    /// A child context's save: its changes move into its parent, nothing reaches the store, and no other
    /// process is told. The edits stay this process's own unsaved ones; the versions the child read them
    /// from are kept for the parent's save.
    private func saveIntoParent(_ parent: ObjectContext) throws {
        var bases = pushedBaseVersions[ObjectIdentifier(view)] ?? [:]
        for id in view.updatedObjects + view.deletedObjects {
            _ = try? view.values(of: id)
            if let version = view.version(of: id) { bases[id] = min(bases[id] ?? version, version) }
        }
        let result: SaveResult
        do {
            result = try view.save()
        } catch {
            record(.saveFailed(errorRecord(error, expected: expectedError)))
            throw error
        }
        // The parent holds these changes now, and what was pushed into this context with them.
        pushedBaseVersions[ObjectIdentifier(view)] = nil
        pushedBaseVersions[ObjectIdentifier(parent), default: [:]].merge(bases) { min($0, $1) }
        guard !result.changes.isEmpty else { return }
        let names = result.changes.map { "\($0.operation.rawValue) \(ids.name(of: $0.object))" }
        record(.note("\(view.name) saved into its parent context \(parent.name), not the store: \(names.joined(separator: ", "))"))
    }

    /// Records a commit with the interval of the COMMIT that made it (now, when none was observed).
    func recordCommit(_ commit: SaveCommit) {
        let interval = commitTimes.interval
        record(.saveCommitted(commit), start: interval?.start, at: interval?.end)
        postRemoteChange()
    }

    /// Keeps what a savepoint inside `begin-write` wrote until `end-write` commits it.
    func hold(_ commit: SaveCommit, _ made: CommandOutcome, notifies: Bool) {
        heldWrite?.commits.append(commit)
        heldWrite?.outcome.merge(made)
        if notifies { heldWrite?.notifies = true }
    }

    /// `end-write`: commits the held transaction; only now do its saves become commits that other
    /// processes can see, and only now is their notification posted.
    func commitHeldWrite(into outcome: inout CommandOutcome) throws {
        guard holdsBeginWrite else {
            // Its begin-write failed (busy, say): there is nothing to commit, as SQLite's COMMIT outside a
            // transaction changes nothing.
            record(.note("\(config.process) holds no write transaction (its begin-write did not take one): end-write commits nothing"))
            return
        }
        let held = heldWrite ?? HeldWrite()
        heldWrite = nil
        commitTimes.reset()
        try coordinator.endWrite()
        let interval = commitTimes.interval
        for commit in held.commits {
            record(.saveCommitted(commit), start: interval?.start, at: interval?.end)
        }
        outcome.merge(held.outcome)
        if !held.commits.isEmpty { postRemoteChange() }
        if held.notifies { post(settings.notificationName) }
        for finish in held.afterCommit { finish() }
    }

    func recordConflict(_ conflict: SaveConflict) {
        record(.conflict(ConflictRecord(
            object: ids.name(of: conflict.object), cachedVersion: conflict.cachedVersion,
            storeVersion: conflict.storeVersion ?? -1, policy: conflict.policy,
            outcome: conflict.outcome, cachedValues: conflict.cachedValues.traceValues,
            storeValues: conflict.storeValues.traceValues, constraint: conflict.constraint,
            existing: conflict.existingObject.map { ids.name(of: $0) })))
    }
}
