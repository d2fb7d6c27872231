import SharedStore
import Trace

extension AgentProcess {
    /// Commands on the store itself rather than on the view context: query generations, locks,
    /// history, batch operations, store files and sync.
    func executeStoreCommand(_ command: AgentCommand, into outcome: inout CommandOutcome) throws {
        switch command {
        case .pinGeneration:
            try view.pinQueryGeneration()
        case .unpinGeneration:
            view.unpinQueryGeneration()
        case .sync, .leech:
            throw AgentError.missing("sync between separate stores (the watch issue)")
        default:
            throw AgentError.missing("\(command)")
        }
    }

    /// The history strategy: fetch after the saved token, merge, purge by setting.
    func mergeHistoryForRefresh() -> (inserted: Int, updated: Int, deleted: Int) {
        record(.error(ErrorRecord(kind: "other", message: "persistent history is not built yet")))
        return (0, 0, 0)
    }
}
