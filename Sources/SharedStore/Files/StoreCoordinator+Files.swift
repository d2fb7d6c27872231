import Basics
import Foundation

extension StoreCoordinator {
    /// Runs a TRUNCATE checkpoint: copies the WAL into the main file and empties the WAL.
    /// - Throws: `StoreError.sqlite` with code `.busy` when it cannot finish (a reader or writer of another
    ///   connection is in the way, e.g. a pinned generation).
    /// See <https://www.sqlite.org/pragma.html#pragma_wal_checkpoint>.
    public func checkpoint() throws(StoreError) {
        // A connection opened read-only cannot write the database file nor truncate the WAL: SQLite fails
        // part way (SQLITE_IOERR_TRUNCATE); the process is told its store is read-only, as a save is.
        if core.writer.isReadOnly { throw .readOnly(reason: core.readOnlyReason ?? "the store was opened read-only") }
        let busy: SQLiteError?
        do {
            let statement = try core.writer.prepare("PRAGMA wal_checkpoint(TRUNCATE)")
            guard try statement.step() else { return }
            busy = statement.int64(at: 0) == 0 ? nil : SQLiteError(extendedCode: 5, message: "checkpoint could not finish: the WAL is in use (\(statement.int64(at: 2)) of \(statement.int64(at: 1)) frames copied)",
                                  sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        } catch {
            throw .sqlite(error)
        }
        if let busy { throw .sqlite(busy) }
    }

    /// Copies the store's files the way a naive backup does (a plain file copy while the store is live):
    /// the `.sqlite` file, and its `-wal` and `-shm` when `includeWAL` is true. Existing files at the
    /// destination (and a stale `-wal`/`-shm` beside it) are replaced.
    public func copyStore(to destination: URL, includeWAL: Bool) throws(StoreError) {
        try StoreFiles.copy(from: core.url, to: destination, includeWAL: includeWAL)
    }
}

/// Store files: copies, and checking a copy against what is known to be committed.
public enum StoreFiles {
    /// Copies a store's files (see `StoreCoordinator.copyStore(to:includeWAL:)`).
    public static func copy(from source: URL, to destination: URL, includeWAL: Bool) throws(StoreError) {
        let manager = FileManager.default
        do {
            try manager.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            for suffix in ["", "-wal", "-shm"] {
                let target = URL(fileURLWithPath: destination.path + suffix)
                if manager.fileExists(atPath: target.path) { try manager.removeItem(at: target) }
            }
            try manager.copyItem(at: source, to: destination)
            if includeWAL {
                for suffix in ["-wal", "-shm"] {
                    let file = URL(fileURLWithPath: source.path + suffix)
                    if manager.fileExists(atPath: file.path) {
                        try manager.copyItem(at: file, to: URL(fileURLWithPath: destination.path + suffix))
                    }
                }
            }
        } catch {
            throw .file(path: destination.path, reason: "\(error)")
        }
    }

    /// Checkpoints the store at `url` and truncates its `-wal`, as the last connection to close it does:
    /// what a store nobody holds open looks like at rest, whenever the last holder actually closed it.
    public static func checkpoint(_ url: URL) throws(StoreError) {
        do {
            let db = try SQLiteConnection(path: url.path)
            try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        } catch {
            throw StoreError.wrap(error)
        }
    }

    /// Replaces the store at `store` with the copy at `source`, as Core Data's
    /// `replacePersistentStore(at:withPersistentStoreFrom:)` does, under a new identifier: the restored
    /// store is another store, and a history token saved for the one it replaces is rejected. No process
    /// may have either open.
    ///
    /// The copy is read as SQLite reads it (its `-wal` applied; its `-shm` left behind, since a copied
    /// index describes another process's view of the log) and written into the store file in place with
    /// SQLite's online backup, so the file keeps its identity on disk and its locks.
    public static func restore(_ store: URL, from source: URL) throws(StoreError) {
        let manager = FileManager.default
        let scratch = manager.temporaryDirectory.appendingPathComponent("groupsim-restore-\(UUID().uuidString)", isDirectory: true)
        defer { try? manager.removeItem(at: scratch) }
        do {
            try manager.createDirectory(at: scratch, withIntermediateDirectories: true)
            let copy = scratch.appendingPathComponent(source.lastPathComponent)
            try manager.copyItem(at: source, to: copy)
            let wal = URL(fileURLWithPath: source.path + "-wal")
            if manager.fileExists(atPath: wal.path) { try manager.copyItem(at: wal, to: URL(fileURLWithPath: copy.path + "-wal")) }
            let from = try SQLiteConnection(path: copy.path)
            // A copy that is no store (taken without its -wal before any checkpoint) replaces nothing.
            guard try from.tableExists("Z_METADATA") else {
                throw StoreError.invalidState("the copy has no store in it (no Z_METADATA): it was taken without the -wal that held its schema")
            }
            let to = try SQLiteConnection(path: store.path)
            try to.restore(from: from)
            try to.cached("UPDATE Z_METADATA SET Z_UUID = ? WHERE Z_VERSION = 1").run([.string(UUID().uuidString)])
            try to.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        } catch {
            throw StoreError.wrap(error)
        }
    }

    /// Compares a store file (a copy, or the store after a crash) with commits known to have happened and
    /// names what is missing: a row absent or at an older version, a value that differs at the same
    /// version, a deleted row still present.
    ///
    /// Opens the file read-only; a copy without its `-wal` shows only what was checkpointed.
    public static func verify(_ url: URL, model: Model, committed: [ExpectedCommit]) throws(StoreError) -> [MissingCommit] {
        let store = try StoreCoordinator(url: url, model: model, options: StoreOptions(readOnly: true))
        var latest: [String: ExpectedCommit] = [:]
        for commit in committed {
            let key = "\(commit.entity)/\(commit.primaryKey)"
            if let previous = latest[key], previous.version > commit.version && !commit.isDelete { continue }
            latest[key] = commit
        }
        var missing: [MissingCommit] = []
        for commit in latest.values.sorted(by: { ($0.entity, $0.primaryKey) < ($1.entity, $1.primaryKey) }) {
            let info = try store.core.model.entity(named: commit.entity)
            let row = try store.core.readRow(info, commit.primaryKey, on: store.core.writer)
            let id = store.core.objectID(info, commit.primaryKey)
            if commit.isDelete {
                if let row { missing.append(MissingCommit(expected: commit, found: row.version, reason: "deleted row \(id) is still present (v\(row.version))")) }
                continue
            }
            guard let row else {
                missing.append(MissingCommit(expected: commit, found: nil, reason: "row \(id) is missing (expected v\(commit.version))"))
                continue
            }
            if row.version < commit.version {
                missing.append(MissingCommit(expected: commit, found: row.version,
                                             reason: "row \(id) is at v\(row.version), expected v\(commit.version)"))
            } else if row.version == commit.version {
                let found = store.core.namedValues(info, row.values)
                let differing = commit.values.keys.sorted().filter { found[$0] != commit.values[$0] }
                if !differing.isEmpty {
                    missing.append(MissingCommit(expected: commit, found: row.version, reason: "row \(id) v\(row.version) differs in " + differing.map { "\($0) (\(found[$0] ?? .null) != \(commit.values[$0]!))" }.joined(separator: ", ")))
                }
            }
        }
        return missing
    }
}

/// One committed change the verification expects to find.
public struct ExpectedCommit: Sendable, Hashable {
    /// The entity.
    public let entity: String
    /// The row's primary key.
    public let primaryKey: Int64
    /// The version committed.
    public let version: Int64
    /// The values committed (a subset is fine).
    public let values: [String: Value]
    /// Whether the commit deleted the row.
    public let isDelete: Bool

    /// Creates an expectation.
    public init(entity: String, primaryKey: Int64, version: Int64, values: [String: Value] = [:], isDelete: Bool = false) {
        self.entity = entity
        self.primaryKey = primaryKey
        self.version = version
        self.values = values
        self.isDelete = isDelete
    }

    /// The expectation for a change a save reported.
    public init(_ change: CommittedChange) {
        self.init(entity: change.entity, primaryKey: change.primaryKey, version: change.version, values: change.values,
                  isDelete: change.operation == .delete)
    }
}

/// A committed change the verified file does not hold.
public struct MissingCommit: Sendable, Hashable, CustomStringConvertible {
    /// What was expected.
    public let expected: ExpectedCommit
    /// The version found (`nil`: no row).
    public let found: Int64?
    /// A sentence naming what is missing.
    public let reason: String

    public var description: String { reason }
}
