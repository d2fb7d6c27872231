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

    /// The highest token deleted by a purge, or nil when nothing was ever purged.
    static func purgedThrough(_ core: StoreCore) throws(StoreError) -> Int64? {
        do { return try StoreSchema.meta(core.writer, "historyPurgedThrough")?.intValue } catch { throw .sqlite(error) }
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
                SELECT t.Z_PK, a.ZNAME, c.ZNAME, b.ZNAME, t.ZPROCESSID, t.ZTIMESTAMP FROM ATRANSACTION t
                LEFT JOIN ATRANSACTIONSTRING a ON a.Z_PK = t.ZAUTHOR
                LEFT JOIN ATRANSACTIONSTRING c ON c.Z_PK = t.ZCONTEXTNAME
                LEFT JOIN ATRANSACTIONSTRING b ON b.Z_PK = t.ZBUNDLEID
                """
            var arguments: [Value] = []
            if let token { sql += " WHERE t.Z_PK > ?"; arguments.append(.int(token)) }
            else if let date { sql += " WHERE t.ZTIMESTAMP > ?"; arguments.append(.date(date)) }
            sql += " ORDER BY t.Z_PK"
            let statement = try db.cached(sql)
            try statement.bind(arguments)
            var headers: [(Int64, String?, String?, String?, Int32, Date)] = []
            while try statement.step() {
                headers.append((statement.int64(at: 0), statement.string(at: 1), statement.string(at: 2),
                                statement.string(at: 3), Int32(truncatingIfNeeded: statement.int64(at: 4)),
                                Date(timeIntervalSinceReferenceDate: statement.double(at: 5))))
            }
            statement.reset()
            guard let first = headers.first else { return [] }
            var changes: [Int64: [HistoryChangeRecord]] = [:]
            let changeStatement = try db.cached("""
                SELECT ZTRANSACTIONID, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZCOLUMNS, ZTOMBSTONE FROM ACHANGE
                WHERE ZTRANSACTIONID >= ? ORDER BY Z_PK
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
                let columns = changeStatement.string(at: 4).map { $0.split(separator: ",").map(String.init) } ?? []
                let tombstone = changeStatement.string(at: 5).map { decodeTombstone($0, entity) }
                changes[changeStatement.int64(at: 0), default: []].append(HistoryChangeRecord(
                    object: core.objectID(entity, changeStatement.int64(at: 3)), operation: operation,
                    updatedProperties: columns, tombstone: tombstone))
            }
            changeStatement.reset()
            return headers.map { header in
                HistoryTransaction(token: header.0, author: header.1, contextName: header.2, bundleIdentifier: header.3,
                                   processIdentifier: header.4, timestamp: header.5, changes: changes[header.0] ?? [])
            }
        } catch {
            throw StoreError.wrap(error)
        }
    }

    static func decodeTombstone(_ json: String, _ entity: EntityInfo) -> [String: Value] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else { return [:] }
        var result: [String: Value] = [:]
        for (key, raw) in object {
            let type = entity.attributes.first { $0.name == key }?.type ?? .string
            if let text = raw as? String, let value = try? Value.from(scalar: text, as: type) {
                result[key] = value
            } else {
                result[key] = .null
            }
        }
        return result
    }
}
