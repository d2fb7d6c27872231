import Foundation
import SharedStore

/// This process's store in the sync ensemble, made at its first `sync` or `leech`: the ensemble, and
/// the run's record of global identifiers by scenario id beside the change sets (`PublishedNames`).
///
/// It names objects across stores: it publishes the global identifiers of the process's own objects
/// before each upload (for a peer that imports them before the runner has this process's reply), and
/// binds the rows an import brought to the scenario ids they carry.
final class SyncMember {
    let ensemble: SyncEnsemble
    private var publishedNames: PublishedNames

    /// A member for `store`, exchanging through the run's transfer directory with the run's latency on
    /// `clock`. `identities` gives the process's objects by scenario id at the moment of an upload.
    init(store: StoreCoordinator, config: AgentConfig, clock: any StoreClock, identities: @escaping () -> ObjectIdentities?) {
        let directory = URL(fileURLWithPath: config.transferDirectory)
        let transfer = DirectoryTransfer(directory: directory, latency: Double(config.settings.syncLatencyNanos) / 1e9, clock: clock)
        ensemble = SyncEnsemble(store: store, transfer: transfer, storeName: config.process, identifiers: config.syncIdentifiers)
        publishedNames = PublishedNames(transferDirectory: directory)
        ensemble.interruption = { [unowned self] stage in
            guard stage == .beforeUpload, let ids = identities() else { return }
            publishedNames.publish(globals(of: ids))
        }
    }

    /// The global identifier of each of `ids`' saved objects, by scenario id.
    func globals(of ids: ObjectIdentities) -> [String: String] {
        var globals: [String: String] = [:]
        for (name, id) in ids.byName where !id.isTemporary {
            if let global = try? ensemble.globalIdentifier(of: id) { globals[name] = global }
        }
        return globals
    }

    /// Binds scenario ids to the rows of this store that carry their global identifiers: those the runner
    /// knows (`known`), and those peers published that it may not know yet. A second row of one scenario
    /// object (a duplicate) becomes an alias; the aliases are returned, by scenario id.
    func bindImported(into ids: inout ObjectIdentities, known: [String: [String]]) -> [String: [ObjectRef]] {
        let all = known.merging(publishedNames.read()) { runner, published in
            runner + published.filter { !runner.contains($0) }
        }
        var aliases: [String: [ObjectRef]] = [:]
        for (name, globals) in all.sorted(by: { $0.key < $1.key }) {
            for global in globals {
                guard let id = try? ensemble.object(forGlobalIdentifier: global) else { continue }
                if let bound = ids[name], !bound.isTemporary {
                    if bound != id {
                        ids.alias(name, to: id)
                        aliases[name, default: []].append(ObjectRef(entity: id.entity, pk: id.primaryKey))
                    }
                } else {
                    ids.bind(name, to: id)
                }
            }
        }
        return aliases
    }
}
