import SharedStore
import Trace

extension AgentProcess {
    /// Saves the view context, records the commit (or the failure) with versions, and posts the
    /// cross-process notification when the process is configured to.
    func performSave(into outcome: inout CommandOutcome) throws {
        let touched = view.updatedObjects + view.deletedObjects
        var baseVersions: [ObjectID: Int64] = [:]
        for id in touched {
            // The save fires an edited fault first; firing it here reads the same version.
            _ = try? view.values(of: id)
            baseVersions[id] = view.version(of: id)
        }
        let changedBefore = dirty
        let result: SaveResult
        do {
            result = try view.save()
        } catch {
            if case .conflicts(let conflicts) = error {
                for conflict in conflicts { recordConflict(conflict) }
            }
            record(.saveFailed(errorRecord(error, expected: nil)))
            throw error
        }
        let temporaryOf = Dictionary(uniqueKeysWithValues: result.permanentIDs.map { ($1, $0) })
        ids.makePermanent(result.permanentIDs)
        dirty.removeAll()
        for conflict in result.conflicts { recordConflict(conflict) }
        guard !result.changes.isEmpty else { return }

        var objects: [CommittedObject] = []
        for change in result.changes {
            let name = ids.name(of: change.object)
            let original = temporaryOf[change.object] ?? change.object
            let operation = CommittedObject.Operation(rawValue: change.operation.rawValue) ?? .update
            objects.append(CommittedObject(
                id: name, entity: change.entity, operation: operation, version: change.version,
                baseVersion: baseVersions[change.object], values: change.values.traceValues,
                changed: (changedBefore[original] ?? []).sorted(), pk: change.primaryKey))
            switch operation {
            case .insert: outcome.inserted[name] = ObjectRef(entity: change.entity, pk: change.primaryKey)
            case .delete: outcome.deleted.append(name)
            case .update: break
            }
        }
        record(.saveCommitted(SaveCommit(
            store: config.store.traceName, source: "save", token: result.historyToken,
            objects: objects, conflictResolved: !result.conflicts.isEmpty)))
        if settings.notify { post(settings.notificationName) }
    }

    func recordConflict(_ conflict: SaveConflict) {
        record(.conflict(ConflictRecord(
            object: ids.name(of: conflict.object), cachedVersion: conflict.cachedVersion,
            storeVersion: conflict.storeVersion ?? -1, policy: conflict.policy.rawValue,
            outcome: conflict.outcome.rawValue, cachedValues: conflict.cachedValues.traceValues,
            storeValues: conflict.storeValues.traceValues)))
    }
}
