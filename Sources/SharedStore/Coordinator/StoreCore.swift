import Basics
import Foundation

/// A row as last read from SQL or written by this process: values by slot, `Z_OPT`, and when it was read.
struct RowSnapshot {
    var values: [Value]
    var version: Int64
    var readAt: Date
}

final class WeakContext {
    weak var context: ObjectContext?
    init(_ context: ObjectContext) { self.context = context }
}

/// The per-process state shared by the coordinator and its contexts: connections, row cache, clock, hooks.
///
/// Confined to the thread that owns the store, like its contexts: its mutable stored properties skip the
/// dynamic exclusivity check, for the reasons given on `ObjectContext`.
final class StoreCore {
    let model: Model
    let url: URL
    let options: StoreOptions
    let clock: any StoreClock
    @exclusivity(unchecked) var eventSink: StoreEventSink?
    @exclusivity(unchecked) var beforeCommit: ((BeforeCommitEvent) -> Void)?
    @exclusivity(unchecked) var commitObserver: ((CommitPhase) -> Void)?
    @exclusivity(unchecked) var didSaveObservers: [(DidSaveEvent) -> Void] = []
    /// The view context's connection for unpinned reads (a pinned generation holds its own: `QueryGeneration`).
    let reader: SQLiteConnection
    /// Saves, batch operations, history, and background contexts' reads.
    let writer: SQLiteConnection
    let storeIdentifier: String
    /// The rows a lightweight migration at this open rewrote; 0 when none ran.
    let rowsMigratedAtOpen: Int
    /// `storeIdentifier`, interned (what `ObjectID`s hold).
    let store: StoreIdentity
    /// Whether the store records history (this process opened it with tracking).
    let historyTracking: Bool
    /// Set when this process may not write the store, with the reason.
    let readOnlyReason: String?
    /// The row cache: one table per entity (`model.entities` order), by primary key.
    @exclusivity(unchecked) var rows: [KeyTable<RowSnapshot>]
    /// For the entities that share a table with others: the entity of each row key seen (a fetch, a fault,
    /// a save), by root entity. A to-one or a to-many holds only keys, and a row once deleted no longer
    /// says whose it was; keys are never handed out twice, so what is learned stays true.
    @exclusivity(unchecked) private var familyKeys: [Int: [Int64: Int]] = [:]
    /// Fired to-many relationships' contents, by owner row and relationship (`toManySnapshot`).
    @exclusivity(unchecked) var toManyRows: [ToManyKey.Row: [Int: ToManySnapshot]] = [:]
    @exclusivity(unchecked) var contexts: [WeakContext] = []
    @exclusivity(unchecked) private var nextTemporaryKey: Int64 = -1
    /// The last history token this process wrote or consumed (for `own-token` purges).
    @exclusivity(unchecked) var lastOwnToken: Int64?
    /// A write transaction held open across calls (`beginWrite`).
    @exclusivity(unchecked) var heldWrite = false
    /// The query generations contexts are pinned to now.
    @exclusivity(unchecked) var liveGenerations: [QueryGeneration] = []
    /// Every connection opened for a query generation (closed with the store), and those idle now.
    @exclusivity(unchecked) var generationConnections: [SQLiteConnection] = []
    @exclusivity(unchecked) var idleGenerationConnections: [SQLiteConnection] = []
    /// How many history changes (`ACHANGE` rows) the last purge deleted.
    @exclusivity(unchecked) var lastPurgedChanges = 0
    /// The objects this process deleted and saved (its contexts' saves, its batch deletes): a history
    /// transaction older than the delete (fetched after it, from an earlier token) that inserted one does
    /// not bring it back into a view.
    @exclusivity(unchecked) var committedDeletes: Set<ObjectID> = []

    init(url: URL, model: Model, options: StoreOptions, clock: any StoreClock, eventSink: StoreEventSink?)
        throws(StoreError)
    {
        self.model = model
        self.url = url
        self.options = options
        self.clock = clock
        self.eventSink = eventSink
        rows = Array(repeating: KeyTable(), count: model.entities.count)
        let path = url.path
        let foreign = options.readOnly || options.writesForeignStores ? nil : StoreSchema.foreignStoreReason(at: path)
        let readOnly = options.readOnly || foreign != nil
        do {
            writer = try SQLiteConnection(path: path, readOnly: readOnly, busyTimeout: options.busyTimeout)
            reader = try SQLiteConnection(path: path, readOnly: readOnly, busyTimeout: options.busyTimeout, walMode: false)
            writer.stopStatements(at: options.statementDeadline)
            reader.stopStatements(at: options.statementDeadline)
        } catch {
            throw .sqlite(error)
        }
        let metadata: StoreSchema.Metadata
        if readOnly {
            // A read-only store is never migrated: one made with an earlier version does not load.
            if let hash = try? StoreSchema.modelHash(writer), hash != model.versionHash,
               options.previousModels.contains(where: { $0.versionHash == hash }) {
                throw .migrationRequired(path: url.path, storeHash: hash, modelHash: model.versionHash)
            }
            metadata = try StoreSchema.check(writer, model: model)
        } else {
            metadata = try StoreSchema.prepare(writer, model: model, options: options)
        }
        storeIdentifier = metadata.storeIdentifier
        rowsMigratedAtOpen = metadata.rowsMigrated
        store = StoreIdentity(metadata.storeIdentifier)
        historyTracking = options.historyTracking && !readOnly
        if options.readOnly {
            readOnlyReason = "the store was opened read-only"
        } else if let foreign {
            readOnlyReason = foreign
        } else if metadata.historyTracked && !options.historyTracking {
            readOnlyReason = "the store has persistent history tracking on and this process opened it without"
        } else {
            readOnlyReason = nil
        }
        if options.lockWaits == .report {
            writer.reportLockWaits()
            reader.reportLockWaits()
        }
        if historyTracking { lastOwnToken = HistoryReader.lastOwnToken(self) }
    }

    /// Whether an operation met a lock it would have waited on since the last call (`LockWaits.report`).
    func takeLockWait() -> Bool {
        var waited = writer.takeLockWait()
        if reader.takeLockWait() { waited = true }
        for db in generationConnections where db.takeLockWait() { waited = true }
        return waited
    }

    func emit(_ event: @autoclosure () -> StoreEvent) {
        if let eventSink { eventSink(event()) }
    }

    func temporaryKey() -> Int64 {
        defer { nextTemporaryKey -= 1 }
        return nextTemporaryKey
    }

    func objectID(_ entity: EntityInfo, _ primaryKey: Int64) -> ObjectID {
        ObjectID(entity: entity.name, primaryKey: primaryKey, store: store)
    }

    func liveContexts() -> [ObjectContext] {
        contexts.removeAll { $0.context == nil }
        return contexts.compactMap(\.context)
    }

    // MARK: Row cache

    func snapshot(_ entity: Int, _ primaryKey: Int64) -> RowSnapshot? {
        rows[entity][primaryKey]
    }

    func store(_ snapshot: consuming RowSnapshot, _ entity: Int, _ primaryKey: Int64) {
        rows[entity].updateValue(snapshot, forKey: primaryKey)
        if model.hasInheritance { remember(model.entities[entity], primaryKey) }
        // A row read again (a fetch, a fault reading SQL, a save) takes its to-many contents with it: the
        // next fire reads them again, as the row's snapshot is new.
        if !toManyRows.isEmpty { toManyRows.removeValue(forKey: ToManyKey.Row(entity: entity, primaryKey: primaryKey)) }
    }

    /// Records that row `primaryKey` of its table is `entity`'s (for an entity that shares its table).
    func remember(_ entity: EntityInfo, _ primaryKey: Int64) {
        guard entity.family.sharesTable, primaryKey > 0 else { return }
        familyKeys[entity.family.root, default: [:]][primaryKey] = entity.index
    }

    /// The entity recorded for row `primaryKey` of the table of `root` (see `remember`).
    func rememberedEntity(root: Int, _ primaryKey: Int64) -> EntityInfo? {
        familyKeys[root]?[primaryKey].map { model.entities[$0] }
    }

    /// How many snapshots the cache holds.
    var rowCount: Int { rows.reduce(0) { $0 + $1.count } }

    func dropRowCache() {
        for i in rows.indices { rows[i].removeAll() }
    }

    func dropSnapshot(_ id: ObjectID, entity: Int, reason: SnapshotDropReason) {
        if rows[entity].removeValue(forKey: id.primaryKey) != nil {
            emit(.snapshotDropped(object: id, reason: reason))
        }
        if !toManyRows.isEmpty { toManyRows.removeValue(forKey: ToManyKey.Row(entity: entity, primaryKey: id.primaryKey)) }
    }

    // MARK: To-many cache

    /// A fired to-many's destination keys as last read from SQL: part of the row cache, with the same
    /// staleness rules (Core Data reloads a faulted object's properties "from the store or last cached
    /// state", to-many relationships included).
    func toManySnapshot(_ entity: Int, _ primaryKey: Int64, _ relationship: Int) -> ToManySnapshot? {
        toManyRows[ToManyKey.Row(entity: entity, primaryKey: primaryKey)]?[relationship]
    }

    func store(_ snapshot: ToManySnapshot, _ entity: Int, _ primaryKey: Int64, _ relationship: Int) {
        toManyRows[ToManyKey.Row(entity: entity, primaryKey: primaryKey), default: [:]][relationship] = snapshot
    }

    /// Forgets every cached content of the relationships in `relationships` (by owner entity and index).
    func dropToMany(_ relationships: Set<ToManyKey.Relationship>) {
        guard !relationships.isEmpty, !toManyRows.isEmpty else { return }
        for row in Array(toManyRows.keys) {
            toManyRows[row] = toManyRows[row]!.filter { !relationships.contains(ToManyKey.Relationship(entity: row.entity, index: $0.key)) }
            if toManyRows[row]!.isEmpty { toManyRows[row] = nil }
        }
    }

    // MARK: Reading rows

    /// Reads one row by primary key on `db`; `nil` when it is gone.
    func readRow(_ entity: EntityInfo, _ primaryKey: Int64, on db: SQLiteConnection) throws(StoreError) -> RowSnapshot? {
        do {
            // In a family's table, the row must be this entity's: an ID naming another kind finds nothing.
            let kind = entity.family.ownRowsFilter.map { " AND \($0)" } ?? ""
            let statement = try db.cached("SELECT \(entity.selectList) FROM \(entity.tableName) WHERE Z_PK = ?\(kind)")
            try statement.bind(primaryKey, at: 1)
            defer { statement.reset() }
            guard try statement.step() else { return nil }
            return snapshot(from: statement, entity, readAt: clock.now)
        } catch {
            throw .sqlite(error)
        }
    }

    /// Reads the rows of `entity` and of its sub-entities matching `whereClause`, in `orderBy` order, each
    /// with the index of its own entity (its `Z_ENT`'s).
    func readRows(_ entity: EntityInfo, where whereClause: String?, arguments: [Value], orderBy: String?,
                  limit: Int?, includingSubentities: Bool = true, on db: SQLiteConnection) throws(StoreError)
        -> [(primaryKey: Int64, entity: Int, snapshot: RowSnapshot)]
    {
        let tree = includingSubentities ? entity.family.tree : nil
        var sql = "SELECT \(tree?.selectList ?? entity.selectList) FROM \(entity.tableName)"
        let kind = includingSubentities ? entity.family.entityFilter : entity.family.ownRowsFilter
        switch (kind, whereClause) {
        case let (kind?, clause?): sql += " WHERE \(kind) AND (\(clause))"
        case let (kind?, nil): sql += " WHERE \(kind)"
        case let (nil, clause?): sql += " WHERE \(clause)"
        case (nil, nil): break
        }
        if let orderBy { sql += " ORDER BY \(orderBy)" }
        if let limit { sql += " LIMIT \(limit)" }
        do {
            let statement = try db.cached(sql)
            try statement.bind(arguments)
            defer { statement.reset() }
            let now = clock.now
            var result: [(primaryKey: Int64, entity: Int, snapshot: RowSnapshot)] = []
            while try statement.step() {
                guard let tree else {
                    result.append((statement.int64(at: 0), entity.index, snapshot(from: statement, entity, readAt: now)))
                    continue
                }
                // A row of an entity the model does not know in this family is not this fetch's.
                guard let own = model.entity(number: statement.int64(at: 2)), let positions = tree.positions[own.index] else { continue }
                result.append((statement.int64(at: 0), own.index, snapshot(from: statement, own, readAt: now, positions: positions)))
            }
            return result
        } catch {
            throw .sqlite(error)
        }
    }

    /// The row at the statement's cursor as a snapshot of `entity`: version in column 1, slots from column 2
    /// on, or at `positions` (a fetch of a family).
    func snapshot(from statement: Statement, _ entity: EntityInfo, readAt: Date, positions: [Int32]? = nil) -> RowSnapshot {
        var values: [Value] = []
        values.reserveCapacity(entity.slotTypes.count)
        for (i, type) in entity.slotTypes.enumerated() {
            let column = positions?[i] ?? Int32(i + 2)
            if let type {
                values.append(statement.value(at: column, as: type))
            } else {
                values.append(statement.isNull(at: column) ? .null : .int(statement.int64(at: column)))
            }
        }
        return RowSnapshot(values: values, version: statement.int64(at: 1), readAt: readAt)
    }

    /// Attribute values by name (to-one relationships as primary keys), for events and errors.
    func namedValues(_ entity: EntityInfo, _ values: [Value]) -> [String: Value] {
        var result: [String: Value] = [:]
        for (i, slot) in entity.slots.enumerated() { result[slot.name] = values[i] }
        return result
    }
}

extension StoreCore {
    /// Begins a write transaction as `options.writeTransactions` says: `BEGIN IMMEDIATE` (the write lock
    /// first, waiting up to the busy timeout), or `BEGIN DEFERRED` followed by a read, so the transaction
    /// holds a snapshot and asks for the lock only at its first write, where SQLite fails it with `busy`
    /// at once when another connection holds the lock or has committed since.
    func beginOutermost(_ db: SQLiteConnection) throws(SQLiteError) {
        switch options.writeTransactions {
        case .immediate:
            try db.execute("BEGIN IMMEDIATE")
        case .deferred:
            try db.execute("BEGIN DEFERRED")
            do { try db.execute("SELECT count(*) FROM Z_PRIMARYKEY") } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// Runs the COMMIT that publishes this process's writes to other connections, telling
    /// `commitObserver` just before (while the write lock is still held) and just after it.
    func commitOutermost(_ db: SQLiteConnection) throws(SQLiteError) {
        commitObserver?(.willCommit)
        try db.execute("COMMIT")
        commitObserver?(.didCommit)
    }
}


/// How the to-many cache keys what it holds.
enum ToManyKey {
    /// An owner row: its relationships' contents are cached together, and dropped with the row's snapshot.
    struct Row: Hashable {
        let entity: Int
        let primaryKey: Int64
    }

    /// A relationship of an entity, whatever the row.
    struct Relationship: Hashable {
        let entity: Int
        let index: Int
    }
}

/// A to-many's destination keys as read from SQL, and when.
struct ToManySnapshot {
    let keys: [Int64]
    let readAt: Date
}
