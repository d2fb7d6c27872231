import Agent
import Basics
import Foundation
import SharedStore
import Trace

/// Measuring how far each store grows during a run (`limits:`): its `-wal` file after every step, its
/// history and file sizes at the end.
extension ScenarioRunner {
    /// Notes each store's `-wal` size after a step, keeping the largest. Sizes come from the file
    /// system, in the runner's own sequence, so the same steps give the same sizes on any machine.
    func sampleWAL(after step: Int) {
        // Only while a process holds the store: once the last one has gone, whether its connection has
        // closed (and SQLite removed the -wal) is a matter of timing, and so would the size be.
        for store in storesToDump where isHeld(store) {
            if walPaths[store.traceName] == nil { walPaths[store.traceName] = try? walFile(of: store).path }
            guard let path = walPaths[store.traceName], let bytes = SystemCalls.fileSize(path) else { continue }
            if bytes > walPeaks[store.traceName]?.bytes ?? 0 { walPeaks[store.traceName] = (bytes, step) }
        }
    }

    /// The store's history, file and `-wal` sizes now, with its `-wal` peak over the run.
    func growth(of store: StoreLocation) throws(HarnessFailure) -> StoreGrowth {
        do {
            let url = try storeFile(store)
            // A store no process holds is measured at rest (checkpointed, its -wal empty), whenever its
            // last holder's connection actually closed.
            if !isHeld(store), FileManager.default.fileExists(atPath: url.path) { try StoreFiles.checkpoint(url) }
            let wal = (try? Self.fileSize(walFile(of: store))) ?? 0
            var history: (transactions: Int64, changes: Int64) = (0, 0)
            if FileManager.default.fileExists(atPath: url.path) {
                history = try StoreCoordinator.historySize(ofStoreAt: url)
            }
            let peak = walPeaks[store.traceName]
            return StoreGrowth(
                store: store.traceName, historyTransactions: history.transactions, historyChanges: history.changes,
                storeBytes: (try? Self.fileSize(url)) ?? 0, walBytes: wal,
                walPeakBytes: Swift.max(wal, peak?.bytes ?? 0), walPeakStep: (peak?.bytes ?? 0) >= wal ? peak?.step : currentStep?.index)
        } catch {
            throw failure("cannot measure the growth of \(store.traceName): \(error)")
        }
    }

    private func isHeld(_ store: StoreLocation) -> Bool {
        !processesHolding(store.traceName).isEmpty
    }

    private func walFile(of store: StoreLocation) throws -> URL {
        let url = try storeFile(store)
        return url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + "-wal")
    }

    private static func fileSize(_ url: URL) throws -> Int64 {
        SystemCalls.fileSize(url.path) ?? 0
    }
}
