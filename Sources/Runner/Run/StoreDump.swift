import Agent
import Foundation
import SharedStore
import Trace

extension ScenarioRunner {
    /// The stores the run's processes used (each at most once).
    var storesToDump: [StoreLocation] {
        var seen: Set<String> = []
        return orderedSlots.filter { $0.launches > 0 && seen.insert($0.store).inserted }.map(storeLocation(of:))
    }

    /// The model the store file at `url` has now, compiled for SharedStore: with `store.models`, the
    /// version its metadata names (the newest when it names none of them), else the scenario's model.
    func storeModel(of url: URL) throws -> Model {
        let store = plan.run.store
        guard !store.versions.isEmpty, let hash = try? StoreCoordinator.modelHash(ofStoreAt: url) else {
            return try scenarioModel()
        }
        for version in store.versions.reversed() {
            let model = try Model(version.model)
            if model.versionHash == hash { return model }
        }
        // A store Core Data wrote (the file a run starts from): the newest version its schema holds.
        for version in store.versions.reversed() {
            let model = try Model(version.model)
            if StoreCoordinator.model(model, fitsStoreAt: url) { return model }
        }
        return try scenarioModel()
    }

    /// The scenario's model compiled for SharedStore, compiled once per run.
    private func scenarioModel() throws -> Model {
        if let compiledModel { return compiledModel }
        let model = try Model(plan.run.store.model)
        compiledModel = model
        return model
    }

    /// Every row of a store at the end of the run, named by scenario id where the run knows one.
    func dump(_ store: StoreLocation) throws(HarnessFailure) -> StateSnapshot {
        do {
            let url = try storeFile(store)
            guard FileManager.default.fileExists(atPath: url.path) else { return StateSnapshot(store: store.traceName, objects: []) }
            return try contents(of: url, as: store.traceName, namedAfter: store.traceName)
        } catch {
            throw failure("cannot read the final state of \(store.traceName): \(error)")
        }
    }

    /// Every row of the store file at `url` (read-only, never written), as the snapshot `name`; rows
    /// are named by the scenario ids in `names` (the run's for the store, or the store a copy copies),
    /// else `Entity#pk`, and carry their primary keys.
    func contents(of url: URL, as name: String, namedAfter source: String) throws -> StateSnapshot {
        try contents(of: url, as: name, names: objects.names(in: source))
    }

    /// Every row of the store file at `url`, named by `names` (see `contents(of:as:namedAfter:)`).
    func contents(of url: URL, as name: String, names: [ObjectRef: [String]]) throws -> StateSnapshot {
        let model = try storeModel(of: url)
        let coordinator = try StoreCoordinator(url: url, model: model, options: StoreOptions(readOnly: true))
        let context = coordinator.newBackgroundContext(name: "harness-read")
        var objects: [ObjectState] = []
        for entity in model.entityNames {
            // Each entity's own rows: its sub-entities' come with their own entity.
            for id in try context.fetch(FetchRequest(entity: entity, includesSubentities: false)) {
                let values = try context.values(of: id)
                let ref = ObjectRef(entity: id.entity, pk: id.primaryKey)
                objects.append(ObjectState(
                    id: names[ref]?.sorted().first ?? ref.description, entity: entity, version: context.version(of: id),
                    values: values.traceValues, pk: id.primaryKey))
            }
        }
        return StateSnapshot(store: name, objects: objects)
    }
}
