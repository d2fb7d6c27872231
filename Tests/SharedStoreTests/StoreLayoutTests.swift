import Basics
import Foundation
import SharedStore
import Testing
import TestSupport

/// A store SharedStore writes has Core Data's layout, rule by rule as Docs/SharedStore.md ("The file") gives it.
@Suite struct StoreLayoutTests {
    /// Author 1 `books` <-> Book 2 `authors` (a join table), Book `shelf` -> Shelf 4 (a to-one whose inverse
    /// `books` is held by Book's column), Note 3 with every attribute type and a tombstoned attribute.
    static let model = ModelDescription(entities: [
        EntityDescription(name: "Shelf", attributes: [AttributeDescription(name: "label", type: .string)],
                          relationships: [RelationshipDescription(name: "books", destination: "Book", isToMany: true, inverse: "shelf")]),
        EntityDescription(name: "Book", attributes: [AttributeDescription(name: "title", type: .string)],
                          relationships: [RelationshipDescription(name: "authors", destination: "Author", isToMany: true, inverse: "books"),
                                          RelationshipDescription(name: "shelf", destination: "Shelf", isToMany: false, inverse: "books")]),
        EntityDescription(name: "Author", attributes: [AttributeDescription(name: "name", type: .string)],
                          relationships: [RelationshipDescription(name: "books", destination: "Book", isToMany: true, inverse: "authors")]),
        EntityDescription(name: "Note", attributes: [
            AttributeDescription(name: "text", type: .string, preservesValueInHistoryOnDeletion: true),
            AttributeDescription(name: "count", type: .int), AttributeDescription(name: "done", type: .bool),
            AttributeDescription(name: "score", type: .double), AttributeDescription(name: "due", type: .date, isOptional: true),
            AttributeDescription(name: "uid", type: .uuid, isOptional: true, preservesValueInHistoryOnDeletion: false),
        ]),
    ])

    private func columns(_ db: SQLiteConnection, _ table: String) throws -> [String] {
        let statement = try db.prepare("SELECT name, type, pk FROM pragma_table_info(?) ORDER BY cid")
        try statement.bind([.string(table)])
        var result: [String] = []
        while try statement.step() {
            result.append("\(statement.string(at: 0)!) \(statement.string(at: 1)!)\(statement.int64(at: 2) > 0 ? " PK" : "")")
        }
        return result
    }

    private func rows(_ db: SQLiteConnection, _ sql: String) throws -> [[Value]] {
        let statement = try db.prepare(sql)
        var result: [[Value]] = []
        while try statement.step() { result.append((0..<statement.columnCount).map { statement.value(at: $0) }) }
        return result
    }

    @Test func aSharedStoreFileFollowsCoreDatasRules() throws {
        let fixture = try StoreFixture(model: try Model(Self.model))
        let store = try fixture.open(history: true, bundle: "com.example.books.share")
        let context = store.viewContext
        let author = try context.insert("Author", values: ["name": "Herbert"])
        let book = try context.insert("Book", values: ["title": "Dune"])
        let shelf = try context.insert("Shelf", values: ["label": "SF"])
        try context.relate(book, to: author, via: "authors")
        try context.relate(book, to: shelf, via: "shelf")
        let note = try context.insert("Note", values: ["text": "keep", "count": 1, "done": true, "score": 0.5,
                                                       "due": .date(Date(timeIntervalSinceReferenceDate: 700_000_000.25)),
                                                       "uid": .uuid(UUID())])
        let saved = try context.save()
        let noteID = try #require(saved.permanentIDs[note])
        context.transactionAuthor = "app"
        try context.setValues(["count": 2], for: noteID)
        try context.save()
        try context.delete(noteID)
        try context.save()

        let db = try SQLiteConnection(path: fixture.url.path, readOnly: true)
        #expect(try rows(db, "PRAGMA journal_mode") == [[.string("wal")]])
        #expect(try rows(db, "PRAGMA auto_vacuum") == [[.int(2)]], "incremental, as _NSAutoVacuumLevel says")

        // Every table is one of Core Data's, or SharedStore's own under a prefix no Core Data table has.
        let tables = try rows(db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").compactMap { $0[0].stringValue }
        #expect(tables == ["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING", "GROUPSIM_META", "ZAUTHOR", "ZBOOK", "ZNOTE",
                           "ZSHELF", "Z_1BOOKS", "Z_METADATA", "Z_MODELCACHE", "Z_PRIMARYKEY"], "no AUTOINCREMENT: no sqlite_sequence")

        // Z_PRIMARYKEY: entities numbered alphabetically from 1, Z_MAX the highest key handed out; history's rows.
        #expect(try rows(db, "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") == [
            [.int(1), .string("Author"), .int(0), .int(1)], [.int(2), .string("Book"), .int(0), .int(1)],
            [.int(3), .string("Note"), .int(0), .int(1)], [.int(4), .string("Shelf"), .int(0), .int(1)],
            [.int(16001), .string("CHANGE"), .int(0), .int(6)], [.int(16002), .string("TRANSACTION"), .int(0), .int(3)],
            [.int(16003), .string("TRANSACTIONSTRING"), .int(0), .int(4)],
        ])

        // Z_METADATA: one row, an uppercase UUID, and a binary property list with the listed keys.
        let metadata = try rows(db, "SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA")
        #expect(metadata.count == 1 && metadata[0][0] == .int(1))
        let identifier = try #require(metadata[0][1].stringValue)
        #expect(UUID(uuidString: identifier) != nil && identifier == identifier.uppercased())
        let plistBytes = try #require(try db.prepare("SELECT Z_PLIST FROM Z_METADATA").firstData())
        #expect(plistBytes.starts(with: Array("bplist00".utf8)))
        let plist = try #require(try PropertyListSerialization.propertyList(from: plistBytes, options: [], format: nil) as? [String: Any])
        #expect(plist["NSStoreType"] as? String == "SQLite")
        #expect((plist["NSPersistenceFrameworkVersion"] as? NSNumber)?.intValue == 1344)
        #expect((plist["NSStoreModelVersionHashesVersion"] as? NSNumber)?.intValue == 3)
        #expect(plist["NSStoreModelVersionIdentifiers"] is [Any])
        #expect(plist["_NSAutoVacuumLevel"] as? String == "2")
        let hashes = try #require(plist["NSStoreModelVersionHashes"] as? [String: Data])
        #expect(hashes.keys.sorted() == ["Author", "Book", "Note", "Shelf"] && hashes.values.allSatisfy { $0.count == 32 })
        for key in ["NSStoreModelVersionHashesDigest", "NSStoreModelVersionChecksumKey"] {
            #expect((plist[key] as? String).flatMap { Data(base64Encoded: $0) }?.count == 32, "\(key)")
        }
        #expect(try rows(db, "SELECT count(*) FROM Z_MODELCACHE") == [[.int(1)]])

        // Entity tables: Z_PK, Z_ENT, Z_OPT, then Z<NAME> columns with Core Data's declared types.
        #expect(try columns(db, "ZNOTE") == ["Z_PK INTEGER PK", "Z_ENT INTEGER", "Z_OPT INTEGER", "ZTEXT VARCHAR",
                                             "ZCOUNT INTEGER", "ZDONE INTEGER", "ZSCORE FLOAT", "ZDUE TIMESTAMP", "ZUID BLOB"])
        #expect(try columns(db, "ZBOOK") == ["Z_PK INTEGER PK", "Z_ENT INTEGER", "Z_OPT INTEGER", "ZTITLE VARCHAR", "ZSHELF INTEGER"])
        #expect(try rows(db, "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'ZBOOK'") == [[.string("ZBOOK_ZSHELF_INDEX")]])
        #expect(try rows(db, "SELECT Z_ENT, Z_OPT FROM ZBOOK") == [[.int(2), .int(1)]])
        // The join table, as Core Data's `Z_1BOOKS (Z_1AUTHORS, Z_2BOOKS)` for the same two entities: named after
        // Author's `books`, each column after the relationship pointing at its entity.
        #expect(try columns(db, "Z_1BOOKS") == ["Z_1AUTHORS INTEGER PK", "Z_2BOOKS INTEGER PK"])
        #expect(try rows(db, "SELECT Z_1AUTHORS, Z_2BOOKS FROM Z_1BOOKS") == [[.int(1), .int(1)]])

        // History: Core Data's columns, entity numbers 16001-16003, interned strings, timestamps since 2001.
        #expect(try columns(db, "ATRANSACTION") == ["Z_PK INTEGER PK", "Z_ENT INTEGER", "Z_OPT INTEGER", "ZAUTHORTS INTEGER",
            "ZBUNDLEIDTS INTEGER", "ZCONTEXTNAMETS INTEGER", "ZPROCESSIDTS INTEGER", "ZTIMESTAMP FLOAT", "ZAUTHOR VARCHAR",
            "ZBUNDLEID VARCHAR", "ZCONTEXTNAME VARCHAR", "ZPROCESSID VARCHAR", "ZQUERYGEN BLOB"])
        #expect(try columns(db, "ACHANGE") == ["Z_PK INTEGER PK", "Z_ENT INTEGER", "Z_OPT INTEGER", "ZCHANGETYPE INTEGER",
            "ZENTITY INTEGER", "ZENTITYPK INTEGER", "ZTRANSACTIONID INTEGER", "ZCOLUMNS BLOB", "ZTOMBSTONE0 "])
        let transactions = try rows(db, """
            SELECT t.Z_PK, t.Z_ENT, a.ZNAME, b.ZNAME, c.ZNAME, t.ZAUTHOR, t.ZBUNDLEID FROM ATRANSACTION t
            LEFT JOIN ATRANSACTIONSTRING a ON a.Z_PK = t.ZAUTHORTS LEFT JOIN ATRANSACTIONSTRING b ON b.Z_PK = t.ZBUNDLEIDTS
            LEFT JOIN ATRANSACTIONSTRING c ON c.Z_PK = t.ZCONTEXTNAMETS ORDER BY t.Z_PK
            """)
        #expect(transactions.map { Array($0[0...1]) } == [[.int(1), .int(16002)], [.int(2), .int(16002)], [.int(3), .int(16002)]])
        #expect(transactions.map { $0[2] } == [.null, .string("app"), .string("app")], "no author: ZAUTHORTS NULL")
        #expect(transactions.allSatisfy { $0[3] == .string("com.example.books.share") && $0[4] == .string("viewContext") })
        #expect(try rows(db, "SELECT DISTINCT s.ZNAME FROM ATRANSACTION t JOIN ATRANSACTIONSTRING s ON s.Z_PK = t.ZPROCESSIDTS")
            == [[.string(ProcessInfo.processInfo.processName)]], "the process's name, as Core Data's xctest")
        #expect(transactions.allSatisfy { $0[5] == .null && $0[6] == .null }, "the plain columns stay NULL")
        #expect(try rows(db, "SELECT DISTINCT Z_ENT FROM ATRANSACTIONSTRING") == [[.int(16003)]])
        let timestamp = try #require(try rows(db, "SELECT ZTIMESTAMP FROM ATRANSACTION WHERE Z_PK = 1").first?.first?.doubleValue)
        #expect(timestamp == fixture.clock.now.timeIntervalSinceReferenceDate, "seconds since 2001 on the store's clock")
        let changes = try rows(db, "SELECT Z_ENT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS, ZTOMBSTONE0 FROM ACHANGE WHERE ZENTITY = 3 ORDER BY Z_PK")
        #expect(changes.map { Array($0[0...4]) } == [
            [.int(16001), .int(0), .int(3), .int(1), .int(1)], [.int(16001), .int(1), .int(3), .int(1), .int(2)],
            [.int(16001), .int(2), .int(3), .int(1), .int(3)],
        ])
        #expect(changes[0][5] == .null && changes[2][5] == .null, "ZCOLUMNS is NULL for inserts and deletes")
        #expect(try db.prepare("SELECT ZCOLUMNS FROM ACHANGE WHERE ZCHANGETYPE = 1").firstData() == Data([0b10]),
                "the update's bitmask: count is Note's second property")
        #expect(changes[2][6] == .string("keep"), "the tombstone keeps the preserved value")

        // The history reads back through SharedStore, and the inspector calls the file Core Data's layout.
        let history = try store.fetchHistory(after: nil)
        #expect(history.transactions.map(\.author) == [nil, "app", "app"])
        #expect(history.transactions[1].changes.first?.updatedProperties == ["count"])
        #expect(history.transactions[2].changes.first { $0.operation == .delete }?.tombstone == ["text": .string("keep")])
        let inspection = try StoreInspector.inspect(fixture.url)
        #expect(inspection.layout == .groupsim && inspection.frameworkVersion == 1344)
        #expect(inspection.problems.allSatisfy { $0.hasPrefix("history was never purged") }, "\(inspection.problems)")
    }

    @Test func purgedTokensAreReadOffTheTokensLeftAndNeverHandedOutAgain() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open(history: true)
        for title in ["A", "B", "C"] { _ = try store.viewContext.insertNote(title) }
        #expect(try store.purgeHistory(.olderThan(-1)) == 3)
        #expect(throws: StoreError.self) { try store.fetchHistory(after: 1) }
        _ = try store.viewContext.insertNote("D")
        let history = try store.fetchHistory(after: 3)
        #expect(history.transactions.map(\.token) == [4], "token 4, not a reused 1")
        #expect(throws: StoreError.self) { try store.fetchHistory(after: 2) }
    }

    @Test func aPurgeByAgeThatKeepsOlderTokensStillExpiresTheOnesItDeleted() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open(history: true)
        for title in ["A", "B", "C"] { _ = try store.viewContext.insertNote(title) }
        // Token 1 carries a later timestamp (a store from a device whose clock ran ahead): an age purge keeps it.
        let raw = try SQLiteConnection(path: fixture.url.path)
        try raw.execute("UPDATE ATRANSACTION SET ZTIMESTAMP = ZTIMESTAMP + 86400000 WHERE Z_PK = 1")
        raw.close()
        #expect(try store.purgeHistory(.olderThan(-1)) == 2)
        #expect(throws: StoreError.self, "tokens 2 and 3 are gone") { try store.fetchHistory(after: 1) }
    }
}

/// Keys near the largest 64-bit integer are refused, not overflowed.
@Suite struct KeyAllocationTests {
    @Test func aStoreThatHandedOutEveryKeyRefusesAnInsertWithAReason() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open(history: true)
        _ = try store.viewContext.insertNote("A")
        let raw = try SQLiteConnection(path: fixture.url.path)
        try raw.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 9223372036854775807 WHERE Z_NAME = 'Note'")
        raw.close()
        _ = try store.viewContext.insert("Note", values: ["title": "B"])
        #expect {
            try store.viewContext.save()
        } throws: { error in
            "\(error)".contains("Note has handed out keys up to 9223372036854775807")
        }
        #expect(throws: StoreError.self) { try store.batchInsert("Note", objects: [["title": "C"]]) }
        #expect(try fixture.open().viewContext.fetch(FetchRequest(entity: "Note")).count == 1, "nothing was written")
    }
}

extension Statement {
    /// The first column of the first row as bytes.
    fileprivate func firstData() throws -> Data? {
        try step() ? data(at: 0) : nil
    }
}
