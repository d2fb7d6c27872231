import Basics
import Foundation
import SharedStore
import Trace

/// How far each store grows during a run (`limits:`): its `-wal` file's largest size, sampled after every
/// step, and its history and file sizes at the end.
///
/// Sizes come from the file system, in the runner's own sequence, so the same steps give the same sizes
/// on any machine. A store is sampled only while a process holds it: once the last one has gone, whether
/// its connection has closed (and SQLite removed the `-wal`) is a matter of timing, and so would the size be.
struct StoreGrowthMeter {
    private var walPaths: [String: String] = [:]
    private var walPeaks: [String: (bytes: Int64, step: Int?)] = [:]

    /// Notes the `-wal` size of each store held now (by trace name, with its store file) after `step`,
    /// keeping the largest.
    mutating func sampleWAL(of held: [(name: String, file: () throws -> URL)], after step: Int) {
        for (name, file) in held {
            if walPaths[name] == nil { walPaths[name] = try? Self.walFile(of: file()).path }
            guard let path = walPaths[name], let bytes = SystemCalls.fileSize(path) else { continue }
            if bytes > walPeaks[name]?.bytes ?? 0 { walPeaks[name] = (bytes, step) }
        }
    }

    /// The store's history, file and `-wal` sizes now, with its `-wal` peak over the run. A store no
    /// process holds (`held` false) is measured at rest: checkpointed, its `-wal` empty, whenever its last
    /// holder's connection actually closed. `step` is the step under way, the peak's when it is now.
    func growth(of name: String, file url: URL, held: Bool, step: Int?) throws -> StoreGrowth {
        if !held, FileManager.default.fileExists(atPath: url.path) { try StoreFiles.checkpoint(url) }
        let wal = SystemCalls.fileSize(Self.walFile(of: url).path) ?? 0
        var history: (transactions: Int64, changes: Int64) = (0, 0)
        if FileManager.default.fileExists(atPath: url.path) {
            history = try StoreCoordinator.historySize(ofStoreAt: url)
        }
        let peak = walPeaks[name]
        return StoreGrowth(
            store: name, historyTransactions: history.transactions, historyChanges: history.changes,
            storeBytes: SystemCalls.fileSize(url.path) ?? 0, walBytes: wal,
            walPeakBytes: Swift.max(wal, peak?.bytes ?? 0), walPeakStep: (peak?.bytes ?? 0) >= wal ? peak?.step : step)
    }

    private static func walFile(of url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + "-wal")
    }
}
