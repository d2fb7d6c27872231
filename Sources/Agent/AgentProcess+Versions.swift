import Basics
import Foundation
import SharedStore
import Trace

/// Model versions: what a process opens the store with, what it can migrate from, and how a store that
/// will not load (or that another process migrated underneath) is described, by version name.
extension AgentProcess {
    /// The runner's `failed` reply for an agent whose store did not load at launch (`error` from `init`),
    /// or nil when `error` is something else (the agent then could not start at all).
    public static func loadFailureReply(_ error: any Error) -> AgentReply? {
        guard let error = error as? AgentError, error.kind == .storeLoadFailed else { return nil }
        return AgentReply(seq: 0, status: .failed, error: ErrorRecord(kind: .storeLoadFailed, message: error.description))
    }

    /// The compiled versions before the process's own (`AgentSettings.modelVersion`), oldest first.
    static func previousModels(_ config: AgentConfig) throws -> [Model] {
        let versions = config.modelVersions
        guard let own = versions.firstIndex(where: { $0.name == config.settings.modelVersion }) ?? versions.indices.last
        else { return [] }
        return try versions[..<own].map { try Model($0.model) }
    }

    /// The version name of a model hash, or nil for a model the scenario does not declare.
    static func versionName(ofHash hash: String?, in config: AgentConfig) -> String? {
        guard let hash else { return nil }
        return config.modelVersions.first { (try? Model($0.model))?.versionHash == hash }?.name
    }

    /// The process's own version name, for sentences.
    static func ownVersion(_ config: AgentConfig) -> String {
        config.settings.modelVersion ?? config.modelVersions.last?.name ?? "its model"
    }

    /// Why the store at launch did not load, as a `store-load-failed` error naming the versions.
    static func loadFailure(_ error: any Error, config: AgentConfig, storeURL: URL?) -> AgentError {
        let own = ownVersion(config)
        let storeHash = storeURL.flatMap { try? StoreCoordinator.modelHash(ofStoreAt: $0) }
        let storeVersion = versionName(ofHash: storeHash, in: config) ?? "another model"
        let reason: String
        let code = (error as? StoreError)?.code
        switch error {
        case _ where code == .modelMismatch:
            reason = "the store was made with \(storeVersion), which this process (with \(own)) does not have: Core Data's "
                + "134100, the model used to open the store is incompatible with the one used to create it"
        case _ where code == .migrationRequired:
            let why = config.settings.readOnly ? "read-only" : "migrate: false"
            reason = "the store was made with \(storeVersion) and this process (with \(own), \(why)) does not "
                + "migrate it: Core Data's 134100"
        case let error as StoreError where error.code == .migrationFailed:
            let why = error.reason ?? "\(error)"
            reason = "the migration from \(storeVersion) to \(own) failed: \(why)"
        case let error where ErrorKind(error) == .busy:
            reason = storeHash != nil && versionName(ofHash: storeHash, in: config) != own && !config.modelVersions.isEmpty
                ? "the migration from \(storeVersion) to \(own) needs the write lock, and another process held it past the busy timeout"
                : "another process held the write lock past the busy timeout while the store was being set up"
        default:
            reason = "\(error)"
        }
        return AgentError(kind: .storeLoadFailed, description: reason)
    }

    /// `error` as a `store-load-failed` when it is SQLite failing on a store another process migrated to
    /// another model since this one opened it (a column or table it names is gone); nil otherwise.
    func migratedUnderneath(_ error: any Error) -> AgentError? {
        guard !config.modelVersions.isEmpty, isSQLiteError(error),
              let current = try? coordinator.currentModelHash(), current != coordinator.model.versionHash
        else { return nil }
        let now = Self.versionName(ofHash: current, in: config) ?? "another model"
        return AgentError(kind: .storeLoadFailed, description: "another process migrated the store to \(now) while this "
            + "one had it open with \(Self.ownVersion(config)), and it can no longer use it: \(error)")
    }

    /// SQLite's own error (`SQLITE_ERROR`: no such column or table, a constraint on renumbered keys), not
    /// a busy or a read-only store, which a migration underneath does not explain.
    private func isSQLiteError(_ error: any Error) -> Bool {
        let sqlite: SQLiteError? = switch error {
        case let error as StoreError: error.sqliteError
        case let error as SaveError: error.sqliteError
        default: nil
        }
        return sqlite.map { $0.code == .error || $0.code == .constraint } ?? false
    }
}
