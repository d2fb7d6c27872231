import Basics
import ScenarioModel
import SharedStore
import Trace

extension AgentProcess {
    /// Carries out a step of the scenario as the process's code would. One exhaustive switch over `Step`:
    /// a step added to the language does not compile until the agent says whether it performs it, and how.
    func perform(_ step: Step, workload: Bool, into outcome: inout CommandOutcome) throws {
        switch step {
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
        case .toggle(let name, let property, .context):
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
            try fetch(entity, predicate: predicate, sort: sort, options: options)
        case .refreshAll:
            refreshAll(reason: .step)
        case .refresh(let name, let merge):
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
        case .endWrite:
            try commitHeldWrite(into: &outcome)
        // History.
        case .mergeHistory:
            try mergeHistoryStep()
        case .purgeHistory(let policy, let expected):
            try purgeHistoryStep(policy, expected: expected)
        // Notifications.
        case .post(let name):
            post(name)
        case .observe:
            startObserving()
            // Registering late, an app with history catches up from its persisted token.
            if settings.refresh.consumesHistory { runRefresh(reason: .observe) }
        case .deliver:
            // The notifications delivered so far were handled before the step, as the request's.
            break
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
        case .read(let name, let expectation, let timing):
            var expect: TraceValues?
            var related: [String: [String]]?
            if case .values(let values, let relationships) = expectation {
                expect = values.traceValues
                related = relationships.isEmpty ? nil : relationships
            }
            try checkRead(name, expect: expect, absent: expectation == .absent, withinNanos: timing.nanos, workload: workload,
                          related: related)
        case .count(let entity, let expected, let predicate, let timing):
            try checkCount(entity, predicate: predicate, expect: expected, withinNanos: timing.nanos)
        case .results(let name, let expectation, let timing):
            try checkResults(name, expect: expectation, withinNanos: timing.nanos)
        case .state(let name, let expectation, let timing):
            var flags: TraceValues = [:]
            if let fault = expectation.fault { flags["fault"] = .bool(fault) }
            if let deleted = expectation.deleted { flags["deleted"] = .bool(deleted) }
            if let registered = expectation.registered { flags["registered"] = .bool(registered) }
            checkState(name, expect: flags, withinNanos: timing.nanos)
        // The runner's: lifecycles, the system's work, the file's control steps, and a control's tap.
        case .launch, .exit, .crash, .background, .suspend, .resume, .foreground, .terminate, .push, .reloadTimelines,
             .reloadControls, .reload, .sleep, .parallel, .sequence, .advanceClock, .workload, .fault, .restoreStore,
             .appUpdate, .toggle(_, _, .control):
            throw AgentError(kind: .other, description: "\(step.keyword) is the runner's to carry out, not a process's")
        }
    }

    /// A fetch step: runs the request in the step's context and keeps it among the screen's fetches.
    private func fetch(_ entity: String, predicate: FetchPredicate?, sort: [SortKey], options: FetchOptions) throws {
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
    }

    /// A `purge-history` step: deletes what `policy` (or the process's `purge`) says, and checks the count
    /// the step expects.
    private func purgeHistoryStep(_ policy: PurgePolicy?, expected: Int?) throws {
        let purge = policy ?? settings.purge
        let deleted = try purgeHistory(purge)
        heldWrite?.rows += coordinator.changesLastPurged
        record(.note("\(config.process) purged \(deleted) history transaction\(deleted == 1 ? "" : "s") (\(purge))"))
        if let expected {
            record(.check(CheckRecord(kind: .purge, subject: "history", expectedCount: expected, actualCount: deleted,
                                      passed: deleted == expected, withinNanos: 0)))
        }
    }
}
