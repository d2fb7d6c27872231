import ArgumentParser
import CSQLite
import Foundation
import SharedStore

/// `groupsim bench store`: SharedStore against the raw SQLite C API doing the same work, in one run.
struct StoreBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Measure SharedStore's saves, fault firing and history against raw SQLite.",
        discussion: "Build in release: swift run -c release groupsim bench store. Each case runs --repeats times, SharedStore and raw SQLite in turn; the best times and the median ratio of the pairs are printed.")

    @Option(help: "How many times each case runs (best times and the median ratio of the pairs are reported).")
    var repeats = 7

    @Flag(help: "Skip the 100k-object case.")
    var quick = false

    @Option(help: .hidden)
    var only: String?

    func validate() throws {
        guard repeats >= 1 else { throw ValidationError("--repeats must be at least 1.") }
    }

    func run() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("groupsim-bench-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let bench = StoreBench(directory: directory, repeats: repeats)
        // For profilers (valgrind --tool=callgrind): one case, one run.
        switch only {
        case "insert": print(try bench.sharedInsert(100_000)); return
        case "insert-by-name": print(try bench.sharedInsert(100_000, byName: true)); return
        case "raw-insert": print(try bench.rawInsert(100_000)); return
        case "fire": print(try bench.sharedFire(10_000)); return
        case "raw-fire": print(try bench.rawFire(10_000)); return
        case "merge": print(try bench.historyMerge(transactions: 1000, registered: 10_000)); return
        default: break
        }
        print("SharedStore vs raw SQLite (\(repeats) alternating runs each: best times; ratio = raw / SharedStore time, median of the runs' pairs (lowest-highest); target >= 0.5x)")
        for count in quick ? [10_000] : [10_000, 100_000] {
            try bench.report("insert+save \(count)", shared: { try bench.sharedInsert(count) }, raw: { try bench.rawInsert(count) })
        }
        // The same through `[String: Value]` dictionaries: building and hashing them is the caller's cost.
        let named = quick ? 10_000 : 100_000
        try bench.report("  by name \(named)", shared: { try bench.sharedInsert(named, byName: true) },
                         raw: { try bench.rawInsert(named) })
        try bench.report("fetch+fire 10000", shared: { try bench.sharedFire(10_000) }, raw: { try bench.rawFire(10_000) })
        try bench.reportHistory()
    }
}

/// The benchmark cases; each returns the seconds its measured part took.
struct StoreBench {
    let directory: URL
    let repeats: Int
    let model: Model

    init(directory: URL, repeats: Int) {
        self.directory = directory
        self.repeats = repeats
        model = try! Model(.notesExample)
    }

    func best(_ body: () throws -> Double) rethrows -> Double {
        var times: [Double] = []
        for _ in 0..<repeats { times.append(try body()) }
        return times.min()!
    }

    /// Runs the two cases in turn, `repeats` times each, and prints their best times and the median of the
    /// ratios of each back-to-back pair (with the lowest and highest): alternating spreads a change in the
    /// machine's load over both sides, and a pair's ratio is what one moment of load leaves comparable.
    /// Which side runs first alternates too, so whatever one run leaves behind (warm caches, freed memory,
    /// files to write back) does not always favour the same side.
    func report(_ name: String, shared: () throws -> Double, raw: () throws -> Double) throws {
        var pairs: [(shared: Double, raw: Double)] = []
        for i in 0..<repeats {
            if i % 2 == 0 {
                let s = try shared()
                pairs.append((s, try raw()))
            } else {
                let r = try raw()
                pairs.append((try shared(), r))
            }
        }
        let ratios = pairs.map { $0.raw / $0.shared }.sorted()
        let s = pairs.map(\.shared).min()!
        let r = pairs.map(\.raw).min()!
        print(String(format: "  %-22@ SharedStore %8.1f ms   raw %8.1f ms   ratio %.2fx (%.2f-%.2f)", name as NSString,
                     s * 1000, r * 1000, Self.median(ratios), ratios.first!, ratios.last!))
    }

    /// The middle of `sorted` (the mean of the two middle values for an even count).
    static func median(_ sorted: [Double]) -> Double {
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    func freshURL(_ name: String) -> URL {
        let url = directory.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(6)).sqlite")
        return url
    }

    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let elapsed = try clock.measure(body)
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    // MARK: Insert and save

    /// Inserts through keys looked up once (as Core Data's generated accessors do), or, `byName`, through
    /// `[String: Value]` dictionaries (`setValuesForKeys`), then saves.
    func sharedInsert(_ count: Int, byName: Bool = false) throws -> Double {
        let store = try StoreCoordinator(url: freshURL("shared"), model: model)
        let context = store.viewContext
        let note = try model.entityKey("Note")
        let title = try model.attributeKey("title", of: "Note")
        let rank = try model.attributeKey("rank", of: "Note")
        let score = try model.attributeKey("score", of: "Note")
        return try Self.seconds {
            if byName {
                for i in 0..<count {
                    try context.insert("Note", values: ["title": .string("note \(i)"), "rank": .int(Int64(i)), "score": .double(Double(i) / 3)])
                }
            } else {
                for i in 0..<count {
                    try context.insert(note) {
                        $0[title] = .string("note \(i)")
                        $0[rank] = .int(Int64(i))
                        $0[score] = .double(Double(i) / 3)
                    }
                }
            }
            try context.save()
        }
    }

    func rawInsert(_ count: Int) throws -> Double {
        let url = freshURL("raw")
        _ = try StoreCoordinator(url: url, model: model)  // the same schema, made by SharedStore
        var db: OpaquePointer?
        sqlite3_open(url.path, &db)
        defer { sqlite3_close(db) }
        sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL", nil, nil, nil)
        let time = Self.seconds {
            sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil)
            sqlite3_exec(db, "UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + \(count) WHERE Z_ENT = 1", nil, nil, nil)
            var statement: OpaquePointer?
            sqlite3_prepare_v2(db, "INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZBODY, ZPINNED, ZRANK, ZSCORE, ZCREATED, ZUID) VALUES (?, 1, 1, ?, NULL, 0, ?, ?, NULL, NULL)", -1, &statement, nil)
            for i in 0..<count {
                sqlite3_bind_int64(statement, 1, Int64(i + 1))
                sqlite3_bind_text(statement, 2, "note \(i)", -1, groupsim_transient())
                sqlite3_bind_int64(statement, 3, Int64(i))
                sqlite3_bind_double(statement, 4, Double(i) / 3)
                sqlite3_step(statement)
                sqlite3_reset(statement)
            }
            sqlite3_finalize(statement)
            sqlite3_exec(db, "COMMIT", nil, nil, nil)
        }
        var check: OpaquePointer?
        sqlite3_prepare_v2(db, "SELECT count(*) FROM ZNOTE", -1, &check, nil)
        sqlite3_step(check)
        precondition(sqlite3_column_int64(check, 0) == Int64(count), "the raw inserts failed")
        sqlite3_finalize(check)
        return time
    }

    // MARK: Fetch and fire faults

    func populated(_ count: Int) throws -> URL {
        let url = freshURL("fire")
        let store = try StoreCoordinator(url: url, model: model)
        for i in 0..<count {
            try store.viewContext.insert("Note", values: ["title": .string("note \(i)"), "rank": .int(Int64(i)), "score": .double(Double(i) / 3)])
        }
        try store.viewContext.save()
        return url
    }

    func sharedFire(_ count: Int) throws -> Double {
        let url = try populated(count)
        let store = try StoreCoordinator(url: url, model: model)
        let context = store.viewContext
        let title = try model.attributeKey("title", of: "Note")
        var fired = 0
        let time = try Self.seconds {
            for id in try context.fetch(FetchRequest(entity: "Note")) {
                // Reading one attribute fires the fault: the object takes every value of its row.
                if case .string = try context.value(title, of: id) { fired += 1 }
            }
        }
        precondition(fired == count)
        return time
    }

    func rawFire(_ count: Int) throws -> Double {
        let url = try populated(count)
        var db: OpaquePointer?
        sqlite3_open(url.path, &db)
        defer { sqlite3_close(db) }
        var rows = 0
        let time = Self.seconds {
            var statement: OpaquePointer?
            sqlite3_prepare_v2(db, "SELECT Z_PK, Z_OPT, ZTITLE, ZBODY, ZPINNED, ZRANK, ZSCORE, ZCREATED, ZUID FROM ZNOTE ORDER BY Z_PK", -1, &statement, nil)
            // The same work a fault does: every column of every row into Swift values (the optional
            // body, created and uid columns are NULL here, but a reader must still look at them).
            var values: [RawNote] = []
            while sqlite3_step(statement) == SQLITE_ROW {
                values.append(RawNote(
                    pk: sqlite3_column_int64(statement, 0), version: sqlite3_column_int64(statement, 1),
                    title: String(cString: sqlite3_column_text(statement, 2)),
                    body: sqlite3_column_text(statement, 3).map { String(cString: $0) },
                    pinned: sqlite3_column_int64(statement, 4) != 0, rank: sqlite3_column_int64(statement, 5),
                    score: sqlite3_column_double(statement, 6),
                    created: sqlite3_column_type(statement, 7) == SQLITE_NULL ? nil : sqlite3_column_double(statement, 7),
                    uid: sqlite3_column_bytes(statement, 8) == 16
                        ? UUID(uuid: sqlite3_column_blob(statement, 8)!.loadUnaligned(as: uuid_t.self)) : nil))
            }
            sqlite3_finalize(statement)
            rows = values.count
        }
        precondition(rows == count)
        return time
    }
}

/// One ZNOTE row read by the raw fault baseline.
struct RawNote {
    var pk: Int64
    var version: Int64
    var title: String
    var body: String?
    var pinned: Bool
    var rank: Int64
    var score: Double
    var created: Double?
    var uid: UUID?
}

// MARK: History

extension StoreBench {
    func reportHistory() throws {
        print("History (SharedStore only; ratio = history-on time / history-off time)")
        for (name, saves, perSave) in [("1000 saves x 1 insert", 1000, 1), ("1 save x 10000 inserts", 1, 10_000)] {
            let off = try best { try historySaves(saves: saves, perSave: perSave, history: false) }
            let on = try best { try historySaves(saves: saves, perSave: perSave, history: true) }
            print(String(format: "  %-24@ off %8.1f ms   on %8.1f ms   ratio %.2fx", name as NSString, off * 1000, on * 1000, on / off))
        }
        // The floor: raw SQLite writing the same rows into the same layout. Core Data's history indexes make a
        // one-insert transaction write about 11 WAL pages instead of 2, whoever writes them.
        let rawOff = try best { try rawHistorySaves(1000, history: false) }
        let rawOn = try best { try rawHistorySaves(1000, history: true) }
        print(String(format: "  %-24@ off %8.1f ms   on %8.1f ms   ratio %.2fx (raw SQLite, the same rows and layout)",
                     "1000 saves x 1 insert" as NSString, rawOff * 1000, rawOn * 1000, rawOn / rawOff))
        let merge = try best { try historyMerge(transactions: 1000, registered: 10_000) }
        print(String(format: "  fetch+merge 1000 transactions into a context with 10000 registered objects: %.1f ms", merge * 1000))
    }

    func historySaves(saves: Int, perSave: Int, history: Bool) throws -> Double {
        let store = try StoreCoordinator(url: freshURL("history"), model: model, options: StoreOptions(historyTracking: history))
        let context = store.viewContext
        context.transactionAuthor = "bench"
        return try Self.seconds {
            for s in 0..<saves {
                for i in 0..<perSave {
                    try context.insert("Note", values: ["title": .string("note \(s).\(i)"), "rank": .int(Int64(i))])
                }
                try context.save()
            }
        }
    }

    /// `saves` one-insert transactions through the C API into a store SharedStore made: the note row and
    /// its key, and with `history` the transaction and change rows and their keys, as a save writes them.
    func rawHistorySaves(_ saves: Int, history: Bool) throws -> Double {
        let url = freshURL("raw-history")
        _ = try StoreCoordinator(url: url, model: model, options: StoreOptions(historyTracking: history))
        var db: OpaquePointer?
        sqlite3_open(url.path, &db)
        defer { sqlite3_close(db) }
        sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL", nil, nil, nil)
        var statements: [OpaquePointer?] = []
        var sql = ["UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 1 WHERE Z_ENT = 1",
                   "INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZBODY, ZPINNED, ZRANK, ZSCORE, ZCREATED, ZUID) VALUES (?1, 1, 1, 'note', NULL, 0, 0, 0, NULL, NULL)"]
        if history {
            sql += ["UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 1 WHERE Z_ENT = 16002",
                    "INSERT INTO ATRANSACTION (Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZTIMESTAMP) VALUES (?1, 16002, 1, 1, NULL, 2, 3, ?1)",
                    "UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 1 WHERE Z_ENT = 16001",
                    "INSERT INTO ACHANGE (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS) VALUES (?1, 16001, 1, 0, 1, ?1, ?1, NULL)"]
        }
        for text in sql {
            var statement: OpaquePointer?
            sqlite3_prepare_v2(db, text, -1, &statement, nil)
            statements.append(statement)
        }
        defer { for statement in statements { sqlite3_finalize(statement) } }
        let time = Self.seconds {
            for i in 0..<saves {
                sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil)
                for statement in statements {
                    if sqlite3_bind_parameter_count(statement) > 0 { sqlite3_bind_int64(statement, 1, Int64(i + 1)) }
                    sqlite3_step(statement)
                    sqlite3_reset(statement)
                }
                sqlite3_exec(db, "COMMIT", nil, nil, nil)
            }
        }
        var check: OpaquePointer?
        sqlite3_prepare_v2(db, history ? "SELECT count(*) FROM ACHANGE" : "SELECT count(*) FROM ZNOTE", -1, &check, nil)
        sqlite3_step(check)
        precondition(sqlite3_column_int64(check, 0) == Int64(saves), "the raw history saves failed")
        sqlite3_finalize(check)
        return time
    }

    func historyMerge(transactions: Int, registered: Int) throws -> Double {
        let url = freshURL("merge")
        let writer = try StoreCoordinator(url: url, model: model, options: StoreOptions(historyTracking: true))
        let reader = try StoreCoordinator(url: url, model: model, options: StoreOptions(historyTracking: true))
        for i in 0..<registered {
            try writer.viewContext.insert("Note", values: ["title": .string("note \(i)"), "rank": .int(Int64(i))])
        }
        try writer.viewContext.save()
        let context = reader.viewContext
        context.transactionAuthor = "reader"
        try reader.mergeHistory(into: context, consumer: "bench")
        let ids = try context.fetch(FetchRequest(entity: "Note"))
        for id in ids { _ = try context.values(of: id) }
        let edits = writer.newBackgroundContext(name: "edits")
        edits.transactionAuthor = "writer"
        for t in 0..<transactions {
            try edits.setValues(["title": .string("edit \(t)")], for: ids[(t * 7) % ids.count])
            try edits.save()
        }
        var merged = 0
        let time = try Self.seconds {
            merged = try reader.mergeHistory(into: context, consumer: "bench").transactions.count
        }
        precondition(merged == transactions && context.registeredObjects.count == registered)
        return time
    }
}
