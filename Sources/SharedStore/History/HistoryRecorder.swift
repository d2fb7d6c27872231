import Basics
import Foundation

/// One change row to record in history.
struct HistoryChange {
    let entity: EntityInfo
    let primaryKey: Int64
    let operation: ChangeOperation
    /// Updated properties (for updates).
    let columns: [String]
    /// A deleted object's preserved values, by attribute.
    let tombstone: [String: Value]?

    var changeType: Int64 {
        switch operation {
        case .insert: 0
        case .update: 1
        case .delete: 2
        }
    }
}

/// Writes history rows inside the caller's write transaction.
enum HistoryRecorder {
    /// Records a save's committed writes; returns the new transaction's token, or `nil` when nothing was written.
    static func record(core: StoreCore, contextName: String, author: String?, writes: [SaveWrite]) throws -> Int64?
    {
        var changes: [HistoryChange] = []
        changes.reserveCapacity(writes.count)
        for write in writes {
            guard case .committed(let operation) = write.kind else { continue }
            let entity = write.entity
            changes.append(HistoryChange(
                entity: entity,
                primaryKey: write.primaryKey,
                operation: operation,
                columns: operation == .update ? write.changedSlots.map { entity.slots[$0].name } : [],
                tombstone: operation == .delete ? tombstone(entity, write.values) : nil))
        }
        guard !changes.isEmpty else { return nil }
        return try record(core: core, contextName: contextName, author: author, changes: changes)
    }

    /// Records one transaction with `changes`; returns its token.
    static func record(core: StoreCore, contextName: String, author: String?, changes: [HistoryChange]) throws -> Int64 {
        let db = core.writer
        let token = try insertTransaction(core, contextName: contextName, author: author)
        var key = try KeyAllocator.take(Int64(changes.count), of: HistorySchema.changeEntity, name: "CHANGE", db)
        let tombstones = HistorySchema.tombstoneColumns(core.model)
        let list = (0..<tombstones).map { ", ZTOMBSTONE\($0)" }.joined()
        let statement = try db.cached("""
            INSERT INTO ACHANGE (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS\(list))
            VALUES (?, \(HistorySchema.changeEntity), 1, ?, ?, ?, ?, ?\(String(repeating: ", ?", count: tombstones)))
            """)
        for change in changes {
            var values: [Value] = [.int(key), .int(change.changeType), .int(change.entity.entityNumber),
                                   .int(change.primaryKey), .int(token), .null]
            let kept = change.tombstone == nil ? [] : tombstoneAttributes(change.entity)
            values += (0..<tombstones).map { i in i < kept.count ? change.tombstone?[kept[i]] ?? .null : .null }
            try statement.bind(values)
            if !change.columns.isEmpty { try statement.bind(Data(HistorySchema.columnsMask(change.columns, change.entity)), at: 6) }
            while try statement.step() {}
            key += 1
        }
        return token
    }

    static func insertTransaction(_ core: StoreCore, contextName: String, author: String?) throws -> Int64 {
        let db = core.writer
        let bundle = core.options.bundleIdentifier
        let token = try KeyAllocator.take(1, of: HistorySchema.transactionEntity, name: "TRANSACTION", db)
        let keys = try intern([author, bundle, contextName, core.options.processName].compactMap { $0 }, core)
        try db.cached("""
            INSERT INTO ATRANSACTION (Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZTIMESTAMP)
            VALUES (?, \(HistorySchema.transactionEntity), 1, ?, ?, ?, ?, ?)
            """).run([
                .int(token),
                author.flatMap { keys[$0] }.map(Value.int) ?? .null,
                bundle.flatMap { keys[$0] }.map(Value.int) ?? .null,
                keys[contextName].map(Value.int) ?? .null,
                keys[core.options.processName].map(Value.int) ?? .null,
                .double(core.clock.now.timeIntervalSinceReferenceDate),
            ])
        return token
    }

    /// The `ATRANSACTIONSTRING` keys of `strings`, inserting those not there yet: one query for those that
    /// are (a transaction names up to four, most of them known), not one each.
    static func intern(_ strings: [String], _ core: StoreCore) throws -> [String: Int64] {
        var unique: [String] = []
        for string in strings where !unique.contains(string) { unique.append(string) }
        guard !unique.isEmpty else { return [:] }
        let db = core.writer
        let statement = try db.cached("SELECT ZNAME, Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME IN (\(Array(repeating: "?", count: unique.count).joined(separator: ", ")))")
        try statement.bind(unique.map(Value.string))
        defer { statement.reset() }
        var keys: [String: Int64] = [:]
        while try statement.step() {
            if let name = statement.string(at: 0) { keys[name] = statement.int64(at: 1) }
        }
        for string in unique where keys[string] == nil { keys[string] = try intern(string, core) }
        return keys
    }

    static func intern(_ string: String, _ core: StoreCore) throws -> Int64 {
        // Not cached across transactions: a string inserted by one that rolls back (its key with it) would
        // leave a key that the next new string takes.
        let db = core.writer
        if let key = try db.scalarInt("SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ?", [.string(string)]) {
            return key
        }
        let key = try KeyAllocator.take(1, of: HistorySchema.stringEntity, name: "TRANSACTIONSTRING", db)
        try db.cached("INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, \(HistorySchema.stringEntity), 1, ?)")
            .run([.int(key), .string(string)])
        return key
    }

    static func tombstone(_ entity: EntityInfo, _ values: [Value]) -> [String: Value]? {
        var result: [String: Value] = [:]
        for (i, attribute) in entity.attributes.enumerated() where attribute.preservesValueInHistoryOnDeletion {
            result[attribute.name] = values[i]
        }
        return result.isEmpty ? nil : result
    }

    /// The attributes of `entity` whose values a tombstone keeps, in model order: `ZTOMBSTONE0`, ... hold them.
    static func tombstoneAttributes(_ entity: EntityInfo) -> [String] {
        entity.attributes.filter(\.preservesValueInHistoryOnDeletion).map(\.name)
    }
}
