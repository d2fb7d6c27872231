import Basics
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SharedStore
import Testing
import TestSupport

/// `StoreInspector` on stores built with plain SQL in Core Data's layout, as Docs/SharedStore.md ("The file") describes
/// the files Core Data writes, and on a store SharedStore wrote.
@Suite struct InspectionTests {
    /// Core Data's layout: inheritance (GraphicNovel in ZBOOK, Author in ZWRITER), a join table, to-ones
    /// into entities with sub-entities (their `Z<n>_` columns), history with interned strings and an
    /// unset author, a binary property list in `Z_METADATA`.
    /// Returns the open connection: while it is open, a WAL store keeps its `-wal` and `-shm`.
    @discardableResult
    static func coreDataStore(at url: URL, journal: String = "WAL") throws -> SQLiteConnection {
        let db = try SQLiteConnection(path: url.path, walMode: false)
        try db.execute("PRAGMA journal_mode=\(journal)")
        try db.execute("""
            \(CoreDataLayout.storeTables)
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Book', 0, 4), (2, 'GraphicNovel', 1, 0), (3, 'Feedback', 0, 1),
              (4, 'Page', 0, 2), (5, 'Writer', 0, 2), (6, 'Author', 5, 0),
              (16001, 'CHANGE', 0, 6), (16002, 'TRANSACTION', 0, 3), (16003, 'TRANSACTIONSTRING', 0, 5);
            CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPAGESCOUNT INTEGER,
              ZAUTHOR INTEGER, Z5_AUTHOR INTEGER, ZPUBLISHEDAT TIMESTAMP, ZPRICE DECIMAL, ZTITLE VARCHAR,
              ZUNIQUEID BLOB, ZINKER VARCHAR );
            CREATE INDEX ZBOOK_ZAUTHOR_INDEX ON ZBOOK (ZAUTHOR);
            CREATE INDEX ZBOOK_Z_ENT_INDEX ON ZBOOK (Z_ENT);
            CREATE UNIQUE INDEX Z_Book_UNIQUE_uniqueID ON ZBOOK (ZUNIQUEID COLLATE BINARY ASC);
            CREATE TABLE ZPAGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNUMBER INTEGER, ZBOOK INTEGER,
              Z1_BOOK INTEGER, ZTEXT VARCHAR );
            CREATE INDEX ZPAGE_ZBOOK_INDEX ON ZPAGE (ZBOOK);
            CREATE TABLE ZFEEDBACK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZRATING FLOAT, ZCOMMENT VARCHAR );
            CREATE TABLE ZWRITER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
            CREATE TABLE Z_3WRITERS ( Z_3FEEDBACKS INTEGER, Z_5WRITERS INTEGER, PRIMARY KEY (Z_3FEEDBACKS, Z_5WRITERS) );
            INSERT INTO ZBOOK VALUES (1, 1, 1, 120, 2, 6, 700000000.5, 12.5, 'Dune', NULL, NULL),
              (2, 2, 1, 64, 1, 5, NULL, NULL, 'Maus', NULL, 'Spiegelman'), (3, 1, 2, 10, NULL, NULL, NULL, NULL, 'Notes', NULL, NULL);
            INSERT INTO ZPAGE VALUES (1, 4, 1, 1, 1, 1, 'Chapter 1'), (2, 4, 1, 1, 2, 2, 'Panel');
            INSERT INTO ZFEEDBACK VALUES (1, 3, 1, 4.5, 'Great');
            INSERT INTO ZWRITER VALUES (1, 5, 1, 'Editor'), (2, 6, 1, 'Herbert');
            INSERT INTO Z_3WRITERS VALUES (1, 2);
            \(CoreDataLayout.historyTables)
            INSERT INTO ATRANSACTIONSTRING VALUES (1, 16003, 1, 'app'), (2, 16003, 1, 'com.example.books'),
              (3, 16003, 1, 'Books'), (4, 16003, 1, 'com.example.books.share'), (5, 16003, 1, 'BooksShare');
            INSERT INTO ATRANSACTION VALUES
              (2, 16002, 1, 1, 2, NULL, 3, 700000000.25, NULL, NULL, NULL, NULL, NULL),
              (3, 16002, 1, NULL, 4, NULL, 5, 700000100.5, NULL, NULL, NULL, NULL, NULL);
            INSERT INTO ACHANGE VALUES (1, 16001, 1, 0, 1, 3, 2, NULL), (2, 16001, 1, 0, 4, 1, 2, NULL),
              (3, 16001, 1, 1, 1, 1, 3, X'01'), (4, 16001, 1, 2, 1, 4, 3, NULL);
            """)
        try db.execute(try CoreDataLayout.metadataRow(identifier: "9A7C4D2E-1B3F-4A5B-8C6D-0E1F2A3B4C5D", entities: ["Author", "Book", "Feedback", "GraphicNovel", "Page", "Writer"]))
        return db
    }

    @Test func aCoreDataStoreIsReadAsItsSchemaShowsIt() throws {
        let directory = try TemporaryDirectory(prefix: "inspect")
        let url = directory.url.appendingPathComponent("Books.sqlite")
        let writer = try Self.coreDataStore(at: url)
        let before = try Data(contentsOf: url)
        let inspection = try StoreInspector.inspect(url)
        #expect(try Data(contentsOf: url) == before, "the inspected file is never written")
        #expect(inspection.layout == .coreData && inspection.frameworkVersion == 1344 && inspection.storeType == "SQLite")
        #expect(inspection.identifier == "9A7C4D2E-1B3F-4A5B-8C6D-0E1F2A3B4C5D")
        typealias E = StoreInspection.Entity
        typealias A = StoreInspection.Attribute
        typealias R = StoreInspection.Relationship
        var expected: [E] = [
            E(name: "Book", number: 1, parent: nil, table: "ZBOOK", count: 2, maxPrimaryKey: 4, attributes: [
                A(name: "pagescount", column: "ZPAGESCOUNT", type: "int"), A(name: "publishedat", column: "ZPUBLISHEDAT", type: "date"),
                A(name: "price", column: "ZPRICE", type: "decimal"), A(name: "title", column: "ZTITLE", type: "string"),
                // Spelled as its unique index Z_Book_UNIQUE_uniqueID spells it; columns alone are upper case.
                A(name: "uniqueID", column: "ZUNIQUEID", type: "binary"), A(name: "inker", column: "ZINKER", type: "string"),
            ], relationships: [R(name: "author", destination: "Writer", toMany: false, storage: "ZAUTHOR")]),
            E(name: "GraphicNovel", number: 2, parent: "Book", table: "ZBOOK", count: 1, maxPrimaryKey: 0, attributes: [], relationships: []),
            E(name: "Feedback", number: 3, parent: nil, table: "ZFEEDBACK", count: 1, maxPrimaryKey: 1, attributes: [
                A(name: "rating", column: "ZRATING", type: "double"), A(name: "comment", column: "ZCOMMENT", type: "string"),
            ], relationships: [R(name: "writers", destination: "Writer", toMany: true, storage: "Z_3WRITERS")]),
            E(name: "Page", number: 4, parent: nil, table: "ZPAGE", count: 2, maxPrimaryKey: 2, attributes: [
                A(name: "number", column: "ZNUMBER", type: "int"), A(name: "text", column: "ZTEXT", type: "string"),
            ], relationships: [R(name: "book", destination: "Book", toMany: false, storage: "ZBOOK")]),
            E(name: "Writer", number: 5, parent: nil, table: "ZWRITER", count: 1, maxPrimaryKey: 2, attributes: [
                A(name: "name", column: "ZNAME", type: "string"),
            ], relationships: [R(name: "feedbacks", destination: "Feedback", toMany: true, storage: "Z_3WRITERS")]),
            E(name: "Author", number: 6, parent: "Writer", table: "ZWRITER", count: 1, maxPrimaryKey: 0, attributes: [], relationships: []),
        ]
        expected[0].constraints = [["uniqueID"]]  // its unique index is its uniqueness constraint
        #expect(inspection.entities == expected)
        let history = try #require(inspection.history)
        #expect(history.transactions == 2 && history.changes == 4)
        #expect((history.inserts, history.updates, history.deletes) == (2, 1, 1))
        #expect(history.authors == [.init(name: nil, transactions: 1), .init(name: "app", transactions: 1)])
        #expect(history.bundleIdentifiers.map(\.name) == ["com.example.books", "com.example.books.share"])
        #expect(history.processes.map(\.name) == ["Books", "BooksShare"])
        #expect(history.oldestToken == 2 && history.newestToken == 3)
        #expect(history.first == Date(timeIntervalSinceReferenceDate: 700000000.25))
        #expect(history.last == Date(timeIntervalSinceReferenceDate: 700000100.5))
        #expect(inspection.files.wal != nil)
        // Purged once (the oldest token is 2), every entity hashed, the -wal here: nothing wrong.
        #expect(inspection.problems == [])
        withExtendedLifetime(writer) {}
    }

    /// The model read off that store opens it: the sub-entities' rows come with a fetch of their parent,
    /// each as its own entity, and a to-one into the family hands out the entity its `Z1_BOOK` names.
    @Test func aCoreDataStoreWithSubEntitiesOpensWithTheModelItsSchemaShows() throws {
        let directory = try TemporaryDirectory(prefix: "inspect")
        let url = directory.url.appendingPathComponent("Books.sqlite")
        try Self.coreDataStore(at: url, journal: "DELETE")
        let model = try StoreInspector.inspect(url).inferredModel()
        #expect(model.entities.map { "\($0.name):\($0.parent ?? "-")" }
            == ["Book:-", "GraphicNovel:Book", "Feedback:-", "Page:-", "Writer:-", "Author:Writer"])
        #expect(model.entity(named: "GraphicNovel")?.attributes.map(\.name) == model.entity(named: "Book")?.attributes.map(\.name))
        // Its unique index is on a binary column, which the language has no type for: no constraint.
        #expect(model.entity(named: "Book")?.attributes.contains(where: \.isUnique) == false)
        // A store Core Data wrote is only read unless asked: the default options open it read-only.
        let before = try Data(contentsOf: url)
        let store = try StoreCoordinator(url: url, model: try Model(model))
        #expect(store.readOnlyReason?.contains("written by Core Data") == true)
        let context = store.viewContext
        let books = try context.fetch(FetchRequest(entity: "Book", sort: "title"))
        #expect(books.map(\.entity).sorted() == ["Book", "Book", "GraphicNovel"])
        #expect(try context.fetch(FetchRequest(entity: "Book", includesSubentities: false)).count == 2)
        let pages = try context.fetch(FetchRequest(entity: "Page", sort: "text"))
        #expect(try pages.map { try context.relatedObjects(of: $0, via: "book").map(\.entity) } == [["Book"], ["GraphicNovel"]])
        _ = try context.insert("GraphicNovel", values: ["title": "Maus"])
        #expect { try context.save() } throws: { error in
            (error as? SaveError).map { $0.code == .readOnly && $0.reason != nil && ErrorKind($0) == .readOnly } ?? false
        }
        store.close()
        #expect(try Data(contentsOf: url) == before, "looking at a device's store never changes it")
        // Asked to, a process writes it (the runner does, to its copies).
        var options = StoreOptions(historyTracking: true)  // the store has history: Core Data's rule
        options.writesForeignStores = true
        let writer = try StoreCoordinator(url: url, model: try Model(model), options: options)
        _ = try writer.viewContext.insert("GraphicNovel", values: ["title": "Maus"])
        #expect(try writer.viewContext.save().permanentIDs.first?.value.primaryKey == 5, "after Book's Z_MAX 4")
    }

    /// A store's unique indexes are uniqueness constraints of the model read off its schema (an import's
    /// skeleton declared none): one attribute's on the attribute, several attributes' on the entity, and a
    /// sub-entity has its parent's.
    @Test func uniqueIndexesAreTheInferredModelsConstraints() throws {
        let directory = try TemporaryDirectory(prefix: "inspect")
        let url = directory.url.appendingPathComponent("Tags.sqlite")
        let written = ModelDescription(entities: [
            EntityDescription(name: "Tag", attributes: [
                AttributeDescription(name: "name", type: .string, isUnique: true),
                AttributeDescription(name: "code", type: .int), AttributeDescription(name: "list", type: .string),
            ], uniquenessConstraints: [["code", "list"]]),
            EntityDescription(name: "Label", parent: "Tag"),
        ]).inheriting()
        do { _ = try StoreCoordinator(url: url, model: try Model(written)) }
        // Without the model SharedStore keeps, as in a store Core Data wrote: the schema alone tells.
        do { try SQLiteConnection(path: url.path).execute("DROP TABLE Z_MODELCACHE") }
        let model = try StoreInspector.inspect(url).inferredModel()
        for entity in ["Tag", "Label"] {
            #expect(model.entity(named: entity)?.attributes.filter(\.isUnique).map(\.name) == ["name"], "\(entity)")
            #expect(model.entity(named: entity)?.uniquenessConstraints == [["code", "list"]], "\(entity)")
        }
    }

    /// A sub-entity's to-one lives in its root's table, where the schema does not tell where it points:
    /// in a store GroupSim wrote, the model it keeps does (`inspect` said "destination unknown" while
    /// `import`, reading the kept model, knew it).
    @Test func aSubEntitysToOneTakesItsDestinationFromTheKeptModel() throws {
        let directory = try TemporaryDirectory(prefix: "inspect")
        let url = directory.url.appendingPathComponent("Cars.sqlite")
        let model = ModelDescription(entities: [
            EntityDescription(name: "Person", attributes: [AttributeDescription(name: "fullName", type: .string)]),
            EntityDescription(name: "Vehicle", attributes: [AttributeDescription(name: "plate", type: .string)]),
            EntityDescription(name: "Car", relationships: [RelationshipDescription(name: "driver", destination: "Person", isToMany: false)],
                              parent: "Vehicle"),
        ]).inheriting()
        do { _ = try StoreCoordinator(url: url, model: try Model(model)) }
        let inspection = try StoreInspector.inspect(url)
        let driver = inspection.entities.first { $0.name == "Vehicle" }?.relationships.first { $0.name == "driver" }
        #expect(driver?.destination == "Person", "\(inspection.entities)")
    }

    @Test func aStoreCopiedWithoutItsWALSaysCommitsMayBeMissing() throws {
        let directory = try TemporaryDirectory(prefix: "inspect")
        let url = directory.url.appendingPathComponent("Books.sqlite")
        try Self.coreDataStore(at: url, journal: "DELETE")
        _ = FileManager.default.createFile(atPath: url.path + "-shm", contents: Data(count: 32768))
        let inspection = try StoreInspector.inspect(url)
        #expect(inspection.files.wal == nil && inspection.files.shm == 32768)
        #expect(inspection.problems.count == 1)
        #expect(inspection.problems.first?.contains("the -shm file is here but the -wal is not") == true)
        #expect(inspection.problems.first?.contains("Book: keys up to 4 handed out, 3 rows") == true, "\(inspection.problems)")
    }

    @Test func aGroupSimStoreIsReadToo() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open(history: true, bundle: "share")
        let note = try store.viewContext.insert("Note", values: ["title": "A"])
        let tag = try store.viewContext.insert("Tag", values: ["name": "t"])
        try store.viewContext.relate(note, to: tag, via: "tags")
        try store.viewContext.save()
        let inspection = try StoreInspector.inspect(fixture.url)
        #expect(inspection.layout == .groupsim && inspection.identifier == store.storeIdentifier)
        #expect(inspection.entities.map(\.name) == ["Note", "Tag"])
        #expect(inspection.entities.map(\.count) == [1, 1])
        #expect(inspection.entities[1].relationships == [
            StoreInspection.Relationship(name: "note", destination: "Note", toMany: false, storage: "ZNOTE")])
        #expect(inspection.history?.transactions == 1 && inspection.history?.changes == 2)
        #expect(inspection.history?.authors == [.init(name: nil, transactions: 1)])
        #expect(inspection.history?.bundleIdentifiers == [.init(name: "share", transactions: 1)])
        #expect(!inspection.problems.contains { $0.hasPrefix("history was never purged") },
                "two changes for two objects: a store's first save is no finding")
    }

    /// What the schema alone cannot tell, a GroupSim store's kept model does (names' case), and the unique
    /// indexes name the constraints.
    @Test func namesAndConstraintsAreSpelledAsTheModelHasThem() throws {
        let model = ModelDescription(entities: [
            EntityDescription(name: "Car", attributes: [
                AttributeDescription(name: "numberPlate", type: .string, isUnique: true),
                AttributeDescription(name: "modelYear", type: .int),
                AttributeDescription(name: "colorName", type: .string),
            ], uniquenessConstraints: [["modelYear", "colorName"]]),
        ])
        let fixture = try StoreFixture(model: try Model(model))
        let store = try fixture.open(history: true)
        for plate in ["A1", "B2"] {
            _ = try store.viewContext.insert("Car", values: ["numberPlate": .string(plate), "modelYear": 2020, "colorName": .string(plate)])
        }
        try store.viewContext.save()
        let car = try #require(try StoreInspector.inspect(fixture.url).entities.first)
        #expect(car.attributes.map(\.name) == ["numberPlate", "modelYear", "colorName"])
        #expect(Set(car.constraints) == [["numberPlate"], ["modelYear", "colorName"]])
    }

    @Test func aFIFOBesideTheStoreIsRefusedInsteadOfCopiedForever() throws {
        let directory = try TemporaryDirectory(prefix: "inspect")
        let url = directory.url.appendingPathComponent("Books.sqlite")
        try Self.coreDataStore(at: url, journal: "DELETE")
        #expect(mkfifo(url.path + "-wal", 0o600) == 0)
        #expect {
            _ = try StoreInspector.inspect(url)
        } throws: { error in
            guard let error = error as? StoreError, error.code == .file, let reason = error.reason else { return false }
            return "\(error)".hasSuffix("Books.sqlite-wal: " + reason)
                && reason.contains("Books.sqlite-wal is not a regular file")
        }
    }

    @Test func aFileThatIsNoStoreIsRefusedWithItsPath() throws {
        let directory = try TemporaryDirectory(prefix: "inspect")
        let url = directory.url.appendingPathComponent("notes.txt")
        try Data("not a database".utf8).write(to: url)
        #expect(throws: StoreError.self) { _ = try StoreInspector.inspect(url) }
        #expect(throws: StoreError.self) { _ = try StoreInspector.inspect(directory.url.appendingPathComponent("missing.sqlite")) }
    }
}
