import Basics
import Foundation

/// One change row to record in history.
struct HistoryChange {
    let entity: EntityInfo
    let primaryKey: Int64
    let operation: ChangeOperation
    /// Updated properties (for updates).
    let columns: [String]
    /// A deleted object's preserved values.
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
        let statement = try db.cached("""
            INSERT INTO ACHANGE (Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS, ZTOMBSTONE)
            VALUES (2, 1, ?, ?, ?, ?, ?, ?)
            """)
        for change in changes {
            try statement.run([
                .int(change.changeType), .int(change.entity.entityNumber), .int(change.primaryKey), .int(token),
                change.columns.isEmpty ? .null : .string(change.columns.joined(separator: ",")),
                change.tombstone.map { .string(encode($0)) } ?? .null,
            ])
        }
        return token
    }

    static func insertTransaction(_ core: StoreCore, contextName: String, author: String?) throws -> Int64 {
        let db = core.writer
        let bundle = core.options.bundleIdentifier
        try db.cached("""
            INSERT INTO ATRANSACTION (Z_ENT, Z_OPT, ZAUTHOR, ZBUNDLEID, ZCONTEXTNAME, ZPROCESSID, ZTIMESTAMP)
            VALUES (1, 1, ?, ?, ?, ?, ?)
            """).run([
                try author.map { .int(try intern($0, db)) } ?? .null,
                try bundle.map { .int(try intern($0, db)) } ?? .null,
                .int(try intern(contextName, db)),
                .int(Int64(core.options.processIdentifier)),
                .double(core.clock.now.timeIntervalSinceReferenceDate),
            ])
        return db.lastInsertRowID
    }

    static func intern(_ string: String, _ db: SQLiteConnection) throws -> Int64 {
        if let key = try db.scalarInt("SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ?", [.string(string)]) {
            return key
        }
        try db.cached("INSERT INTO ATRANSACTIONSTRING (Z_ENT, Z_OPT, ZNAME) VALUES (3, 1, ?)").run([.string(string)])
        return db.lastInsertRowID
    }

    static func tombstone(_ entity: EntityInfo, _ values: [Value]) -> [String: Value]? {
        var result: [String: Value] = [:]
        for (i, attribute) in entity.attributes.enumerated() where attribute.preservesValueInHistoryOnDeletion {
            result[attribute.name] = values[i]
        }
        return result.isEmpty ? nil : result
    }

    static func encode(_ tombstone: [String: Value]) -> String {
        let plain = tombstone.mapValues { $0.isNull ? NSNull() as Any : $0.description as Any }
        guard let data = try? JSONSerialization.data(withJSONObject: plain, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
