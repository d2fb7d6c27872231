import Agent
import Foundation
import SharedStore
import Trace

extension ScenarioRunner {
    /// The stores the run's processes used (each at most once).
    var storesToDump: [(trace: String, containers: URL, group: String)] {
        var seen: Set<String> = []
        var result: [(String, URL, String)] = []
        for slot in orderedSlots where slot.launches > 0 && seen.insert(slot.store).inserted {
            let own = slot.process.settings.storage == .own
            result.append((
                slot.store, own ? sandbox.ownContainers(of: slot.name) : sandbox.containers,
                own ? "own.\(slot.name)" : plan.run.store.group))
        }
        return result
    }

    /// The scenario's model, compiled for SharedStore.
    func storeModel() throws -> Model {
        try Self.entitySpecs(plan.run.store.model).compiledModel()
    }

    /// Every row of a store, named by scenario id where the run knows one.
    func dump(_ store: (trace: String, containers: URL, group: String)) throws(RunError) -> StateSnapshot {
        let specs = Self.entitySpecs(plan.run.store.model)
        do {
            let containers = AppGroupContainers(root: store.containers, groups: [store.group])
            let url = try containers.storeURL(group: store.group, name: plan.run.store.name)
            guard FileManager.default.fileExists(atPath: url.path) else { return StateSnapshot(store: store.trace, objects: []) }
            let coordinator = try StoreCoordinator(
                url: url, model: try storeModel(), options: StoreOptions(readOnly: true))
            let context = coordinator.newBackgroundContext(name: "final-dump")
            var names: [ObjectRef: [String]] = [:]
            for (name, ref) in registry[store.trace] ?? [:] { names[ref, default: []].append(name) }
            for (ref, name) in aliases[store.trace] ?? [:] { names[ref, default: []].append(name) }
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
            return StateSnapshot(store: store.trace, objects: objects)
        } catch {
            throw failure("cannot read the final state of \(store.trace): \(error)")
        }
    }
}
