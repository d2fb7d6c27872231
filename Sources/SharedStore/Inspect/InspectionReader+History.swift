import Foundation

extension InspectionReader {
    /// `ATRANSACTION`/`ACHANGE`, with the interned strings resolved: Core Data's `ZAUTHORTS`-style
    /// columns, or SharedStore's integer `ZAUTHOR`-style ones.
    func history(layout: StoreInspection.Layout) throws -> StoreInspection.History? {
        guard try db.tableExists("ATRANSACTION") else { return nil }
        let columns = Set(try columnNames("ATRANSACTION"))
        let hasStrings = try db.tableExists("ATRANSACTIONSTRING")
        func stringColumn(_ base: String) -> String? {
            if columns.contains(base + "TS") { return base + "TS" }
            return columns.contains(base) ? base : nil
        }
        /// The most frequent values of a column, at most `listedNames` of them, and how many more there are:
        /// someone else's history may name a million writers, each a megabyte long.
        func counts(_ base: String) throws -> (listed: [StoreInspection.NamedCount], unlisted: Int) {
            guard let column = stringColumn(base) else { return ([], 0) }
            let name = hasStrings ? "(SELECT ZNAME FROM ATRANSACTIONSTRING S WHERE S.Z_PK = T.\(column))" : "NULL"
            // A plain text column (Core Data's ZAUTHOR beside ZAUTHORTS) is read as it is.
            let integer = try columnType("ATRANSACTION", column) == "INTEGER"
            let value = column.hasSuffix("TS") || integer ? name : "T.\(column)"
            let statement = try db.prepare("SELECT substr(N, 1, 200), C, count(*) OVER () FROM (SELECT \(value) AS N, count(*) AS C "
                + "FROM ATRANSACTION T GROUP BY N) ORDER BY C DESC, N LIMIT \(Self.listedNames)")
            var result: [StoreInspection.NamedCount] = []
            var distinct = 0
            while try statement.step() {
                result.append(StoreInspection.NamedCount(name: statement.string(at: 0), transactions: Int(statement.int64(at: 1))))
                distinct = Int(statement.int64(at: 2))
            }
            return (result, distinct - result.count)
        }
        let authors = try counts("ZAUTHOR"), bundles = try counts("ZBUNDLEID"), processes = try counts("ZPROCESSID")
        var history = StoreInspection.History(
            transactions: Int(try db.scalarInt("SELECT count(*) FROM ATRANSACTION") ?? 0), changes: 0, inserts: 0, updates: 0,
            deletes: 0, authors: authors.listed, bundleIdentifiers: bundles.listed,
            processes: processes.listed, first: nil, last: nil,
            oldestToken: try db.scalarInt("SELECT min(Z_PK) FROM ATRANSACTION"),
            newestToken: try db.scalarInt("SELECT max(Z_PK) FROM ATRANSACTION"))
        history.unlistedAuthors = authors.unlisted
        history.unlistedBundleIdentifiers = bundles.unlisted
        history.unlistedProcesses = processes.unlisted
        if columns.contains("ZTIMESTAMP") {
            let statement = try db.prepare("SELECT min(ZTIMESTAMP), max(ZTIMESTAMP) FROM ATRANSACTION")
            if try statement.step(), !statement.isNull(at: 0) {
                history.first = Date(timeIntervalSinceReferenceDate: statement.double(at: 0))
                history.last = Date(timeIntervalSinceReferenceDate: statement.double(at: 1))
            }
        }
        if try db.tableExists("ACHANGE") {
            let statement = try db.prepare("SELECT ZCHANGETYPE, count(*) FROM ACHANGE GROUP BY ZCHANGETYPE")
            var unknown = 0
            while try statement.step() {
                let count = Int(statement.int64(at: 1))
                history.changes += count
                // ZCHANGETYPE: 0 insert, 1 update, 2 delete; anything else (NULL, text) is counted apart.
                switch statement.isNull(at: 0) ? -1 : statement.value(at: 0).intValue ?? -1 {
                case 0: history.inserts += count
                case 1: history.updates += count
                case 2: history.deletes += count
                default: unknown += count
                }
            }
            history.unknownChanges = unknown
        }
        return history
    }

    /// The most authors, bundle ids and processes `inspect` lists (by transactions, most first).
    static let listedNames = 50

    func columnNames(_ table: String) throws -> [String] {
        let info = try db.prepare("PRAGMA table_info(\(table))")
        var names: [String] = []
        while try info.step() { if let name = info.string(at: 1) { names.append(name) } }
        return names
    }

    private func columnType(_ table: String, _ column: String) throws -> String? {
        let info = try db.prepare("PRAGMA table_info(\(table))")
        while try info.step() {
            if info.string(at: 1) == column { return info.string(at: 2)?.uppercased() }
        }
        return nil
    }

    // MARK: Problems

    /// What the inspection shows wrong, worst first.
    func problems(_ inspection: StoreInspection) -> [String] {
        var problems: [String] = []
        let families = Dictionary(grouping: inspection.entities, by: \.table)
        if inspection.files.wal == nil {
            // Keys handed out that no row has: deleted rows, or rows whose commits were in a -wal left behind.
            let gaps = inspection.entities.filter { $0.parent == nil }.compactMap { entity -> String? in
                let family = families[entity.table] ?? []
                let highest = family.map(\.maxPrimaryKey).max() ?? 0
                let rows = family.map(\.count).reduce(0, +)
                return highest > Int64(rows) ? "\(entity.name): keys up to \(highest) handed out, \(rows) rows" : nil
            }
            if inspection.files.shm != nil {
                problems.append("the -shm file is here but the -wal is not: the store was copied while in use, and commits "
                    + "that were still in its -wal are missing" + (gaps.isEmpty ? "" : " (\(gaps.joined(separator: "; ")))"))
            } else if !gaps.isEmpty {
                problems.append("there is no -wal file, and keys were handed out that no row has (\(gaps.joined(separator: "; "))): "
                    + "rows were deleted, or the store was copied without its -wal and lost the commits in it")
            }
        }
        for entity in inspection.entities where entity.parent == nil {
            let family = families[entity.table] ?? []
            let handedOut = family.map(\.maxPrimaryKey).max() ?? 0
            let numbers = Set(family.map(\.number))
            for (number, rows) in rowsByEntity(entity.table) where !numbers.contains(number) {
                problems.append("\(entity.table) has \(rows) row\(rows == 1 ? "" : "s") with Z_ENT \(number), which is no entity stored in it: "
                    + "no fetch finds \(rows == 1 ? "it" : "them")")
            }
            if let highest = highestKey(entity.table), highest > handedOut {
                problems.append("\(entity.name): Z_PRIMARYKEY says keys up to \(handedOut) were handed out, but \(entity.table) has a "
                    + "row with key \(highest): the next insert would take a key a row already has")
            }
        }
        if let history = inspection.history, history.unknownChanges > 0 {
            problems.append("\(history.unknownChanges) history change\(history.unknownChanges == 1 ? " has" : "s have") a ZCHANGETYPE "
                + "other than 0 (insert), 1 (update) or 2 (delete)")
        }
        // Unpurged history costs what it grows to: a problem once it records more changes than the store
        // has objects, i.e. outweighs the data it describes (a store's first few saves are no finding).
        let objects = inspection.entities.reduce(0) { $0 + $1.count }
        if let history = inspection.history, history.transactions > 0, history.oldestToken == 1, history.changes > objects {
            problems.append("history was never purged: all \(history.transactions) transactions since the store was made are kept, "
                + "\(history.changes) changes for \(objects) objects")
        }
        if inspection.layout == .coreData {
            let names = Set(inspection.entities.map(\.name))
            let hashed = Set(inspection.hashedEntities)
            if !hashed.isEmpty, hashed != names {
                let missing = names.subtracting(hashed).sorted(), extra = hashed.subtracting(names).sorted()
                problems.append("the metadata's model hashes do not match the entities"
                    + (missing.isEmpty ? "" : ": no hash for \(missing.joined(separator: ", "))")
                    + (extra.isEmpty ? "" : "; hashes for entities the store has not: \(extra.joined(separator: ", "))"))
            }
        }
        return problems
    }
}
