import Foundation
import Supervisor

/// The directory a run lives in: the group containers, each `storage: own` process's container,
/// store copies, the agents' configs, trace files and stderr, and the notification hub's socket.
///
/// Removed when the run ends unless the user asked to `--keep` it.
public final class Sandbox: @unchecked Sendable {
    public let root: URL
    public let keep: Bool
    /// Removes the sandbox if the runner is interrupted (SIGINT, SIGTERM, exit) mid-run.
    private var cleanup: Int?

    /// Creates a fresh sandbox under `parent` (the system's temporary directory by default).
    /// Paths stay short, because the hub's socket path must fit in 108 bytes.
    public init(parent: URL? = nil, keep: Bool) throws {
        let base = parent ?? URL(fileURLWithPath: NSTemporaryDirectory())
        Sandbox.removeAbandoned(in: base)
        root = base.appendingPathComponent("gs-\(getpid())-\(UUID().uuidString.prefix(6))", isDirectory: true)
        self.keep = keep
        for folder in ["containers", "own", "copies", "transfer", "config", "trace", "logs", "n"] {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        if keep {
            _ = FileManager.default.createFile(atPath: root.appendingPathComponent("KEEP").path, contents: nil)
        } else {
            let path = root.path
            cleanup = CleanupRegistry.shared.add { try? FileManager.default.removeItem(atPath: path) }
        }
    }

    public var containers: URL { root.appendingPathComponent("containers") }
    public var copies: URL { root.appendingPathComponent("copies") }
    /// The ensemble's transfer directory: the stand-in for the cloud file service.
    public var transfer: URL { root.appendingPathComponent("transfer") }
    public var hubSocket: String { root.appendingPathComponent("n/hub").path }

    /// The containers root of a process with its own store.
    public func ownContainers(of process: String) -> URL {
        root.appendingPathComponent("own").appendingPathComponent(process)
    }

    public func config(of process: String, launch: Int) -> URL {
        root.appendingPathComponent("config/\(process)-\(launch).json")
    }

    public func trace(of process: String) -> URL {
        root.appendingPathComponent("trace/\(process).jsonl")
    }

    public func stderr(of process: String) -> URL {
        root.appendingPathComponent("logs/\(process).stderr")
    }

    /// Every trace file written so far.
    public var traceFiles: [URL] {
        let folder = root.appendingPathComponent("trace")
        return ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "jsonl" }.sorted { $0.path < $1.path }
    }

    /// Removes the sandboxes and agent pools' folders of runners that were killed outright (SIGKILL runs
    /// no cleanup): a `gs-<pid>-…` or `gs-pool-<pid>-…` directory whose process no longer exists. Kept
    /// sandboxes (`--keep`) are marked and stay.
    static func removeAbandoned(in base: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []
        for name in names where name.hasPrefix("gs-") {
            var parts = name.split(separator: "-")
            if parts.count == 4, parts[1] == "pool" { parts.remove(at: 1) }
            guard parts.count == 3, let pid = Int32(parts[1]), pid != getpid() else { continue }
            let folder = base.appendingPathComponent(name)
            guard !FileManager.default.fileExists(atPath: folder.appendingPathComponent("KEEP").path) else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { try? FileManager.default.removeItem(at: folder) }
        }
    }

    /// Removes the sandbox unless it is kept.
    public func finish() {
        if let cleanup { CleanupRegistry.shared.remove(cleanup) }
        if !keep { try? FileManager.default.removeItem(at: root) }
    }
}
