import Agent
import Foundation
import ScenarioModel
import SharedStore
import Trace

extension ScenarioRunner {
    /// The launch config of a process: its store, its resolved settings and the model.
    func agentConfig(for slot: ProcessSlot) -> AgentConfig {
        let run = plan.run
        let settings = slot.process.settings
        var config = AgentConfig(
            process: slot.name, launchCount: slot.launches, store: storeLocation(of: slot),
            model: run.store.model(version: slot.modelVersion),
            settings: Self.agentSettings(settings, process: slot.name, all: run.processes),
            hubSocket: sandbox.hubSocket, tracePath: sandbox.trace(of: slot.name).path,
            copiesDirectory: sandbox.copies.path, transferDirectory: sandbox.transfer.path,
            clockOffsetNanos: clockOffset, seed: slot.process.seed)
        config.modelVersions = run.store.versions
        config.settings.modelVersion = slot.modelVersion
        return config
    }

    /// Where a process's store lives: the group's container, or (`storage: own`) a container of its own.
    func storeLocation(of slot: ProcessSlot) -> StoreLocation {
        if let known = slot.location { return known }
        let own = slot.process.settings.storage == .own
        let location = StoreLocation(
            containersRoot: own ? sandbox.ownContainers(of: slot.name).path : sandbox.containers.path,
            group: own ? "own.\(slot.name)" : plan.run.store.group,
            name: plan.run.store.name,
            traceName: slot.store)
        slot.location = location
        return location
    }

    /// The store file at `location`, resolved as the agent resolves it (`AppGroupContainers`).
    func storeFile(_ location: StoreLocation) throws -> URL {
        let containers = AppGroupContainers(root: URL(fileURLWithPath: location.containersRoot), groups: [location.group])
        return try containers.storeURL(group: location.group, name: location.name)
    }

    /// The settings an agent acts on, from the scenario's resolved settings.
    static func agentSettings(_ settings: ProcessSettings, process: String, all: [RunProcess]) -> AgentSettings {
        var result = AgentSettings(settings, author: settings.author.resolved(processName: process))
        result.historyConsumers = all.filter { $0.settings.refresh.consumesHistory }.map(\.name)
        // Darwin notifications never leave a device: a process with its own store (a watch app on
        // its own device) observes and posts a name no process on the phone uses.
        if settings.storage == .own { result.notificationName = "\(process).store-did-save" }
        // The remote-change notification is the store's: on when any process opening the same store
        // (the group store, or this process's own) asks for it.
        let sharing = settings.storage == .own ? all.filter { $0.name == process } : all.filter { $0.settings.storage != .own }
        if sharing.contains(where: { $0.settings.trigger == .remoteChange }) {
            result.remoteChangeName = settings.storage == .own ? "\(process).remote-change" : "store-remote-change"
        }
        // One ensemble per run: the group store and every own store with `sync: transfer`.
        let latencies = all.compactMap { process -> UInt64? in
            if case .transfer(let latency) = process.settings.sync { return latency.nanos }
            return nil
        }
        let ownTransfer: Bool = if case .transfer = settings.sync { true } else { false }
        result.syncEnabled = settings.storage == .own ? ownTransfer : !latencies.isEmpty
        result.syncLatencyNanos = latencies.max() ?? 0
        return result
    }
}

