import Basics
import Foundation
import ScenarioModel
import SharedStore
import Trace

extension AgentProcess {
    // Commands on the store itself rather than on the view context: locks, history, batch
    // operations, store files. `execute(_:into:)` dispatches to them.

    func beginWrite() throws {
        try coordinator.beginWrite()
        heldWrite = HeldWrite()
    }

    /// `{ pin-generation: importer }`: pins `context` to the generation `source` (`view`, or a background
    /// context of this process) is pinned to, as `setQueryGenerationFrom(source.queryGenerationToken)` does.
    func pinGeneration(of context: ObjectContext, from source: String) throws {
        let other = source == "view" ? coordinator.viewContext : namedContext(source, author: nil)
        try context.pinQueryGeneration(from: other)
    }

    /// A `merge-history` step: merge whatever this process's strategy is.
    func mergeHistoryStep() throws {
        var result = RefreshRecord(strategy: .mergeHistory, reason: .step)
        record(.refreshStarted(result))
        defer { record(.refreshEnded(result)) }
        let changes = try mergeHistory()
        result.inserted = changes.inserted.count
        result.updated = changes.updated.count
        result.deleted = changes.deleted.count
    }

    /// The author a batch request's transaction records: the `transactionAuthor` of the context it runs on
    /// (a step's `context:`, an App Intent's), else the process's, as Core Data records the author of the
    /// context that executes the request (Apple's "Loading and Displaying a Large Data Feed" sets
    /// `taskContext.transactionAuthor` before its `NSBatchInsertRequest` and filters history by it).
    private var batchAuthor: String? {
        contextOverride.map(\.transactionAuthor) ?? settings.author
    }

    func batchInsert(_ entity: String, count: Int, values: [String: Value]) throws {
        let row = try storeValues(values, entity: entity)
        commitTimes.reset()
        // Core Data's batch insert resolves constraint conflicts by the merge policy of the context it runs on.
        let policy = contextOverride?.mergePolicy ?? settings.mergePolicy
        let inserted = try coordinator.batchInsert(entity, objects: Array(repeating: row, count: count), author: batchAuthor,
                                                   policy: policy)
        recordBatch(.batchInsert, inserted, operation: .insert)
    }

    func batchUpdate(_ entity: String, matching predicate: FetchPredicate?, values: [String: Value]) throws {
        let converted = try storeValues(values, entity: entity)
        commitTimes.reset()
        let updated = try coordinator.batchUpdate(entity, matching: predicate, values: converted, author: batchAuthor)
        recordBatch(.batchUpdate, updated, operation: .update)
    }

    func batchDelete(_ entity: String, matching predicate: FetchPredicate?, into outcome: inout CommandOutcome) throws {
        commitTimes.reset()
        let deleted = try coordinator.batchDelete(entity, matching: predicate, author: batchAuthor)
        let names = deleted.map { ids.name(of: $0) }
        // The rows whose relationships lost a deleted row are updated in the same transaction.
        let updated = lastBatchChanges.filter { $0.operation == .update }.map(\.object)
        recordBatch(.batchDelete, deleted + updated, operation: .delete)
        if heldWrite != nil { heldWrite?.outcome.deleted += names } else { outcome.deleted = names }
    }

    func copyStore(named name: String, withWAL: Bool) throws {
        // Names are plain (validation refuses `.`, `..` and separators); never copy onto the store itself.
        guard copyURL(name).standardizedFileURL.path != coordinator.url.standardizedFileURL.path else {
            throw AgentError(kind: .other, description: "the copy '\(name)' would overwrite the live store")
        }
        try coordinator.copyStore(to: copyURL(name), includeWAL: withWAL)
    }

    func openCopy(named name: String) throws {
        do {
            openedCopy = try AgentProcess.openStore(config: config, clock: clock, file: .copy(copyURL(name)))
        } catch {
            // As Core Data's addPersistentStore fails on such a file: the step's error, not the harness's.
            throw AgentError(kind: .storeLoadFailed, description: "the copy '\(name)' cannot be opened as a store: \(error)")
        }
        openedCopyName = "copy:\(name)"
    }

    /// Where the copy named `name` lives: `<copies>/<name>/<store>.sqlite`.
    func copyURL(_ name: String) -> URL {
        URL(fileURLWithPath: config.copiesDirectory)
            .appendingPathComponent(name, isDirectory: true)
            .appendingPathComponent("\(config.store.name).sqlite")
    }

    /// Fetches history after this process's token and merges it into the view context.
    /// - Returns: what was merged. An expired token is recorded and rethrown.
    @discardableResult
    func mergeHistory() throws -> RemoteChanges {
        let filter = settings.historyAuthorFilter
        if settings.foreignToken == .reset, coordinator.historyTokenIsForeign(for: config.process) {
            // The store was replaced: its history starts afresh, and so does this consumer.
            let start = settings.historyStart == .now ? try coordinator.latestHistoryToken() : nil
            try coordinator.setHistoryToken(start, for: config.process)
            record(.note("\(config.process)'s history token belonged to the store this one replaced; it starts again"
                + (start == nil ? " from the first transaction" : " from the newest")))
        }
        let before = coordinator.historyToken(for: config.process)
        do {
            let result = try coordinator.mergeHistory(into: view, consumer: config.process, filter: filter, entities: settings.historyEntities,
                                                     changeTypes: settings.historyChangeTypes.map(Set.init))
            let changes = result.remoteChanges
            record(.historyFetched(HistoryFetch(
                tokenBefore: result.tokenBefore, tokenAfter: result.tokenAfter,
                transactions: result.transactions.count + result.skipped, merged: result.transactions.count, expired: false)))
            return changes
        } catch {
            if error.code == .expiredToken {
                record(.historyFetched(HistoryFetch(tokenBefore: before, tokenAfter: before, transactions: 0, merged: 0, expired: true)))
            } else if error.code == .foreignToken {
                record(.historyFetched(HistoryFetch(tokenBefore: before, tokenAfter: before, transactions: 0, merged: 0, expired: false)))
            }
            throw error
        }
    }

    /// Purges history by `policy`; `consumed-by-all` counts the processes with `refresh: history`.
    /// Returns how many transactions it deleted.
    @discardableResult
    func purgeHistory(_ policy: PurgePolicy) throws -> Int {
        let storePolicy: HistoryPurgePolicy
        switch policy {
        case .none: return 0
        case .consumedByAll: storePolicy = .consumedByAll
        case .ownToken: storePolicy = .ownToken
        case .olderThan(let age): storePolicy = .olderThan(age.seconds)
        }
        let before = policy == .ownToken ? coordinator.lastOwnHistoryToken : nil
        // Sync reads history too (to export it): a store in an ensemble waits for it as well.
        let consumers = settings.historyConsumers + (settings.syncEnabled ? [SyncEnsemble.historyConsumer] : [])
        let deleted = try coordinator.purgeHistory(storePolicy, consumers: consumers)
        record(.purged(PurgeRecord(policy: storePolicy.description, beforeToken: before, deleted: deleted)))
        return deleted
    }

    /// The history strategy's merge: after the saved token; nil when it failed. An expired token is
    /// recorded (as Core Data apps see error 134301); the token is kept and nothing is merged.
    func mergeHistoryForRefresh() -> (inserted: Int, updated: Int, deleted: Int)? {
        do {
            let changes = try mergeHistory()
            return (changes.inserted.count, changes.updated.count, changes.deleted.count)
        } catch {
            recordRefreshError(error)
            return nil
        }
    }

    /// The history strategy's purge by the `purge` setting, once the refresh's merge is done and recorded
    /// (none after a merge that failed): the changes are in the context by then, whatever the purge meets.
    ///
    /// A purge that meets another process's lock under a request that lets its work yield (the
    /// deterministic mode, inside `parallel`) is left pending: the runner waits for the lock while the
    /// holder acts, as SQLite's busy handler waits in real time, and the purge runs again first.
    func purgeAfterRefresh() {
        guard settings.own.purgesAfterMerge && !pendingPurge else { return }
        do {
            try purgeHistory(settings.purge)
        } catch {
            if refreshYields(error) {
                // The step under way, when it expects an error its refresh may meet, is decided by the purge.
                let deciding = expectedError.flatMap { metExpectedError ? nil : PurgeWait.Expectation(kind: $0, step: expectationStep) }
                purgeWait.begin(deciding: deciding)
            } else {
                recordRefreshError(error)
            }
        }
    }

    /// A batch operation's rows as a commit, with the operations, versions and values the store read inside
    /// the operation's transaction (`lastBatchChanges`; `operation` for a row it did not report), stamped
    /// with the interval of its COMMIT (`commitTimes`); held until `end-write` inside `begin-write`. Rows
    /// the store did not report (a sync import) are read back through the inspector, after the fact.
    func recordBatch(_ source: CommitSource, _ rows: [ObjectID], operation: ChangeOperation) {
        defer { lastBatchChanges = [] }
        guard !rows.isEmpty else { return }
        let reported = Dictionary(lastBatchChanges.map { ($0.object, $0) }, uniquingKeysWith: { $1 })
        let reader = operation == .delete ? nil : inspectorContext("batch-readback")
        var objects: [CommittedObject] = []
        for id in rows {
            var values: TraceValues = [:]
            var version: Int64 = 0
            var rowOperation = operation
            if let change = reported[id] {
                rowOperation = change.operation
                values = change.values.traceValues
                version = change.version
            } else if let reader, let read = try? reader.values(of: id) {
                values = read.traceValues
                version = reader.version(of: id) ?? 0
            }
            objects.append(CommittedObject(id: ids.name(of: id), entity: id.entity, operation: rowOperation,
                                           version: version, values: values, pk: id.primaryKey))
        }
        let token = try? coordinator.latestHistoryToken()
        let commit = SaveCommit(store: committedStoreName, source: source, token: token ?? nil, objects: objects)
        if heldWrite != nil {
            // A batch insert's rows are in its cost already (its count is the step's).
            if source != .batchInsert { heldWrite?.rows += rows.count }
            // A batch operation posts no notification.
            hold(commit, CommandOutcome(), notifies: false)
        } else {
            recordCommit(commit)
        }
    }
}

extension AgentProcess {
    /// A read-only coordinator of this process's store with a row cache of its own, opened on first
    /// use: the harness reads the store through it (batch read-backs, what a list should hold) without
    /// teaching the process's own row cache anything, which would change what the process shows.
    func inspector() -> StoreCoordinator? {
        if inspectorStore == nil {
            inspectorStore = try? StoreCoordinator(url: coordinator.url, model: coordinator.model, options: StoreOptions(readOnly: true))
        }
        return inspectorStore
    }

    /// A new context of the inspector whose faults always read SQL (staleness 0).
    func inspectorContext(_ name: String) -> ObjectContext? {
        guard let context = inspector()?.newBackgroundContext(name: name) else { return nil }
        context.stalenessInterval = 0
        return context
    }
}
