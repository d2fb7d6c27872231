import Basics
import Foundation

/// Reads history rows on the writer connection (never through a pinned generation).
enum HistoryReader {
    static func requireTracking(_ core: StoreCore) throws(StoreError) {
        do {
            guard try core.writer.tableExists("ATRANSACTION") else {
                throw StoreError.invalidState("the store has no persistent history (open it with history tracking)")
            }
        } catch {
            throw StoreError.wrap(error)
        }
    }

    /// The newest transaction this process wrote (its name is in the history, `ZPROCESSIDTS`) or consumed
    /// (its saved consumer token): what an `own-token` purge deletes before. Read when the store opens, so
    /// that a process relaunched after a crash purges with the token its previous run left, as an app that
    /// persists its token does; nil when it has none.
    static func lastOwnToken(_ core: StoreCore) -> Int64? {
        let written = try? core.writer.scalarInt("""
            SELECT MAX(t.Z_PK) FROM ATRANSACTION t JOIN ATRANSACTIONSTRING s ON s.Z_PK = t.ZPROCESSIDTS WHERE s.ZNAME = ?
            """, [.string(core.options.processName)])
        let saved = HistoryTokenStore(storeURL: core.url).token(core.options.processName)
        let consumed = saved.store == core.storeIdentifier ? saved.token : nil
        return [written ?? nil, consumed].compactMap { $0 }.max()
    }

    /// Where `GROUPSIM_META` keeps the highest token a purge deleted.
    static let purgedThroughKey = "history.purgedThrough"

    /// The highest token deleted by a purge, or nil when nothing was ever purged: what SharedStore's purges
    /// recorded, and what the store shows as Core Data leaves it (tokens are handed out from 1 by
    /// `Z_PRIMARYKEY`'s `Z_MAX`, so every token below the oldest kept, or up to `Z_MAX` when none is kept,
    /// was purged: a store Core Data purged on a device).
    static func purgedThrough(_ core: StoreCore) throws(StoreError) -> Int64? {
        do {
            let db = core.writer
            let recorded = try StoreSchema.meta(db, purgedThroughKey)?.intValue ?? 0
            guard let handedOut = try db.scalarInt("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?",
                                                   [.int(HistorySchema.transactionEntity)]), handedOut > 0 else {
                return recorded > 0 ? recorded : nil
            }
            let derived = try db.scalarInt("SELECT min(Z_PK) FROM ATRANSACTION").map { $0 - 1 } ?? handedOut
            let through = max(recorded, derived)
            return through > 0 ? through : nil
        } catch {
            throw .sqlite(error)
        }
    }

    static func latestToken(_ core: StoreCore) throws(StoreError) -> Int64? {
        do { return try core.writer.scalarInt("SELECT max(Z_PK) FROM ATRANSACTION") } catch { throw .sqlite(error) }
    }

    /// Transactions after `token` (or after `date`), in token order, with their changes.
    static func transactions(_ core: StoreCore, afterToken token: Int64?, afterDate date: Date?)
        throws(StoreError) -> [HistoryTransaction]
    {
        let db = core.writer
        do {
            var sql = """
                SELECT t.Z_PK, a.ZNAME, c.ZNAME, b.ZNAME, p.ZNAME, t.ZTIMESTAMP FROM ATRANSACTION t
                LEFT JOIN ATRANSACTIONSTRING a ON a.Z_PK = t.ZAUTHORTS
                LEFT JOIN ATRANSACTIONSTRING c ON c.Z_PK = t.ZCONTEXTNAMETS
                LEFT JOIN ATRANSACTIONSTRING b ON b.Z_PK = t.ZBUNDLEIDTS
                LEFT JOIN ATRANSACTIONSTRING p ON p.Z_PK = t.ZPROCESSIDTS
                """
            var arguments: [Value] = []
            if let token { sql += " WHERE t.Z_PK > ?"; arguments.append(.int(token)) }
            else if let date { sql += " WHERE t.ZTIMESTAMP > ?"; arguments.append(.date(date)) }
            sql += " ORDER BY t.Z_PK"
            let statement = try db.cached(sql)
            try statement.bind(arguments)
            var headers: [(Int64, String?, String?, String?, String?, Date)] = []
            while try statement.step() {
                // A process id is interned as text: SharedStore's are pids, Core Data's process names.
                headers.append((statement.int64(at: 0), statement.string(at: 1), statement.string(at: 2),
                                statement.string(at: 3), statement.string(at: 4),
                                Date(timeIntervalSinceReferenceDate: statement.double(at: 5))))
            }
            statement.reset()
            guard let first = headers.first else { return [] }
            var changes: [Int64: [HistoryChangeRecord]] = [:]
            let changeColumns = try db.columns(of: "ACHANGE")
            let tombstones = (0...).prefix { changeColumns.contains("ZTOMBSTONE\($0)") }.count
            let changeStatement = try db.cached("""
                SELECT ZTRANSACTIONID, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZCOLUMNS\((0..<tombstones).map { ", ZTOMBSTONE\($0)" }.joined())
                FROM ACHANGE WHERE ZTRANSACTIONID >= ? ORDER BY Z_PK
                """)
            try changeStatement.bind([.int(first.0)])
            let byNumber = Dictionary(uniqueKeysWithValues: core.model.entities.map { ($0.entityNumber, $0) })
            while try changeStatement.step() {
                guard let entity = byNumber[changeStatement.int64(at: 2)] else { continue }
                let operation: ChangeOperation = switch changeStatement.int64(at: 1) {
                case 0: .insert
                case 1: .update
                default: .delete
                }
                let columns = changeStatement.data(at: 4).map { HistorySchema.properties(inMask: Array($0), entity) } ?? []
                var tombstone: [String: Value]?
                if operation == .delete {
                    let kept = HistoryRecorder.tombstoneAttributes(entity)
                    for (i, name) in kept.enumerated() where i < tombstones {
                        let type = entity.attributes.first { $0.name == name }?.type ?? .string
                        tombstone = (tombstone ?? [:]).merging([name: changeStatement.value(at: Int32(5 + i), as: type)]) { $1 }
                    }
                }
                changes[changeStatement.int64(at: 0), default: []].append(HistoryChangeRecord(
                    object: core.objectID(entity, changeStatement.int64(at: 3)), operation: operation,
                    updatedProperties: columns, tombstone: tombstone))
            }
            changeStatement.reset()
            return headers.map { header in
                HistoryTransaction(token: header.0, author: header.1, contextName: header.2, bundleIdentifier: header.3,
                                   processIdentifier: header.4.flatMap { Int32($0) } ?? 0, processName: header.4, timestamp: header.5, changes: changes[header.0] ?? [])
            }
        } catch {
            throw StoreError.wrap(error)
        }
    }

}
