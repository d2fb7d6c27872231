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

    /// The scenario's model, compiled for SharedStore.
    func storeModel() throws -> Model {
        try Self.entitySpecs(plan.run.store.model).compiledModel()
    }

    /// Every row of a store, named by scenario id where the run knows one.
    func dump(_ store: StoreLocation) throws(RunError) -> StateSnapshot {
        let specs = Self.entitySpecs(plan.run.store.model)
        do {
            let url = try storeFile(store)
            guard FileManager.default.fileExists(atPath: url.path) else { return StateSnapshot(store: store.traceName, objects: []) }
            let coordinator = try StoreCoordinator(
                url: url, model: try storeModel(), options: StoreOptions(readOnly: true))
            let context = coordinator.newBackgroundContext(name: "final-dump")
            var names: [ObjectRef: [String]] = [:]
            for (name, ref) in registry[store.traceName] ?? [:] { names[ref, default: []].append(name) }
            for (ref, name) in aliases[store.traceName] ?? [:] { names[ref, default: []].append(name) }
            var objects: [ObjectState] = []
            for entity in specs.map(\.name) {
                for id in try context.fetch(FetchRequest(entity: entity)) {
                    let values = try context.values(of: id)
                    let ref = ObjectRef(entity: id.entity, pk: id.primaryKey)
                    let name = names[ref]?.sorted().first ?? ref.description
                    objects.append(ObjectState(
                        id: name, entity: entity, version: context.version(of: id),
                        values: values.traceValues))
                }
            }
            return StateSnapshot(store: store.traceName, objects: objects)
        } catch {
            throw failure("cannot read the final state of \(store.traceName): \(error)")
        }
    }
}
