import Basics
import Foundation

extension StoreCoordinator {
    /// The newest history token in the store (`nil` when there is no history).
    public func latestHistoryToken() throws(StoreError) -> Int64? {
        try HistoryReader.requireTracking(core)
        return try HistoryReader.latestToken(core)
    }

    /// How much history the store holds: its transactions and their changes (both 0 for a store that
    /// never tracked history). Read on the writer connection, whatever this coordinator's options.
    public func historySize() throws(StoreError) -> (transactions: Int64, changes: Int64) {
        do {
            return try Self.historySize(core.writer)
        } catch {
            throw .sqlite(error)
        }
    }

    /// How much history the store file at `url` holds, read without opening it as a store (no model,
    /// nothing written): what `historySize()` tells, for a harness that only measures.
    public static func historySize(ofStoreAt url: URL) throws(StoreError) -> (transactions: Int64, changes: Int64) {
        do {
            return try historySize(SQLiteConnection(path: url.path, readOnly: true, walMode: false))
        } catch {
            throw .sqlite(error)
        }
    }

    private static func historySize(_ db: SQLiteConnection) throws(SQLiteError) -> (transactions: Int64, changes: Int64) {
        guard try db.tableExists("ACHANGE") else { return (0, 0) }
        return (try db.scalarInt("SELECT count(*) FROM ATRANSACTION") ?? 0, try db.scalarInt("SELECT count(*) FROM ACHANGE") ?? 0)
    }

    /// Fetches the transactions after `token` (all when `nil`), keeping those `filter` selects for `ownAuthor`.
    ///
    /// Read on the writer connection, never through a pinned generation.
    /// - Throws: `StoreError.expiredToken` when a transaction after `token` was purged (Core Data's 134301).
    public func fetchHistory(after token: Int64?, filter: HistoryAuthorFilter = .all, ownAuthor: String? = nil)
        throws(StoreError) -> HistoryFetchResult
    {
        try HistoryReader.requireTracking(core)
        if let token, let purged = try HistoryReader.purgedThrough(core), purged > token {
            throw .expiredToken(token: token, purgedThrough: purged)
        }
        let all = try HistoryReader.transactions(core, afterToken: token, afterDate: nil)
        return select(all, before: token, filter: filter, ownAuthor: ownAuthor)
    }

    /// Fetches the transactions written after `date` on the simulated clock.
    public func fetchHistory(after date: Date, filter: HistoryAuthorFilter = .all, ownAuthor: String? = nil)
        throws(StoreError) -> HistoryFetchResult
    {
        try HistoryReader.requireTracking(core)
        let all = try HistoryReader.transactions(core, afterToken: nil, afterDate: date)
        return select(all, before: nil, filter: filter, ownAuthor: ownAuthor)
    }

    private func select(_ all: [HistoryTransaction], before token: Int64?, filter: HistoryAuthorFilter,
                        ownAuthor: String?) -> HistoryFetchResult
    {
        let kept = all.filter { transaction in
            switch filter {
            case .all: true
            case .allButOwn: ownAuthor == nil || transaction.author != ownAuthor
            case .authors(let authors): transaction.author.map(authors.contains) ?? false
            }
        }
        return HistoryFetchResult(tokenBefore: token, tokenAfter: all.last?.token ?? token, transactions: kept,
                                  skipped: all.count - kept.count)
    }

    /// Catches `context` up from the consumer's persisted token: fetches history after it, merges the kept
    /// transactions as `mergeChanges(fromRemoteContextSave:)` does (updated snapshots dropped so faults read
    /// SQL, inserts join the view, deletes leave it), and persists the token of the last transaction fetched.
    ///
    /// - Parameters:
    ///   - context: usually the view context; its `transactionAuthor` is "own" for `.allButOwn`.
    ///   - consumer: the name the token is kept under in the group container.
    ///   - filter: which authors to merge.
    ///   - entities: the entities whose changes are merged, sub-entities included (a history fetch request
    ///     on the change's entity); nil for every entity. The token moves past the others all the same.
    ///   - changeTypes: the kinds of change merged (a history fetch request with a predicate on the change's
    ///     `changeType`); nil for every kind. The token moves past the others all the same.
    /// - Throws: `StoreError.expiredToken` (the token is kept and nothing merged).
    @discardableResult
    public func mergeHistory(into context: ObjectContext, consumer: String, filter: HistoryAuthorFilter = .allButOwn,
                             entities: [String]? = nil, changeTypes: Set<ChangeOperation>? = nil) throws(StoreError) -> HistoryFetchResult
    {
        try consumeHistory(consumer: consumer, filter: filter, ownAuthor: context.transactionAuthor,
                           entities: entities, changeTypes: changeTypes, merging: true) { changes in
            context.mergeChanges(fromRemoteContextSave: changes)
        }.result
    }

    /// Reads the history after the consumer's persisted token as `mergeHistory` does, and persists the
    /// token of the last transaction read, merging nothing: SwiftData's `HistoryObserver`, which tells its
    /// observers that something changed and leaves the fetching to them.
    /// - Returns: what was read, and the changes the filters kept (empty: nothing the consumer observes).
    /// - Throws: `StoreError.expiredToken` or `.foreignToken` (the token is kept).
    public func observeHistory(consumer: String, filter: HistoryAuthorFilter = .allButOwn, ownAuthor: String?,
                               entities: [String]? = nil, changeTypes: Set<ChangeOperation>? = nil)
        throws(StoreError) -> (result: HistoryFetchResult, changes: RemoteChanges)
    {
        try consumeHistory(consumer: consumer, filter: filter, ownAuthor: ownAuthor, entities: entities, changeTypes: changeTypes,
                           merging: false) { _ in }
    }

    /// The history after `consumer`'s token, the changes the filters keep (handed to `use` before the
    /// token moves), and the token persisted past everything read; `merging` says whether `use` merges
    /// what it is handed (the store event counts the transactions merged).
    private func consumeHistory(consumer: String, filter: HistoryAuthorFilter, ownAuthor: String?, entities: [String]?,
                                changeTypes: Set<ChangeOperation>?, merging: Bool, use: (RemoteChanges) -> Void)
        throws(StoreError) -> (result: HistoryFetchResult, changes: RemoteChanges)
    {
        let tokens = HistoryTokenStore(storeURL: core.url)
        let saved = tokens.token(consumer)
        let before = saved.token
        if before != nil, let store = saved.store, store != core.storeIdentifier {
            core.emit(.historyFetched(consumer: consumer, tokenBefore: before, tokenAfter: before, merged: 0, skipped: 0))
            throw .foreignToken(consumer: consumer, savedFor: store)
        }
        let result: HistoryFetchResult
        do {
            result = try fetchHistory(after: before, filter: filter, ownAuthor: ownAuthor)
        } catch {
            core.emit(.historyFetched(consumer: consumer, tokenBefore: before, tokenAfter: before, merged: 0, skipped: 0))
            throw error
        }
        var changes = result.remoteChanges
        if let entities {
            let kept = Set(entities.flatMap(core.model.kindNames(of:)))
            changes.inserted.removeAll { !kept.contains($0.entity) }
            changes.updated.removeAll { !kept.contains($0.entity) }
            changes.deleted.removeAll { !kept.contains($0.entity) }
        }
        if let changeTypes {
            if !changeTypes.contains(.insert) { changes.inserted = [] }
            if !changeTypes.contains(.update) { changes.updated = [] }
            if !changeTypes.contains(.delete) { changes.deleted = [] }
        }
        use(changes)
        if result.tokenAfter != before || saved.store == nil { try tokens.setToken(result.tokenAfter, consumer, store: core.storeIdentifier) }
        if let after = result.tokenAfter { core.lastOwnToken = max(core.lastOwnToken ?? after, after) }
        core.emit(.historyFetched(consumer: consumer, tokenBefore: before, tokenAfter: result.tokenAfter,
                                  merged: merging ? result.transactions.count : 0, skipped: result.skipped))
        return (result, changes)
    }

    /// Registers a history consumer (for `consumedByAll`) without a token, unless it already has one.
    public func registerHistoryConsumer(_ consumer: String) throws(StoreError) {
        let tokens = HistoryTokenStore(storeURL: core.url)
        if !tokens.token(consumer).registered { try tokens.setToken(nil, consumer, store: core.storeIdentifier) }
    }

    /// Whether the consumer's saved token was saved for another store (this one replaced it since).
    public func historyTokenIsForeign(for consumer: String) -> Bool {
        let saved = HistoryTokenStore(storeURL: core.url).token(consumer)
        return saved.token != nil && saved.store.map { $0 != core.storeIdentifier } ?? false
    }

    /// The consumer's persisted token (`nil` when it has none).
    public func historyToken(for consumer: String) -> Int64? {
        HistoryTokenStore(storeURL: core.url).token(consumer).token
    }

    /// Persists a consumer's token.
    public func setHistoryToken(_ token: Int64?, for consumer: String) throws(StoreError) {
        try HistoryTokenStore(storeURL: core.url).setToken(token, consumer, store: core.storeIdentifier)
    }

    /// The last history token this process wrote or consumed (what `.ownToken` purges before).
    public var lastOwnHistoryToken: Int64? { core.lastOwnToken }

    /// How many history changes the last `purgeHistory` deleted (what it wrote, besides its transactions).
    public var changesLastPurged: Int { core.lastPurgedChanges }

    /// Deletes history by `policy`, recording the highest purged token so later fetches after an older
    /// token fail with `expiredToken`.
    /// - Parameter consumers: for `.consumedByAll`, the consumers whose tokens count (default: every
    ///   registered consumer of this store).
    /// - Returns: how many transactions were deleted.
    @discardableResult
    public func purgeHistory(_ policy: HistoryPurgePolicy, consumers: [String] = []) throws(StoreError) -> Int {
        core.lastPurgedChanges = 0
        try HistoryReader.requireTracking(core)
        if let reason = core.readOnlyReason { throw .readOnly(reason: reason) }
        var condition: (String, Value)?
        switch policy {
        case .none:
            break
        case .ownToken:
            if let token = core.lastOwnToken { condition = ("Z_PK < ?", .int(token)) }
        case .olderThan(let seconds):
            condition = ("ZTIMESTAMP < ?", .date(core.clock.now.addingTimeInterval(-seconds)))
        case .consumedByAll:
            let tokens = HistoryTokenStore(storeURL: core.url)
            let names = consumers.isEmpty ? tokens.consumers() : consumers
            let found = names.map { tokens.token($0).token }
            if !found.isEmpty, !found.contains(where: { $0 == nil }), let oldest = found.compactMap({ $0 }).min() {
                condition = ("Z_PK < ?", .int(oldest))
            }
        }
        guard let (clause, argument) = condition else {
            core.emit(.historyPurged(policy: policy.description, throughToken: nil, deleted: 0))
            return 0
        }
        do {
            let db = core.writer
            let (deleted, through) = try inWriteTransaction { () throws -> (Int, Int64?) in
                let through = try db.scalarInt("SELECT max(Z_PK) FROM ATRANSACTION WHERE \(clause)", [argument])
                guard let through else { return (0, nil) }
                core.lastPurgedChanges = try db.cached("DELETE FROM ACHANGE WHERE ZTRANSACTIONID IN (SELECT Z_PK FROM ATRANSACTION WHERE \(clause))")
                    .run([argument])
                let deleted = try db.cached("DELETE FROM ATRANSACTION WHERE \(clause)").run([argument])
                // A purge by age can keep older tokens (a store from a device may carry later timestamps):
                // the highest token purged is recorded, besides what the tokens left tell.
                let previous = try StoreSchema.meta(db, HistoryReader.purgedThroughKey)?.intValue ?? 0
                try StoreSchema.setMeta(db, HistoryReader.purgedThroughKey, .int(max(previous, through)))
                return (deleted, through)
            }
            core.emit(.historyPurged(policy: policy.description, throughToken: through, deleted: deleted))
            return deleted
        } catch {
            throw StoreError.wrap(error)
        }
    }
}
