import Basics
import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import SharedStore
import Testing
import TestSupport

/// What someone else's store can cost `inspect` and `import` is bounded by the store's size, not by its
/// schema: inheritance chains, thousands of entities, holes and long histories (issue 35). Speed is shown by
/// `groupsim bench`-style measurements in the notes; these tests pin the behaviour that keeps it linear.
@Suite struct UntrustedStoreBoundsTests {
    /// A store in Core Data's layout whose entities E1...En each inherit from the one before (one table).
    static func chainStore(at url: URL, depth: Int) throws {
        let db = try SQLiteConnection(path: url.path, walMode: false)
        defer { db.close() }
        try db.execute(CoreDataLayout.storeTables)
        try db.execute("CREATE TABLE ZE1 (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR)")
        try db.execute("BEGIN")
        for i in 1...depth { try db.execute("INSERT INTO Z_PRIMARYKEY VALUES (\(i), 'E\(i)', \(i - 1), \(i == depth ? 2 : 0))") }
        try db.execute("INSERT INTO ZE1 VALUES (1, \(depth), 1, 'deepest'), (2, 1, 1, 'root')")
        try db.execute("COMMIT")
        try db.execute(try CoreDataLayout.metadataRow(identifier: "CHAIN", entities: (1...depth).map { "E\($0)" }))
    }

    @Test func aDeepChainOfSubEntitiesIsReadWholeButGivesNoModel() throws {
        let directory = try TemporaryDirectory(prefix: "chain")
        let url = directory.url.appendingPathComponent("Chain.sqlite")
        try Self.chainStore(at: url, depth: 3_000)
        let inspection = try StoreInspector.inspect(url)
        #expect(inspection.entities.count == 3_000)
        #expect(inspection.entities.allSatisfy { $0.table == "ZE1" }, "every sub-entity's rows are in its root's table")
        #expect(inspection.entities.last?.parent == "E2999" && inspection.entities.last?.count == 1)
        #expect(inspection.entities.first?.count == 1, "a count per Z_ENT, not per table")
        do {
            _ = try inspection.inferredModel()
            Issue.record("a 2,999-deep chain gave a model")
        } catch {
            #expect(error.message.contains("E18 inherits through more than 16 parent entities"), "\(error.message)")
        }
    }

    /// A table whose `Z_PK` is not its primary key (someone else's store need not declare it) is read once
    /// for all the rows asked about, not once per row: 10,000 rows asked of 50,000 took minutes, each a
    /// scan of the table, and ran into the deadline; here the budget is 10 s, a hundred times what one pass takes.
    @Test func rowsAskedAboutAreFoundInOnePassOverATableWithoutAPrimaryKey() throws {
        let directory = try TemporaryDirectory(prefix: "no-pk")
        let url = directory.url.appendingPathComponent("Notes.sqlite")
        let db = try SQLiteConnection(path: url.path, walMode: false)
        try db.execute(CoreDataLayout.storeTables)
        try db.execute("CREATE TABLE ZNOTE (Z_PK INTEGER, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR)")
        try db.execute("BEGIN")
        try db.execute("INSERT INTO Z_PRIMARYKEY VALUES (1, 'Note', 0, 50000)")
        try db.execute("WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 50000) "
            + "INSERT INTO ZNOTE SELECT k, 1, 1, 't' FROM n")
        // A key held twice is not one row either.
        try db.execute("INSERT INTO ZNOTE VALUES (7, 1, 1, 'again')")
        try db.execute("COMMIT")
        try db.execute(try CoreDataLayout.metadataRow(identifier: "NOPK", entities: ["Note"]))
        db.close()
        let asked = (1...10_000).map { StoreRow(entity: "Note", primaryKey: Int64($0 * 6)) } + [StoreRow(entity: "Note", primaryKey: 7)]
        let examination = try StoreInspector.examine(url, findingRows: asked, fitting: nil, budget: .seconds(10))
        // 6 x 10,000 = 60,000: the keys past 50,000 are missing, and 7 is there twice.
        let missing = (examination.inspection.missingRows ?? []).map(\.primaryKey)
        #expect(missing.count == 1_667 + 1 && missing.contains(7) && missing.allSatisfy { $0 == 7 || $0 > 50_000 }, "\(missing.count)")
    }

    @Test func aModelInheritingDeeperThanTheLimitDoesNotCompile() throws {
        func chain(_ depth: Int) -> ModelDescription {
            ModelDescription(entities: (0...depth).map { i in
                EntityDescription(name: "E\(i)", attributes: [], relationships: [], parent: i == 0 ? nil : "E\(i - 1)")
            })
        }
        #expect(chain(ModelDescription.maximumInheritanceDepth).entityInheritingTooDeeply == nil)
        _ = try Model(chain(ModelDescription.maximumInheritanceDepth))
        #expect(chain(ModelDescription.maximumInheritanceDepth + 1).entityInheritingTooDeeply == "E17")
        #expect(throws: ModelError.self) { try Model(chain(ModelDescription.maximumInheritanceDepth + 1)) }
        // A cycle is no depth: Model names it as a cycle.
        let cycle = ModelDescription(entities: [EntityDescription(name: "A", attributes: [], relationships: [], parent: "B"),
                                                EntityDescription(name: "B", attributes: [], relationships: [], parent: "A")])
        #expect(cycle.entityInheritingTooDeeply == nil)
    }

    @Test func objectsOfManyEntitiesWithOneKeyDoNotShareAHash() {
        let ids = (0..<1_000).map { ObjectID(entity: "E\($0)", primaryKey: 1, storeIdentifier: "S") }
        #expect(Set(ids.map(\.hashValue)).count > 990, "each entity's keys start at 1: hashing the key alone puts them in one bucket")
        #expect(Set(ids).count == 1_000)
    }

    @Test func aSparseStoreIsCopiedWithItsHoles() throws {
        let directory = try TemporaryDirectory(prefix: "sparse")
        let url = directory.url.appendingPathComponent("Chain.sqlite")
        try Self.chainStore(at: url, depth: 2)
        let original = try Data(contentsOf: url)
        // A gigabyte of nothing after the pages: a file system with holes allocates none of it.
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        let copy = directory.url.appendingPathComponent("copy/Chain.sqlite")
        let files = try StoreInspector.copyStore(url, reportedAs: url.path, to: copy)
        #expect(files.store == 1 << 30)
        let attributes = try FileManager.default.attributesOfItem(atPath: copy.path)
        #expect((attributes[.size] as? NSNumber)?.int64Value == 1 << 30)
        #expect(SparseCopy.allocatedBytes(atPath: copy.path).map { $0 < 64 << 20 } == true,
                "the copy writes the data, not the holes")
        let read = try FileHandle(forReadingFrom: copy)
        defer { try? read.close() }
        #expect(try read.read(upToCount: original.count) == original)
        try read.seek(toOffset: (1 << 30) - 4_096)
        #expect(try read.read(upToCount: 4_096) == Data(count: 4_096))
        // The store the copy holds is read as the original is.
        #expect(try StoreInspector.inspect(url).entities.map(\.name) == ["E1", "E2"])
    }

    @Test func aCopyWithoutHolesKeepsEveryByteAndZeroRuns() throws {
        let directory = try TemporaryDirectory(prefix: "dense")
        let source = directory.url.appendingPathComponent("source")
        var bytes = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 % 251) })
        bytes.replaceSubrange((1 << 20)..<(2 << 20), with: Data(count: 1 << 20))   // a run of zeros written as data
        bytes.append(Data(count: 12_345))                                            // and a tail of zeros
        try bytes.write(to: source)
        let copy = directory.url.appendingPathComponent("copy")
        #expect(FileManager.default.createFile(atPath: copy.path, contents: nil))
        let input = try FileHandle(forReadingFrom: source), output = try FileHandle(forWritingTo: copy)
        #expect(try SparseCopy.copy(from: input.fileDescriptor, to: output.fileDescriptor, length: Int64(bytes.count)) == Int64(bytes.count))
        // Asked for fewer bytes than the file has (a -wal still growing), it copies those.
        let part = directory.url.appendingPathComponent("part")
        #expect(FileManager.default.createFile(atPath: part.path, contents: nil))
        let partOutput = try FileHandle(forWritingTo: part)
        #expect(try SparseCopy.copy(from: input.fileDescriptor, to: partOutput.fileDescriptor, length: 1_000) == 1_000)
        for handle in [input, output, partOutput] { try handle.close() }
        #expect(try Data(contentsOf: copy) == bytes)
        #expect(try Data(contentsOf: part) == bytes.prefix(1_000))
    }

    @Test func onlyTheNewestTransactionsAreRead() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open(history: true, bundle: "share")
        for i in 0..<30 { _ = try store.batchInsert("Note", objects: [["title": .string("note \(i)")]]) }
        store.close()
        let history = try StoreInspector.recordedHistory(fixture.url, model: .notesExample, limit: 10)
        #expect(history.transactions.count == 10)
        #expect(history.omitted == 20)
        #expect(history.transactions.map(\.token) == Array(21...30).map(Int64.init))
        let all = try StoreInspector.recordedHistory(fixture.url, model: .notesExample, limit: 100)
        #expect(all.transactions.count == 30 && all.omitted == 0)
    }

    /// A `Z_MODELCACHE` larger than any model is not read, whatever it holds: a 90 MB cache of flat
    /// entities cost inspect and import 645 MB to decode.
    /// A history naming hundreds of writers, one with a name of a hundred thousand characters: inspect lists
    /// the 50 with most transactions, each name cut at 200 characters, and says how many more there are.
    /// import reads the objects its history names by key from its copy: a table whose `Z_PK` is not its
    /// primary key gets an index on it there, so each read is a lookup, not a scan (a million rows and 200
    /// objects took 6 s); a table that has its key as Core Data makes it is left as it is.
    @Test func aTableWithoutAPrimaryKeyIsIndexedOnItsKeyInTheCopy() throws {
        let directory = try TemporaryDirectory(prefix: "no-pk")
        let db = try SQLiteConnection(path: directory.url.appendingPathComponent("Copy.sqlite").path, walMode: false)
        defer { db.close() }
        try db.execute("CREATE TABLE ZNOTE (Z_PK INTEGER, Z_ENT INTEGER, ZTITLE VARCHAR); "
            + "CREATE TABLE ZTAG (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, ZNAME VARCHAR)")
        try StoreInspector.indexKeys(db)
        func plan(_ table: String) throws -> String {
            let statement = try db.prepare("EXPLAIN QUERY PLAN SELECT * FROM \(table) WHERE Z_PK = 1")
            var details: [String] = []
            while try statement.step() { details.append(statement.string(at: 3) ?? "") }
            return details.joined(separator: "; ")
        }
        let note = try plan("ZNOTE"), tag = try plan("ZTAG")
        #expect(note.contains("USING INDEX groupsim_key_0"), "\(note)")
        #expect(tag.contains("INTEGER PRIMARY KEY"), "\(tag)")
        #expect(try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'index'") == 1)
    }

    @Test func aHistoryOfManyWritersListsTheFirstFiftyAndCountsTheRest() throws {
        let directory = try TemporaryDirectory(prefix: "writers")
        let url = directory.url.appendingPathComponent("Notes.sqlite")
        let db = try SQLiteConnection(path: url.path, walMode: false)
        try db.execute("\(CoreDataLayout.storeTables)\n\(CoreDataLayout.historyTables)")
        try db.execute("CREATE TABLE ZNOTE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR )")
        try db.execute("BEGIN")
        try db.execute("INSERT INTO Z_PRIMARYKEY VALUES (1, 'Note', 0, 0)")
        for i in 1...300 {
            let bundle = i == 1 ? "com.example." + String(repeating: "x", count: 100_000) : "com.example.ext\(i)"
            try db.cached("INSERT INTO ATRANSACTIONSTRING VALUES (?, 16003, 1, ?)").run([.int(Int64(i)), .string(bundle)])
            // The long name has the most transactions, so it is listed first.
            for t in 0..<(i == 1 ? 3 : 1) {
                try db.execute("INSERT INTO ATRANSACTION VALUES (NULL, 16002, 1, NULL, \(i), NULL, NULL, \(700000000 + i * 10 + t), "
                    + "NULL, NULL, NULL, NULL, NULL)")
            }
        }
        try db.execute("COMMIT")
        try db.execute(try CoreDataLayout.metadataRow(identifier: "WRITERS", entities: ["Note"]))
        db.close()
        let history = try #require(try StoreInspector.inspect(url).history)
        #expect(history.transactions == 302)
        #expect(history.bundleIdentifiers.count == InspectionReader.listedNames && history.unlistedBundleIdentifiers == 250)
        #expect(history.bundleIdentifiers.first.map { $0.transactions == 3 && $0.name?.count == 200 } == true)
        #expect(history.authors.count == 1 && history.unlistedAuthors == 0, "every transaction has no author: one (none)")
    }

    @Test func aModelCacheLargerThanAnyModelIsNotRead() throws {
        let fixture = try StoreFixture()
        try fixture.open(history: false).close()
        let db = try SQLiteConnection(path: fixture.url.path)
        // Valid JSON of a model, padded past the bound with spaces: decoded, it would be a model.
        let model = try JSONEncoder().encode(ModelDescription(entities: [EntityDescription(name: "Note", attributes: [])]))
        let update = try db.prepare("UPDATE Z_MODELCACHE SET Z_CONTENT = ?")
        try update.bind(model + Data(repeating: 0x20, count: InspectionReader.largestModelCache + (1 << 20)), at: 1)
        while try update.step() {}
        db.close()
        let inspection = try StoreInspector.inspect(fixture.url)
        #expect(inspection.storedModel == nil)
        #expect(inspection.problems.contains { $0.contains("Z_MODELCACHE is 9 MiB, more than the 8 MiB a model takes") },
                "\(inspection.problems)")
    }

    @Test func aModelCacheInheritingTooDeeplyIsNotUsed() throws {
        let fixture = try StoreFixture()
        try fixture.open(history: false).close()
        let deep = ModelDescription(entities: (0...40).map { i in
            EntityDescription(name: "E\(i)", attributes: [], relationships: [], parent: i == 0 ? nil : "E\(i - 1)")
        })
        let db = try SQLiteConnection(path: fixture.url.path)
        let update = try db.prepare("UPDATE Z_MODELCACHE SET Z_CONTENT = ?")
        try update.bind(try JSONEncoder().encode(deep), at: 1)
        while try update.step() {}
        db.close()
        let inspection = try StoreInspector.inspect(fixture.url)
        #expect(inspection.storedModel == nil)
        #expect(inspection.problems.contains { $0.contains("Z_MODELCACHE") && $0.contains("more than 16") }, "\(inspection.problems)")
    }
}

/// A store copied in the middle of a write in rollback-journal mode has a hot journal: SQLite rolls it back
/// at the next open, which needs to write. `inspect` and `import` read a copy, so both roll it back there.
@Suite struct HotJournalTests {
    @Test func aHotJournalIsRolledBackInTheCopyByInspectAndImport() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open(history: true, bundle: "share")
        _ = try store.batchInsert("Note", objects: (0..<50).map { ["title": .string("committed \($0)")] })
        store.close()
        let db = try SQLiteConnection(path: fixture.url.path, walMode: false)
        try db.execute("PRAGMA journal_mode=DELETE")
        try db.execute("PRAGMA cache_size=1")
        try db.execute("BEGIN IMMEDIATE")
        // Enough pages that the cache spills them into the file before the commit: the journal is hot.
        try db.execute("UPDATE ZNOTE SET ZTITLE = ZTITLE || '\(String(repeating: "x", count: 2_000))'")
        let device = fixture.directory.url.appendingPathComponent("device", isDirectory: true)
        try FileManager.default.createDirectory(at: device, withIntermediateDirectories: true)
        let copy = device.appendingPathComponent("Notes.sqlite")
        try FileManager.default.copyItem(at: fixture.url, to: copy)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: fixture.url.path + "-journal"), to: URL(fileURLWithPath: copy.path + "-journal"))
        try db.execute("ROLLBACK")
        db.close()
        let before = try Data(contentsOf: copy)
        #expect(try StoreInspector.inspect(copy).entities.first { $0.name == "Note" }?.count == 50)
        let history = try StoreInspector.recordedHistory(copy, model: .notesExample, limit: 10, samples: 1)
        #expect(history.transactions.count == 1)
        #expect(history.samples.values.first?["title"]?.stringValue?.hasPrefix("committed") == true, "the rolled-back write is not read")
        #expect(try Data(contentsOf: copy) == before, "the device's files are never written")
        #expect(FileManager.default.fileExists(atPath: copy.path + "-journal"))
    }
}
