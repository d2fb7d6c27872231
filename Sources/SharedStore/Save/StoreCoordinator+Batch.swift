import Basics

/// Batch operations (Core Data's `NSBatchInsertRequest`, `NSBatchUpdateRequest`, `NSBatchDeleteRequest`):
/// straight to the store in one transaction, bypassing every context. No did-save event; registered
/// objects, the row cache and every view stay as they were; history records them (context name `batch`).
extension StoreCoordinator {
    /// Inserts one row per dictionary into `entity` without a context (`NSBatchInsertRequest`): no
    /// validation, no relationships, one history transaction. A row whose uniqueness constraint's values a
    /// row of the store (or an earlier row of the batch) already holds is a constraint conflict, resolved
    /// as Core Data's batch insert resolves it by the context's merge policy: under `error` the batch fails
    /// (`SQLITE_CONSTRAINT`, a conflict) and writes nothing; under object-trump and overwrite it updates
    /// that row with the values given (an upsert, recorded in history as an update); under store-trump
    /// and rollback it leaves the row as it is.
    /// - Returns: the IDs of the rows inserted or upserted, once each, in order.
    /// - Throws: `StoreError.readOnly`, `.unknownEntity`, `.unknownProperty`, `.typeMismatch`, `.sqlite`.
    @discardableResult
    public func batchInsert(_ entity: String, objects: [[String: Value]], author: String? = nil,
                            policy: MergePolicy = .error) throws(StoreError) -> [ObjectID]
    {
        let info = try core.model.entity(named: entity)
        if info.family.isAbstract { throw .abstractEntity(entity) }
        var rows: [[Value]] = []
        var given: [[Int]] = []
        for values in objects {
            var row = info.initialValues
            var slots: [Int] = []
            for (key, value) in values {
                let slot = try info.attributeSlot(key)
                guard let type = info.slots[slot].attributeType, let converted = value.converted(to: type) else {
                    throw .typeMismatch(entity: entity, property: key, value: value, expected: info.slots[slot].attributeType ?? .string)
                }
                row[slot] = converted
                slots.append(slot)
            }
            rows.append(row)
            given.append(slots.sorted())
        }
        var upserted: Set<Int64> = []
        return try batch(.insert, info, author: author, isUpdate: { key, _ in upserted.contains(key) }) { db in
            var keys: [Int64] = []
            var columns: [String] = []
            func affected() -> [(Int64, EntityInfo)] { keys.map { ($0, info) } }
            let statement = try db.cached(info.insertSQL)
            if info.constraints.isEmpty {
                let first = try KeyAllocator.take(Int64(rows.count), of: info.family.keyEntityNumber, family: info.family.keyFamily,
                                                   name: info.name, db)
                for (i, row) in rows.enumerated() {
                    try statement.run([.int(first + Int64(i)), .int(info.entityNumber)] + row)
                    keys.append(first + Int64(i))
                }
                return (affected(), columns)
            }
            for (i, row) in rows.enumerated() {
                var match: Int64?
                for constraint in info.constraints where match == nil {
                    match = try constraint.row(holding: constraint.slots.map { row[$0] }, in: info.tableName, on: db)?.key
                }
                if let existing = match {
                    switch policy {
                    case .error:
                        throw SQLiteError(extendedCode: SQLiteResultCode.constraint.rawValue, message: "UNIQUE constraint failed: a row of \(info.name) already holds "
                            + "the values of the uniqueness constraint")
                    case .objectTrump, .overwrite:
                        let sets = given[i].map { ", \(info.slots[$0].column) = ?" }.joined()
                        try db.cached("UPDATE \(info.tableName) SET Z_OPT = Z_OPT + 1\(sets) WHERE Z_PK = ?")
                            .run(given[i].map { row[$0] } + [.int(existing)])
                        // A row this batch inserted stays an insert: an upsert updates what the store held.
                        if !keys.contains(existing) { upserted.insert(existing) }
                        columns += given[i].map { info.slots[$0].name }.filter { !columns.contains($0) }
                    case .storeTrump, .rollback:
                        break
                    }
                    if !keys.contains(existing) { keys.append(existing) }
                    continue
                }
                let key = try KeyAllocator.take(1, of: info.family.keyEntityNumber, family: info.family.keyFamily, name: info.name, db)
                try statement.run([.int(key), .int(info.entityNumber)] + row)
                keys.append(key)
            }
            return (affected(), columns)
        }
    }

    /// Sets `values` on every row of `entity` matching `predicate` (all when `nil`), bumping their versions.
    /// - Returns: the updated objects' IDs.
    @discardableResult
    public func batchUpdate(_ entity: String, where predicate: String? = nil, values: [String: Value],
                            author: String? = nil) throws(StoreError) -> [ObjectID]
    {
        try batchUpdate(entity, matching: try parse(predicate, entity), values: values, author: author)
    }

    /// Sets `values` on every row of `entity` matching `filter` (all when `nil`), bumping their versions.
    /// - Returns: the updated objects' IDs.
    @discardableResult
    public func batchUpdate(_ entity: String, matching filter: FetchPredicate?, values: [String: Value],
                            author: String? = nil) throws(StoreError) -> [ObjectID]
    {
        let info = try core.model.entity(named: entity)
        var slots: [(Int, Value)] = []
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            let slot = try info.attributeSlot(key)
            guard let type = info.slots[slot].attributeType, let converted = value.converted(to: type) else {
                throw .typeMismatch(entity: entity, property: key, value: value, expected: info.slots[slot].attributeType ?? .string)
            }
            slots.append((slot, converted))
        }
        let (whereClause, arguments) = try sql(filter, info)
        return try batch(.update, info, author: author) { db in
            let rows = try primaryKeys(db, info, whereClause, arguments)
            let sets = slots.map { ", \(info.slots[$0.0].column) = ?" }.joined()
            try db.cached("UPDATE \(info.tableName) SET Z_OPT = Z_OPT + 1\(sets) WHERE \(whereClause)")
                .run(slots.map(\.1) + arguments)
            return (rows, slots.map { info.slots[$0.0].name })
        }
    }

    /// Deletes every row of `entity` matching `predicate` (all when `nil`).
    /// - Returns: the deleted objects' IDs.
    @discardableResult
    public func batchDelete(_ entity: String, where predicate: String? = nil, author: String? = nil)
        throws(StoreError) -> [ObjectID]
    {
        try batchDelete(entity, matching: try parse(predicate, entity), author: author)
    }

    /// Deletes every row of `entity` matching `filter` (all when `nil`), and applies the relationships'
    /// delete rules as a context's delete does: cascading relationships delete what they hold (and so on),
    /// a `deny` relationship still holding an object not deleted fails the batch (`deleteDenied`, nothing
    /// written), and nullifying and cascading relationships with an inverse clear the other side: a to-one
    /// pointing at a deleted row is set to nil, and the objects on the other side are updated (their
    /// versions move and history names them). `no-action` leaves the other side naming the deleted row.
    /// - Returns: the deleted objects' IDs, those the predicate matched first.
    @discardableResult
    public func batchDelete(_ entity: String, matching filter: FetchPredicate?, author: String? = nil)
        throws(StoreError) -> [ObjectID]
    {
        let info = try core.model.entity(named: entity)
        let (whereClause, arguments) = try sql(filter, info)
        var deletion = BatchDeletion()
        let rows = try batch(.delete, info, author: author, tombstones: { deletion.tombstones[TableRow($1, $0)] },
                             isUpdate: { deletion.updated.contains(TableRow($1, $0)) }) { db in
            // Unfiltered on kind: `whereClause` keeps the family's rows already. Read before anything is
            // deleted, while the join tables still hold what a key path in the predicate follows.
            let matching = try core.readRows(info, where: whereClause, arguments: arguments, orderBy: "Z_PK", limit: nil,
                                             includingSubentities: true, on: db)
            for row in matching {
                let own = core.model.entities[row.entity]
                deletion.delete(row.primaryKey, own, values: row.snapshot.values)
            }
            try applyDeleteRules(&deletion, on: db)
            let names = try deletion.write(on: db)
            return (deletion.deleted + deletion.touched, names)
        }
        // `batch` gives the IDs in the order of the rows: the deleted, then those updated.
        let deleted = Array(rows.prefix(deletion.deleted.count))
        core.committedDeletes.formUnion(deleted)
        return deleted
    }

    /// The rows `keys` as the writer connection sees them now (attributes only).
    private func readBack(_ keys: [(Int64, EntityInfo)], _ operation: ChangeOperation,
                          isUpdate: (Int64, EntityInfo) -> Bool) throws -> [CommittedChange] {
        try keys.map { key, info in
            let id = core.objectID(info, key)
            let operation = isUpdate(key, info) ? .update : operation
            guard operation != .delete, let row = try core.readRow(info, key, on: core.writer) else {
                return CommittedChange(object: id, operation: operation, version: 0, values: [:])
            }
            var values: [String: Value] = [:]
            for i in 0..<info.attributeCount { values[info.slots[i].name] = row.values[i] }
            return CommittedChange(object: id, operation: operation, version: row.version, values: values)
        }
    }

    /// A predicate's text parsed against `entity` (nil for none).
    private func parse(_ predicate: String?, _ entity: String) throws(StoreError) -> FetchPredicate? {
        guard let predicate, !predicate.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        let info = try core.model.entity(named: entity)
        do {
            return try FetchPredicate(parsing: predicate, entity: StoreEntitySchema(model: core.model, entity: info))
        } catch {
            throw .invalidPredicate(error)
        }
    }

    /// The WHERE clause of a batch update or delete: the predicate's, kept to the entity's rows in a table
    /// it shares with others.
    /// On an entity with sub-entities it reaches theirs too, as `includesSubentities` (true by default)
    /// has it: they share the root's table and the entity's columns.
    private func sql(_ filter: FetchPredicate?, _ info: EntityInfo) throws(StoreError) -> (String, [Value]) {
        let kind = info.family.entityFilter
        guard let filter else { return (kind ?? "1", []) }
        do {
            let (clause, arguments) = try PredicateSQL.whereClause(filter, info, model: core.model)
            return (kind.map { "\($0) AND (\(clause))" } ?? clause, arguments)
        } catch {
            throw .invalidPredicate(error)
        }
    }

    /// The rows matching `whereClause`, each with its own entity (a sub-entity's, in a family's table).
    private func primaryKeys(_ db: SQLiteConnection, _ info: EntityInfo, _ whereClause: String, _ arguments: [Value])
        throws -> [(Int64, EntityInfo)]
    {
        let statement = try db.cached("SELECT Z_PK, Z_ENT FROM \(info.tableName) WHERE \(whereClause) ORDER BY Z_PK")
        try statement.bind(arguments)
        defer { statement.reset() }
        var rows: [(Int64, EntityInfo)] = []
        while try statement.step() {
            rows.append((statement.int64(at: 0), info.family.sharesTable ? core.model.entity(number: statement.int64(at: 1)) ?? info : info))
        }
        return rows
    }

    /// Runs `body` (returning the affected rows, each with its own entity, and the updated properties) in a
    /// write transaction with history.
    private func batch(_ operation: ChangeOperation, _ info: EntityInfo, author: String?,
                       tombstones: ((Int64, EntityInfo) -> [String: Value]?)? = nil,
                       isUpdate: (Int64, EntityInfo) -> Bool = { _, _ in false },
                       _ body: (SQLiteConnection) throws -> ([(Int64, EntityInfo)], [String])) throws(StoreError) -> [ObjectID]
    {
        if let reason = core.readOnlyReason { throw .readOnly(reason: reason) }
        do {
            var written: [CommittedChange] = []
            let (rows, token) = try inWriteTransaction { () throws -> ([(Int64, EntityInfo)], Int64?) in
                let (rows, columns) = try body(core.writer)
                // Someone traces this store: what each row now holds, read before COMMIT so no other
                // writer's change can come in between.
                if core.eventSink != nil { written = try readBack(rows, operation, isUpdate: isUpdate) }
                guard core.historyTracking, !rows.isEmpty else { return (rows, nil) }
                let changes = rows.map { key, own in
                    let upsert = isUpdate(key, own)
                    return HistoryChange(entity: own, primaryKey: key, operation: upsert ? .update : operation,
                                         columns: upsert || operation == .update ? columns : [],
                                         tombstone: upsert ? nil : tombstones?(key, own))
                }
                return (rows, try HistoryRecorder.record(core: core, contextName: "batch", author: author, changes: changes))
            }
            if let token { core.lastOwnToken = token }
            core.emit(.batch(operation: operation, entity: info.name, rowCount: rows.count, historyToken: token, changes: written))
            return rows.map { core.objectID($1, $0) }
        } catch {
            throw StoreError.wrap(error)
        }
    }
}
