import Basics
import Foundation
import SharedStore
import Trace

extension AgentProcess {
    /// `sync` / `leech`: this store's side of the ensemble. Exports what was saved since the last
    /// sync, imports every peer change set, merges the imports into the view context (Ensembles'
    /// did-save-merge delegate), names the imported rows by scenario id through their global
    /// identifiers, and tells the runner the global identifiers of its own objects.
    func sync(leechOnly: Bool, into outcome: inout CommandOutcome) throws {
        guard settings.syncEnabled else {
            record(.note("\(config.process): sync is off (no process has sync: transfer with this store); nothing exchanged"))
            return
        }
        let ensemble = try currentEnsemble()
        var result = RefreshRecord(strategy: .sync, reason: leechOnly ? .leech : .step)
        record(.refreshStarted(result))
        // The first sync leeches first, in a COMMIT of its own (a baseline export, no import): the
        // import's interval starts after it.
        let baseline = !leechOnly && !ensemble.isLeeched ? try ensemble.leech().exportedObjects : 0
        commitTimes.reset()
        let synced = leechOnly ? try ensemble.leech() : try ensemble.sync(mergingInto: view)
        let changes = synced.changes
        // What it exported and imported took the longer the more objects it moved (in real time, it just does).
        if let costs = config.unitCosts {
            let moved = [baseline, synced.exportedObjects, changes.inserted.count, changes.updated.count, changes.deleted.count].reduce(0, &+)
            world.time.pass(by: UnitCosts.total(moved, each: costs.syncedObject))
        }
        result.inserted = changes.inserted.count
        result.updated = changes.updated.count
        result.deleted = changes.deleted.count
        bindImportedObjects(ensemble, into: &outcome)
        outcome.globalIDs.merge(ownGlobals(ensemble)) { $1 }
        recordBatch(.syncImport, changes.inserted, operation: .insert)
        recordBatch(.syncImport, changes.updated, operation: .update)
        recordBatch(.syncImport, changes.deleted, operation: .delete)
        for id in changes.inserted {
            let name = ids.name(of: id)
            if ids[name] == id { outcome.inserted[name] = ObjectRef(entity: id.entity, pk: id.primaryKey) }
        }
        outcome.deleted += changes.deleted.map { ids.name(of: $0) }
        record(.refreshEnded(result))
        if settings.notify && !(changes.inserted.isEmpty && changes.updated.isEmpty && changes.deleted.isEmpty) {
            post(settings.notificationName)
        }
    }

    /// The ensemble, made once: a directory transfer with the run's latency on the simulated clock. Before
    /// it uploads a change set, the process publishes the global identifiers of its objects by scenario id
    /// (`PublishedNames`), for a peer that imports the change set before the runner has this reply.
    private func currentEnsemble() throws -> SyncEnsemble {
        if let ensemble { return ensemble }
        let directory = URL(fileURLWithPath: config.transferDirectory)
        let transfer = DirectoryTransfer(directory: directory, latency: Double(settings.syncLatencyNanos) / 1e9, clock: clock)
        let made = SyncEnsemble(store: coordinator, transfer: transfer, storeName: config.process, identifiers: config.syncIdentifiers)
        publishedNames = PublishedNames(transferDirectory: directory)
        made.interruption = { [weak self] stage in
            guard stage == .beforeUpload, let self, let ensemble = self.ensemble else { return }
            self.publishedNames?.publish(self.ownGlobals(ensemble))
        }
        ensemble = made
        return made
    }

    /// The global identifier of each object of this process's by scenario id.
    private func ownGlobals(_ ensemble: SyncEnsemble) -> [String: String] {
        var globals: [String: String] = [:]
        for (name, id) in ids.byName where !id.isTemporary {
            if let global = try? ensemble.globalIdentifier(of: id) { globals[name] = global }
        }
        return globals
    }

    /// Binds scenario ids to the rows that carry their global identifiers in this store; a second
    /// row of one scenario object (a duplicate) is reported as an alias.
    private func bindImportedObjects(_ ensemble: SyncEnsemble, into outcome: inout CommandOutcome) {
        // What the runner knows, and what peers published that it may not know yet.
        let known = globalIDs.merging(publishedNames?.read() ?? [:]) { runner, published in
            runner + published.filter { !runner.contains($0) }
        }
        for (name, globals) in known.sorted(by: { $0.key < $1.key }) {
            for global in globals {
                guard let id = try? ensemble.object(forGlobalIdentifier: global) else { continue }
                if let bound = ids[name], !bound.isTemporary {
                    if bound != id {
                        ids.alias(name, to: id)
                        outcome.aliases[name, default: []].append(ObjectRef(entity: id.entity, pk: id.primaryKey))
                    }
                } else {
                    ids.bind(name, to: id)
                }
            }
        }
    }
}

extension AgentConfig {
    /// Random in real time, as on a device. In the deterministic mode drawn from this launch's own seed
    /// (the process's seed mixed with its launch count), so a replay writes the same identifiers.
    var syncIdentifiers: SyncIdentifiers {
        guard virtualStart != nil else { return .random }
        return .seeded(StableHash.splitMix64(seed ^ StableHash.fnv1a64("sync-identifiers:\(launchCount)")))
    }
}
