import Foundation

/// One store's membership in a sync ensemble (the Ensembles model, `CDEPersistentStoreEnsemble`): the
/// stores of an app's devices (the phone's app-group store, the watch's own store) exchange change-set
/// files through a `TransferService` and converge.
///
/// ```swift
/// let transfer = DirectoryTransfer(root: sandbox, ensemble: "notes", latency: 2, clock: clock)
/// let ensemble = SyncEnsemble(store: watchStore, transfer: transfer, storeName: "watch")
/// try ensemble.leech()                       // joins, exports the store's contents as a baseline
/// let result = try ensemble.sync()           // exports local changes, imports the peers'
/// watchStore.viewContext.mergeChanges(fromRemoteContextSave: result.changes)
/// ```
///
/// - Export reads persistent history after the last export (so the store must be opened with
///   `historyTracking`), skipping the transactions sync itself wrote (author `sync.import`).
/// - Import applies every visible peer change set not applied yet, in (store, sequence) order, in the same
///   SQL transaction as the export and the record of applied files; its writes bump `Z_OPT` and are
///   recorded in history with author `sync.import`. Batch-like: contexts and the row cache are untouched
///   until the caller merges `SyncResult.changes`.
/// - Identity: every object has an ensemble-wide global identifier: its entity's first `uuid` attribute
///   when set (so the same uuid inserted on two stores becomes one object), otherwise one assigned when it
///   is first exported (two inserts stay two objects). Never the primary key.
/// - Conflicts: per property, the value with the greater stamp (time on the writer's clock, then store
///   identifier) wins; a delete wins over every edit, for good.
///
/// Not thread-safe: use it on the store's thread. See `Docs/Sync.md`.
public final class SyncEnsemble {
    /// The history author of the transactions sync writes (skipped by export).
    public static let importAuthor = "sync.import"
    /// The history consumer sync keeps its export token under, so `consumedByAll` purges wait for it.
    public static let historyConsumer = "sync"

    /// The store this ensemble member syncs.
    public let store: StoreCoordinator
    /// Where change sets are exchanged.
    public let transfer: any TransferService
    /// The human name the store's ensemble identifier starts with (`watch`, `app`).
    public let storeName: String
    /// The clock of the baseline's stamps and change sets' export times (default: the store's clock).
    public let clock: any StoreClock
    /// Called at each `SyncStage` of `leech()` and `sync()`; throwing stops the operation there, as a
    /// crash would (the runner kills the process in it). Inside the transaction, the store rolls back.
    public var interruption: ((SyncStage) throws -> Void)?

    let engine: SyncEngine
    var core: StoreCore { store.core }

    /// A member for `store`, exchanging files through `transfer`.
    /// - Parameters:
    ///   - store: opened with history tracking.
    ///   - transfer: the ensemble's shared file location.
    ///   - storeName: the readable prefix of the store's ensemble identifier (letters, digits, `-`, `_`).
    ///   - clock: stamps of the baseline and export times; local changes carry their history timestamps.
    ///   - identifiers: where new global identifiers and the store identifier's suffix come from (random,
    ///     as on a device, unless a deterministic run seeds them).
    public init(store: StoreCoordinator, transfer: any TransferService, storeName: String, clock: (any StoreClock)? = nil,
                identifiers: SyncIdentifiers = .random) {
        self.store = store
        self.transfer = transfer
        self.storeName = storeName
        self.clock = clock ?? store.clock
        engine = SyncEngine(core: store.core, identifiers: identifiers)
    }

    /// The store's identifier in the ensemble (`watch-1A2B3C4D`), or nil before it leeches. Kept in the
    /// store's metadata (`GROUPSIM_META`), so it survives relaunches and is shared by the processes of a store.
    public var storeIdentifier: String? { try? engine.storeIdentifier() }

    /// Whether the store belongs to the ensemble.
    public var isLeeched: Bool { storeIdentifier != nil }

    // MARK: Leech

    /// Joins the store to the ensemble: gives it an ensemble identifier and exports its whole contents once
    /// as a baseline change set. Peers' changes are imported by the next `sync()`.
    /// - Throws: `SyncError.alreadyLeeched` the second time; `.historyTrackingRequired`; `.store(.readOnly)`.
    @discardableResult
    public func leech() throws(SyncError) -> SyncResult {
        try requireWritableHistory()
        var result = SyncResult()
        result.leeched = true
        do {
            try store.inWriteTransaction {
                try SyncSchema.create(engine.db, model: core.model)
                if let identifier = try engine.storeIdentifier() { throw SyncError.alreadyLeeched(storeIdentifier: identifier) }
                let identifier = makeStoreIdentifier()
                try engine.setMeta(SyncSchema.storeKey, .string(identifier))
                let token = try HistoryReader.latestToken(core) ?? HistoryReader.purgedThrough(core) ?? 0
                try engine.setMeta(SyncSchema.exportTokenKey, .int(token))
                let changes = try engine.exportBaseline(store: identifier, now: clock.now, applied: AppliedChanges())
                try writeOutbox(changes, store: identifier, baseline: true)
                result.exportedObjects = changes.count
                try interrupt(.beforeCommit)
            }
            try interrupt(.beforeUpload)
            result.exportedFiles = try upload()
            try store.setHistoryToken(try engine.meta(SyncSchema.exportTokenKey)?.intValue, for: Self.historyConsumer)
        } catch {
            throw SyncError.wrap(error)
        }
        return result
    }

    // MARK: Sync

    /// Exports the changes saved since the last export and imports every visible peer change set not
    /// applied yet, in one SQL transaction; then writes the export to the transfer service. Leeches first
    /// when the store never did.
    ///
    /// - Returns: what was exported and imported; merge `changes` into the contexts that show this store.
    /// - Throws: `SyncError`; the store is then as before the call, and the next `sync()` completes.
    @discardableResult
    public func sync() throws(SyncError) -> SyncResult {
        try requireWritableHistory()
        var result = isLeeched ? SyncResult() : try leech()
        do {
            guard let identifier = try engine.storeIdentifier() else { throw SyncError.store(.invalidState("not leeched")) }
            let pending = try pendingChangeSets(excluding: identifier)
            let applied = AppliedChanges()
            var imported: [String] = []
            let token = try store.inWriteTransaction { () throws -> Int64? in
                let exportToken = try engine.meta(SyncSchema.exportTokenKey)?.intValue ?? 0
                let (changes, through) = try engine.exportChanges(store: identifier, after: exportToken, applied: applied)
                try engine.setMeta(SyncSchema.exportTokenKey, .int(through))
                try writeOutbox(changes, store: identifier, baseline: false)
                result.exportedObjects += changes.count
                try interrupt(.exported)
                var references: [PendingReference] = []
                for (name, changeSet) in pending where try !isApplied(name) {
                    try engine.importChangeSet(changeSet, name: name, applied: applied, references: &references)
                    try engine.db.cached("INSERT INTO GROUPSIM_SYNCAPPLIED (ZNAME, ZSTORE, ZSEQUENCE, ZAPPLIEDAT) VALUES (?, ?, ?, ?)")
                        .run([.string(name), .string(changeSet.store), .int(changeSet.sequence),
                              .double(clock.now.timeIntervalSinceReferenceDate)])
                    imported.append(name)
                }
                try engine.resolveReferences(references, name: "import", applied: applied)
                var token: Int64?
                if !applied.isEmpty {
                    token = try HistoryRecorder.record(core: core, contextName: "sync", author: Self.importAuthor,
                                                       changes: applied.historyChanges(core))
                }
                try interrupt(.beforeCommit)
                return token
            }
            if let token { core.lastOwnToken = token }
            result.historyToken = token
            result.importedFiles = imported
            result.changes = applied.remoteChanges(core)
            // The import wrote through this coordinator, as a context of it would: its cache of those rows
            // (values and to-many contents) is out of date.
            for id in result.changes.updated + result.changes.deleted {
                if let entity = try? core.model.entity(named: id.entity) { core.dropSnapshot(id, entity: entity.index, reason: .remoteMerge) }
            }
            try interrupt(.beforeUpload)
            result.exportedFiles += try upload()
            try store.setHistoryToken(try engine.meta(SyncSchema.exportTokenKey)?.intValue, for: Self.historyConsumer)
        } catch {
            throw SyncError.wrap(error)
        }
        return result
    }

    /// `sync()`, then merges what it changed into `context` (Ensembles' `didSaveMergeChanges` delegate).
    @discardableResult
    public func sync(mergingInto context: ObjectContext) throws(SyncError) -> SyncResult {
        let result = try sync()
        if !result.changes.isEmpty { context.mergeChanges(fromRemoteContextSave: result.changes) }
        return result
    }

    // MARK: Identity

    /// The object's ensemble-wide global identifier: the one recorded for it, else its `uuid` attribute's
    /// value, else a new one, recorded now (Ensembles assigns one at insert when there is no delegate).
    /// - Throws: `SyncError.notFound` for an object not in the store; `.store(.invalidObjectID)` for a
    ///   temporary ID or another store's.
    public func globalIdentifier(of id: ObjectID) throws(SyncError) -> String {
        guard id.storeIdentifier == store.storeIdentifier, !id.isTemporary else {
            throw .store(.invalidObjectID(id, reason: "not a saved object of this store"))
        }
        do {
            let entity = try core.model.entity(named: id.entity)
            let hasTables = try engine.db.tableExists("GROUPSIM_SYNCOBJECT")
            if hasTables, let identifier = try engine.mappedIdentifier(entity, id.primaryKey) { return identifier }
            guard let row = try core.readRow(entity, id.primaryKey, on: engine.db) else { throw SyncError.notFound(id) }
            if let identifier = engine.uuidIdentifier(entity, row.values),
                try !hasTables || engine.mappedKey(entity, identifier) == nil
            {
                return identifier
            }
            return try store.inWriteTransaction {
                try SyncSchema.create(engine.db, model: core.model)
                return try engine.identifier(entity, id.primaryKey, values: row.values)
            }
        } catch {
            throw SyncError.wrap(error)
        }
    }

    /// The object of this store with `identifier` (of `entity`, or of any entity when nil), or nil.
    public func object(forGlobalIdentifier identifier: String, entity: String? = nil) throws(SyncError) -> ObjectID? {
        do {
            let entities = try entity.map { [try core.model.entity(named: $0)] } ?? core.model.entities
            let hasTables = try engine.db.tableExists("GROUPSIM_SYNCOBJECT")
            for info in entities {
                if hasTables {
                    if let key = try engine.findKey(info, identifier).0 { return core.objectID(info, key) }
                } else if let slot = engine.syncModel.uuidSlot[info.index], let uuid = UUID(uuidString: identifier),
                    let key = try engine.db.scalarInt(
                        "SELECT Z_PK FROM \(info.tableName) WHERE \(info.slots[slot].column) = ? ORDER BY Z_PK LIMIT 1",
                        [.uuid(uuid)])
                {
                    return core.objectID(info, key)
                }
            }
            return nil
        } catch {
            throw SyncError.wrap(error)
        }
    }

    // MARK: Steps

    private func requireWritableHistory() throws(SyncError) {
        if let reason = store.readOnlyReason { throw .store(.readOnly(reason: reason)) }
        guard store.isHistoryTrackingEnabled else { throw .historyTrackingRequired }
        if core.model.modelDescription.hasInheritance { throw .unsupportedModel(reason: "the model has sub-entities") }
    }

    private func makeStoreIdentifier() -> String {
        let safe = String(storeName.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "_" })
        return "\(safe.isEmpty ? "store" : safe)-\(engine.identifiers.next().uuidString.prefix(8))"
    }

    private func interrupt(_ stage: SyncStage) throws {
        guard let interruption else { return }
        do { try interruption(stage) } catch { throw SyncError.interrupted(stage: stage, reason: "\(error)") }
    }

    /// Records a change set in the outbox (inside the transaction) under the next sequence number.
    private func writeOutbox(_ changes: [ObjectChange], store identifier: String, baseline: Bool) throws {
        guard !changes.isEmpty else { return }
        let sequence = (try engine.meta(SyncSchema.sequenceKey)?.intValue ?? 0) + 1
        let changeSet = ChangeSet(store: identifier, sequence: sequence, baseline: baseline,
                                  exportedAt: clock.now.timeIntervalSinceReferenceDate, model: core.model.versionHash,
                                  changes: changes)
        let data = try changeSet.encoded()
        try engine.db.cached("INSERT OR REPLACE INTO GROUPSIM_SYNCOUTBOX (ZNAME, ZDATA) VALUES (?, ?)")
            .run([.string(changeSet.fileName), .string(String(decoding: data, as: UTF8.self))])
        try engine.setMeta(SyncSchema.sequenceKey, .int(sequence))
    }

    /// Writes every committed outbox change set to the transfer service, then drops it from the outbox.
    private func upload() throws -> [String] {
        let statement = try engine.db.cached("SELECT ZNAME, ZDATA FROM GROUPSIM_SYNCOUTBOX ORDER BY ZNAME")
        try statement.bind([])
        var files: [(String, String)] = []
        while try statement.step() { files.append((statement.string(at: 0) ?? "", statement.string(at: 1) ?? "")) }
        statement.reset()
        for (name, text) in files {
            do { try transfer.write(name, data: Data(text.utf8)) } catch {
                throw SyncError.transfer(operation: "write \(name)", reason: "\(error)")
            }
            try engine.db.cached("DELETE FROM GROUPSIM_SYNCOUTBOX WHERE ZNAME = ?").run([.string(name)])
        }
        return files.map(\.0)
    }

    private func isApplied(_ name: String) throws -> Bool {
        try engine.db.scalarInt("SELECT 1 FROM GROUPSIM_SYNCAPPLIED WHERE ZNAME = ?", [.string(name)]) != nil
    }

    /// The visible peer change sets not applied yet, read and checked, in (store, sequence) order.
    private func pendingChangeSets(excluding identifier: String) throws -> [(String, ChangeSet)] {
        let names: [String]
        do { names = try transfer.list() } catch {
            throw SyncError.transfer(operation: "list", reason: "\(error)")
        }
        let candidates = try Set(names).compactMap { name -> (String, String, Int64)? in
            guard let (store, sequence) = ChangeSet.parse(fileName: name), store != identifier, try !isApplied(name)
            else { return nil }
            return (name, store, sequence)
        }.sorted { ($0.1, $0.2) < ($1.1, $1.2) }
        return try candidates.map { name, store, sequence in
            let data: Data
            do { data = try transfer.read(name) } catch {
                throw SyncError.transfer(operation: "read \(name)", reason: "\(error)")
            }
            let changeSet: ChangeSet
            do { changeSet = try ChangeSet.decode(data) } catch {
                throw SyncError.invalidChangeSet(name: name, reason: "\(error)")
            }
            guard changeSet.format == ChangeSet.currentFormat else {
                throw SyncError.invalidChangeSet(name: name, reason: "unknown format \(changeSet.format)")
            }
            guard changeSet.model == core.model.versionHash else {
                throw SyncError.invalidChangeSet(
                    name: name, reason: "made with another model (hash \(changeSet.model), this store's \(core.model.versionHash))")
            }
            guard changeSet.store == store, changeSet.sequence == sequence else {
                throw SyncError.invalidChangeSet(name: name, reason: "its content names \(changeSet.fileName)")
            }
            return (name, changeSet)
        }
    }
}
