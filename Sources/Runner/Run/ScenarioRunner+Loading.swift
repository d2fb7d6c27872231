import Basics
import Foundation
import SharedStore
import ScenarioModel
import Trace

/// A process whose store does not load at launch: it ends (`on-load-failure: crash`, the template's
/// `fatalError`), or it waits and loads again before each of its later steps (`retry`). And a launch that
/// migrated the store: one commit for the checkers, as a restore is.
extension ScenarioRunner {
    /// Starts the process's agent (see `spawn`); when its launch migrated the store to another model
    /// version, records what the migration changed as one commit (`source: migration`): the values it
    /// filled and dropped, and the rows of entities it removed, so that no checker takes them for a write
    /// nobody made or for lost data.
    func launchAgent(_ slot: ProcessSlot) throws(HarnessFailure) -> ErrorRecord? {
        // A launch after an update runs the new version; a process waiting for its store is still the old one.
        if slot.awaitingStore == nil, let installedVersion { slot.modelVersion = installedVersion }
        let baseline = migrationBaseline(slot)
        let start = time.reading()
        // A launch that migrates needs the write lock; the deterministic mode cannot let it wait for a
        // sibling's (it fails the load at once), so real time holds the siblings back for it too.
        if let error = try spawn(slot, besideSiblings: baseline == nil) { return error }
        if let baseline, let url = try? storeFile(storeLocation(of: slot)),
           let hash = try? StoreCoordinator.modelHash(ofStoreAt: url), hash != baseline.hash,
           let after = try? contents(of: url, as: slot.store, namedAfter: slot.store) {
            let changes = Self.migrationChanges(from: baseline.rows, to: after)
            if !changes.isEmpty {
                record(.saveCommitted(SaveCommit(store: slot.store, source: .migration, objects: changes)), start: start, as: slot.name)
            }
        }
        return nil
    }

    /// The store's model hash and rows before a launch that may migrate it: the scenario has model
    /// versions, the store exists, and it is not of the version the process opens it with.
    private func migrationBaseline(_ slot: ProcessSlot) -> (hash: String, rows: StateSnapshot)? {
        guard !plan.run.store.versions.isEmpty, let url = try? storeFile(storeLocation(of: slot)),
              FileManager.default.fileExists(atPath: url.path),
              let hash = try? StoreCoordinator.modelHash(ofStoreAt: url),
              let own = try? Model(plan.run.store.model(version: slot.modelVersion)), hash != own.versionHash,
              let rows = try? contents(of: url, as: slot.store, namedAfter: slot.store) else { return nil }
        return (hash, rows)
    }

    /// What a migration changed: each row's properties whose values it filled, changed or dropped (an
    /// update at the row's version), and each row of an entity it removed (a delete).
    static func migrationChanges(from before: StateSnapshot, to after: StateSnapshot) -> [CommittedObject] {
        func key(_ object: ObjectState) -> String { "\(object.entity)#\(object.pk ?? -1)" }
        let old = Dictionary(before.objects.map { (key($0), $0) }, uniquingKeysWith: { a, _ in a })
        let kept = Set(after.objects.map(key))
        var changes: [CommittedObject] = []
        for row in after.objects {
            guard let was = old[key(row)] else { continue }
            let changed = Set(row.values.keys).union(was.values.keys).filter { row.values[$0] != was.values[$0] }.sorted()
            guard !changed.isEmpty else { continue }
            changes.append(CommittedObject(id: row.id, entity: row.entity, operation: .update, version: row.version ?? 1,
                                           values: row.values.filter { changed.contains($0.key) }, changed: changed, pk: row.pk))
        }
        for row in before.objects where !kept.contains(key(row)) {
            changes.append(CommittedObject(id: row.id, entity: row.entity, operation: .delete, version: row.version ?? 1, pk: row.pk))
        }
        return changes
    }

    /// Called at a launch whose store did not load (`error` is why; the agent has ended).
    /// A launch that expects it (`expect-error: store-load-failed`) has failed as it said it would.
    func storeDidNotLoad(_ error: ErrorRecord, _ slot: ProcessSlot) throws(HarnessFailure) {
        var error = error
        if let expected = lifecycleExpectError, expected == error.kind, currentStep?.step.process == slot.name {
            error.expected = true
            lifecycleExpectationSent = true
        }
        switch slot.process.settings.onLoadFailure {
        case .crash, .inMemory:
            // In memory: the agent falls back itself; it reports a failure only when even that did not open.
            record(.error(error), as: slot.name)
            try lifecycle(.storeLoadFailed, slot)
            slot.endedByLoadFailure = true
        case .retry:
            slot.awaitingStore = error
            record(.note("\(slot.name)'s store did not load: \(error.message); it waits, and loads it again before its next step"),
                   as: slot.name)
        }
    }

    /// Before a step of a process waiting for its store. Returns nil when the step should run as usual
    /// (its store loaded now, or the step ends the waiting process), or the step's outcome otherwise:
    /// `.some(nil)` for a step with nothing to do without a store, `.some(error)` when it still does not load.
    func stepWhileAwaitingStore(_ step: Step, _ slot: ProcessSlot) throws(HarnessFailure) -> ErrorRecord?? {
        if slot.endedByLoadFailure {
            // The file could not know the launch would fail: the process's steps until it is launched
            // again have nothing to run on.
            if case .launch = step {
                slot.endedByLoadFailure = false
                return nil
            }
            record(.note("\(slot.name) ended at launch because its store did not load; \(step.keyword) was skipped"),
                   as: slot.name)
            return .some(nil)
        }
        guard slot.awaitingStore != nil else { return nil }
        switch step {
        case .exit, .crash, .terminate:
            slot.awaitingStore = nil
            return nil
        case .background, .suspend, .resume, .foreground, .observe, .deliver, .post, .reloadTimelines, .reloadControls:
            // Steps that need no store: without an agent they have nothing to act on yet.
            record(.note("\(slot.name) has not loaded its store yet; \(step.keyword) changes nothing it holds"), as: slot.name)
            return .some(nil)
        default:
            if let error = try retryLoad(slot) { return .some(error) }
            if case .launch = step { return .some(nil) }
            return nil
        }
    }

    /// Loads the store of a process waiting for it: nil once it has (the process is then active), or why
    /// it still does not.
    func retryLoad(_ slot: ProcessSlot) throws(HarnessFailure) -> ErrorRecord? {
        if let error = try launchAgent(slot) {
            slot.awaitingStore = error
            return error
        }
        slot.awaitingStore = nil
        try lifecycle(.ready, slot)
        record(.note("\(slot.name) loaded its store"), as: slot.name)
        return nil
    }
}
