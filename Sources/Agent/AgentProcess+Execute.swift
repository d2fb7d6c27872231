import Basics
import SharedStore
import Trace

extension AgentProcess {
    /// Carries out one command. One exhaustive switch: a command added to `AgentCommand` does not
    /// compile until the agent says what it does.
    func execute(_ command: AgentCommand, into outcome: inout CommandOutcome) throws {
        // After `open-copy` the process works on the copy, opened read-only: a write fails as a save to a
        // store added read-only does, instead of reaching the live store.
        if let copy = openedCopyName, command.yieldsOnLockWait || command == .sync {
            throw AgentError(kind: .readOnly, description: "this process opened \(copy) read-only (open-copy); it cannot write")
        }
        switch command {
        // Objects and contexts.
        case .insert(let entity, let name, let values):
            let id = try view.insert(entity, values: try storeValues(values, entity: entity))
            ids.bind(name, to: id)
            dirty[id, default: []].formUnion(values.keys)
        case .update(let name, let values):
            let id = try resolve(name)
            try view.setValues(try storeValues(values, entity: id.entity), for: id)
            dirty[id, default: []].formUnion(values.keys)
        case .delete(let name):
            try view.delete(try resolve(name))
        case .toggle(let name, let property):
            let id = try resolve(name)
            try view.existingObject(with: id)
            // A nil optional flag reads as off, as `flag ?? false` would.
            let current = try view.value(property, of: id).boolValue ?? false
            try view.setValues([property: .bool(!current)], for: id)
            dirty[id, default: []].insert(property)
        case .relate(let name, let other, let relationship, let position):
            try view.relate(try resolve(name), to: try resolve(other), via: relationship, at: position)
        case .unrelate(let name, let other, let relationship):
            try view.unrelate(try resolve(name), from: try resolve(other), via: relationship)
        case .save:
            try performSave(into: &outcome)
        case .autosave:
            if view.hasChanges { try performSave(into: &outcome, source: .autosave) }
        case .rollback:
            view.rollback()
            forgetUnsaved()
        case .reset:
            view.reset()
            forgetUnsaved()
        case .fetch(let entity, let predicate, let sort, let options):
            let request = FetchRequest(entity: entity, filter: predicate, sortKeys: sort.isEmpty ? nil : sort,
                                       returnsObjectsAsFaults: options.returnsObjectsAsFaults, fetchLimit: options.limit,
                                       includesPendingChanges: options.includesPendingChanges,
                                       shouldRefreshRefetchedObjects: options.refreshesRefetchedObjects,
                                       relationshipKeyPathsForPrefetching: options.prefetch)
            if options.controller != nil { updateControllers() }
            // SwiftData's new context per fetch: the models it returns carry the values the fetch read.
            var fetched = request
            if settings.refresh == .newContext || settings.refresh == .historyObserver, contextOverride == nil {
                fetched.shouldRefreshRefetchedObjects = true
            }
            let results = try currentContext.fetch(fetched)
            // An intent's fetches are its own context's, not the lists this process shows.
            if contextOverride == nil, !fetches.contains(request) { fetches.append(request) }
            if let name = options.controller { makeController(name, request: request, sections: options.sections, results: results) }
        case .refreshAll:
            refreshAll(reason: .step)
        case .refreshObject(let name, let merge):
            let id = try resolve(name)
            refreshObject(id, mergeChanges: merge)
            // Without merging, refresh(_:mergeChanges:) discards the object's unsaved changes in the context it
            // runs on; a step's context (a child's refresh) leaves the view context's edits where they are.
            if !merge, contextOverride == nil || !coordinator.viewContext.updatedObjects.contains(id) { dirty[id] = nil }
        case .runRefresh:
            runRefresh(reason: .manual)
        case .batchInsert(let entity, let count, let values):
            try batchInsert(entity, count: count, values: values)
        case .batchUpdate(let entity, let predicate, let values):
            try batchUpdate(entity, matching: predicate, values: values)
        case .batchDelete(let entity, let predicate):
            try batchDelete(entity, matching: predicate, into: &outcome)
        case .pinGeneration(nil):
            try view.pinQueryGeneration()
        case .pinGeneration(let source?):
            try pinGeneration(of: view, from: source)
        case .unpinGeneration:
            view.unpinQueryGeneration()
        case .beginWrite:
            try beginWrite()
        case .endWrite, .commitHeld:
            try commitHeldWrite(into: &outcome)
        // History.
        case .mergeHistory:
            try mergeHistoryStep()
        case .purgeHistory(let policy, let expected):
            let purge = policy ?? settings.purge
            let deleted = try purgeHistory(purge)
            heldWrite?.rows += coordinator.changesLastPurged
            record(.note("\(config.process) purged \(deleted) history transaction\(deleted == 1 ? "" : "s") (\(purge))"))
            if let expected {
                record(.check(CheckRecord(kind: .purge, subject: "history", expectedCount: expected, actualCount: deleted,
                                          passed: deleted == expected, withinNanos: 0)))
            }
        // Notifications.
        case .post(let name):
            post(name)
        case .observe:
            startObserving()
            // Registering late, an app with history catches up from its persisted token.
            if settings.refresh.consumesHistory { runRefresh(reason: .observe) }
        // Files.
        case .checkpoint:
            try coordinator.checkpoint()
        case .copyStore(let name, let withWAL):
            try copyStore(named: name, withWAL: withWAL)
        case .openCopy(let name):
            try openCopy(named: name)
        // Sync.
        case .sync:
            try sync(leechOnly: false, into: &outcome)
        case .leech:
            try sync(leechOnly: true, into: &outcome)
        // Checks.
        case .read(let name, let expect, let absent, let within, let workload, let related):
            try checkRead(name, expect: expect, absent: absent, withinNanos: within, workload: workload, related: related)
        case .count(let entity, let predicate, let expect, let within):
            try checkCount(entity, predicate: predicate, expect: expect, withinNanos: within)
        case .results(let name, let expect, let within):
            try checkResults(name, expect: expect, withinNanos: within)
        case .state(let name, let expect, let within):
            checkState(name, expect: expect, withinNanos: within)
        // Lifecycle seen from inside the process.
        case .becomeActive:
            if settings.trigger == .activation { runRefresh(reason: .activation) }
        case .enterBackground:
            // A backgrounded app keeps running and receiving notifications: nothing changes here.
            break
        // Harness requests.
        case .armCrashDuringSave:
            crashArmed = true
        case .advanceClock(let nanos):
            clock.advance(byNanos: nanos)
        case .lockState:
            outcome.lock = currentLock()
        case .timerRefresh:
            runRefresh(reason: .poll)
        case .handleNotifications, .awaitLock:
            // The request's notifications, and a refresh's write waiting for a lock, were handled before.
            break
        case .finalRefresh:
            runRefresh(reason: .final)
            recordFinalView()
        case .finalView:
            recordFinalView()
        case .exit:
            // The driver replies and ends the loop; nothing to do to the store.
            break
        }
    }
}
