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
        let member = currentMember()
        let ensemble = member.ensemble
        var result = RefreshRecord(strategy: .sync, reason: leechOnly ? .leech : .step)
        record(.refreshStarted(result))
        // The first sync leeches first, in a COMMIT of its own (a baseline export, no import): the
        // import's interval starts after it.
        let baseline = !leechOnly && !ensemble.isLeeched ? try ensemble.leech().exportedObjects : 0
        commitTimes.reset()
        let synced = leechOnly ? try ensemble.leech() : try ensemble.sync()
        let changes = synced.changes
        // What it exported and imported took the longer the more objects it moved (in real time, it just does).
        if let costs = config.unitCosts {
            let moved = [baseline, synced.exportedObjects, changes.inserted.count, changes.updated.count, changes.deleted.count].reduce(0, &+)
            world.time.pass(by: UnitCosts.total(moved, each: costs.syncedObject))
        }
        result.inserted = changes.inserted.count
        result.updated = changes.updated.count
        result.deleted = changes.deleted.count
        var made = CommandOutcome()
        made.aliases = member.bindImported(into: &ids, known: globalIDs)
        made.globalIDs = member.globals(of: ids)
        for id in changes.inserted {
            let name = ids.name(of: id)
            if ids[name] == id { made.inserted[name] = ObjectRef(entity: id.entity, pk: id.primaryKey) }
        }
        made.deleted = changes.deleted.map { ids.name(of: $0) }
        // What the import changed reaches the view (Ensembles' did-save-merge delegate) and the trace once
        // it is committed: at once, or when the runner commits the write it holds (the deterministic mode),
        // so that what others do meanwhile reads the store without it, as in real time.
        let finish = { [unowned self] in
            view.mergeChanges(fromRemoteContextSave: changes)
            recordBatch(.syncImport, changes.inserted, operation: .insert)
            recordBatch(.syncImport, changes.updated, operation: .update)
            recordBatch(.syncImport, changes.deleted, operation: .delete)
            record(.refreshEnded(result))
            if settings.notify && !changes.isEmpty { post(settings.notificationName) }
        }
        if heldWrite?.heldForRunner == true {
            heldWrite?.outcome.merge(made)
            heldWrite?.afterCommit.append(finish)
        } else {
            outcome.merge(made)
            finish()
        }
    }

    /// The membership, made at the first exchange; it publishes this process's identities as they are
    /// at each upload.
    private func currentMember() -> SyncMember {
        if let syncMember { return syncMember }
        let member = SyncMember(store: coordinator, config: config, clock: clock) { [weak self] in self?.ids }
        syncMember = member
        return member
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
