import Basics
import Checkers
import Foundation
import Runner
import ScenarioModel
import SharedStore
import Testing
import TestSupport
import Trace

/// `store: { from: }`: runs that start from a store file Core Data wrote, its model read off its schema.
@Suite(.serialized, .spawnsProcesses) struct StoreFromFileTests {
    /// A store in Core Data's layout, built with plain SQL from Docs/SharedStore.md ("The file"): Folder 1 and Note 2 (a
    /// to-one `folder`), Note 2 <-> Tag 3 in a join table, history with interned strings and one token
    /// purged, a binary property list with Core Data's (not SharedStore's) hashes, in WAL mode with its
    /// `-wal` (the connection stays open until the test ends).
    static func deviceStore(at url: URL) throws -> SQLiteConnection {
        let db = try SQLiteConnection(path: url.path, walMode: false)
        try db.execute("PRAGMA journal_mode=WAL")
        try db.execute("""
            \(CoreDataLayout.storeTables)
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Folder', 0, 1), (2, 'Note', 0, 3), (3, 'Tag', 0, 1),
              (16001, 'CHANGE', 0, 5), (16002, 'TRANSACTION', 0, 3), (16003, 'TRANSACTIONSTRING', 0, 3);
            CREATE TABLE ZFOLDER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
            CREATE TABLE ZNOTE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZRANK INTEGER, ZFOLDER INTEGER,
              ZCREATED TIMESTAMP, ZTITLE VARCHAR, ZPAYLOAD BLOB );
            CREATE INDEX ZNOTE_ZFOLDER_INDEX ON ZNOTE (ZFOLDER);
            CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
            CREATE TABLE Z_2TAGS ( Z_2NOTES INTEGER, Z_3TAGS INTEGER, PRIMARY KEY (Z_2NOTES, Z_3TAGS) );
            CREATE INDEX Z_2TAGS_Z_3TAGS_INDEX ON Z_2TAGS (Z_3TAGS, Z_2NOTES);
            INSERT INTO ZFOLDER VALUES (1, 1, 1, 'Inbox');
            INSERT INTO ZNOTE VALUES (1, 2, 3, 1, 1, 700000000.5, 'Groceries', NULL), (3, 2, 1, 2, NULL, NULL, 'Trip', X'00');
            INSERT INTO ZTAG VALUES (1, 3, 1, 'home');
            INSERT INTO Z_2TAGS VALUES (1, 1);
            \(CoreDataLayout.historyTables)
            INSERT INTO ATRANSACTIONSTRING VALUES (1, 16003, 1, 'app'), (2, 16003, 1, 'com.example.notes'), (3, 16003, 1, 'Notes');
            INSERT INTO ATRANSACTION VALUES
              (2, 16002, 1, 1, 2, NULL, 3, 700000000.25, NULL, NULL, NULL, NULL, NULL),
              (3, 16002, 1, NULL, 2, NULL, 3, 700000100.5, NULL, NULL, NULL, NULL, NULL);
            INSERT INTO ACHANGE VALUES (1, 16001, 1, 0, 1, 1, 2, NULL), (2, 16001, 1, 0, 2, 1, 2, NULL),
              (3, 16001, 1, 0, 3, 1, 2, NULL), (4, 16001, 1, 1, 2, 1, 3, X'10'), (5, 16001, 1, 0, 2, 3, 3, NULL);
            """)
        try db.execute(try CoreDataLayout.metadataRow(identifier: "F0E1D2C3-B4A5-4968-8776-655443322110", entities: ["Folder", "Note", "Tag"]))
        return db
    }

    /// The errors (`line:column: message`) of a one-step scenario whose store is `{ group: group.t, name:
    /// Notes, <store> }`.
    static func validationErrors(store: String) -> [String] {
        let yaml = """
            summary: x
            store: { group: group.t, name: Notes, \(store) }
            processes: { app: { role: host } }
            steps:
              - app: launch
            """
        do { _ = try ScenarioLoader.parse(yaml: yaml, file: "test.yaml"); return [] } catch {
            return error.errors.map { "\($0.line):\($0.column): \($0.message)" }
        }
    }

    static func yaml(_ store: URL) -> String {
        """
        summary: The app and its share extension start from a store taken off a device.
        store:
          group: group.t
          name: Notes
          from:
            file: \(store.path)
            objects: { groceries: Note 1, trip: Note 3, inbox: Folder 1, home: Tag 1 }
        processes:
          app: { role: host, refresh: history }
          share: { role: share }
        steps:
          - app: launch
          - app: { fetch: Note }
          - app: { count: Note, expect: 2, now: true }
          - app: { read: groceries, expect: { title: Groceries, rank: 1, folder: inbox, tags: [home] }, now: true }
          - app: { count: Note, where: "ANY tags.name == 'home' AND folder.name == 'Inbox'", expect: 1, now: true }
          - share: launch
          - share: { update: trip, set: { title: Road trip } }
          - share: { insert: Note, id: n3, set: { title: New, rank: 3 } }
          - share: { relate: n3, to: inbox, via: folder }
          - share: save
          - share: exit
          - app: { read: trip, expect: { title: Road trip } }
          - app: { count: Note, expect: 3 }
          - app: { update: groceries, set: { rank: 9 } }
          - app: save
        """
    }

    @Test(arguments: RunMode.allCases)
    func aRunStartsFromADevicesStoreWithItsModelReadOffItsSchema(mode: RunMode) throws {
        let directory = try TemporaryDirectory(prefix: "from")
        let url = directory.url.appendingPathComponent("Notes.sqlite")
        let device = try Self.deviceStore(at: url)
        defer { device.close() }
        let before = try Data(contentsOf: url)
        // Through a symbolic link, as a store in Downloads often is: its target's bytes are copied, never written.
        let link = directory.url.appendingPathComponent("link/Notes.sqlite")
        try FileManager.default.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "../Notes.sqlite")
        let scenario = try ScenarioLoader.parse(yaml: Self.yaml(link), file: "test.yaml")
        let model = scenario.store.model
        #expect(model.entities.map(\.name) == ["Folder", "Note", "Tag"])
        #expect(model.entity(named: "Note")?.attributes.map(\.name) == ["rank", "created", "title"], "the BLOB column is left out")
        #expect(model.entity(named: "Note")?.relationships.map(\.name) == ["folder", "tags"])
        #expect(model.entity(named: "Tag")?.relationships.first?.inverse == "tags")

        let outcome = try RunHarness.single(Self.yaml(link), mode: mode)
        #expect(outcome.harnessError == nil, "\(String(describing: outcome.harnessError))")
        let result = TraceChecker.check(outcome.trace)
        #expect(result.verdict.matched, "\(result.anomalies.map(\.explanation))")
        #expect(outcome.trace.events.contains { event in
            if case .saveCommitted(let commit) = event.kind { return commit.source == .storeFile && commit.objects.count == 4 }
            return false
        }, "the file's four rows are one commit by the runner")
        #expect(!result.latency.pairs.contains { $0.writer == "runner" }, "the starting file propagates to nobody: no process wrote it")
        #expect(result.latency.pairs.contains { $0.writer == "share" && $0.reader == "app" })
        #expect(try Data(contentsOf: url) == before, "the device's file is never written")
    }

    /// The device's store is of the app's previous version: the updated app migrates it at launch.
    @Test(arguments: RunMode.allCases)
    func aDevicesStoreOfAnEarlierVersionIsMigrated(mode: RunMode) throws {
        let directory = try TemporaryDirectory(prefix: "from")
        let url = directory.url.appendingPathComponent("Notes.sqlite")
        let device = try Self.deviceStore(at: url)
        defer { device.close() }
        let yaml = """
            summary: The app's new version opens the store its old version left on the device.
            store:
              group: group.t
              name: Notes
              from: { file: \(url.path), objects: { groceries: Note 1 } }
              models:
                v1:
                  Folder: { name: string? }
                  Note: { rank: int?, created: date?, title: string?, folder: Folder?, tags: [Tag] }
                  Tag: { name: string?, notes: [Note] }
                v2:
                  Folder: { name: string? }
                  Note: { rank: int?, created: date?, title: string?, color: string?, folder: Folder?, tags: [Tag] }
                  Tag: { name: string?, notes: [Note] }
            processes:
              app: { role: host }
            steps:
              - app: launch
              - app: { fetch: Note }
              - app: { read: groceries, expect: { title: Groceries, color: null }, now: true }
              - app: { update: groceries, set: { color: red } }
              - app: save
            """
        let outcome = try RunHarness.single(yaml, mode: mode)
        #expect(outcome.harnessError == nil, "\(String(describing: outcome.harnessError))")
        let result = TraceChecker.check(outcome.trace)
        #expect(result.verdict.matched, "\(result.anomalies.map(\.explanation))")
        #expect(outcome.trace.events.contains { event in
            if case .saveCommitted(let commit) = event.kind { return commit.source == .migration }
            return false
        }, "the launch migrated the store")
    }

    /// A device's store whose folders were named before the model made `name` unique holds two "Inbox"
    /// rows and no unique index: the store opens (Core Data checks constraints at save), the rows stay,
    /// and the final store is judged against the constraint: a `constraint-violation`, named by both rows.
    /// A save of a third "Inbox" still meets the constraint (the save checks the rows, not the index).
    @Test(arguments: RunMode.allCases)
    func aDeviceStoreThatBreaksAConstraintItsModelDeclaresIsReported(mode: RunMode) throws {
        let directory = try TemporaryDirectory(prefix: "from")
        let url = directory.url.appendingPathComponent("Notes.sqlite")
        let device = try Self.deviceStore(at: url)
        defer { device.close() }
        try device.execute("INSERT INTO ZFOLDER VALUES (2, 1, 1, 'Inbox'); UPDATE Z_PRIMARYKEY SET Z_MAX = 2 WHERE Z_NAME = 'Folder'")
        let yaml = """
            summary: Two folders named Inbox, from before the constraint.
            store:
              group: group.t
              name: Notes
              from: { file: \(url.path), objects: { inbox: Folder 1, inbox2: Folder 2 } }
              model:
                Folder: { name: string? unique }
                Note: { rank: int?, created: date?, title: string?, folder: Folder?, tags: [Tag] }
                Tag: { name: string?, notes: [Note] }
            processes:
              app: { role: host }
            steps:
              - app: launch
              - app: { insert: Folder, id: third, set: { name: Inbox } }
              - app: { save: true, expect-error: conflict }
            expect: [constraint-violation]
            """
        let outcome = try RunHarness.single(yaml, mode: mode)
        #expect(outcome.harnessError == nil, "\(String(describing: outcome.harnessError))")
        #expect(outcome.trace.info.uniquenessConstraints == ["Folder": [["name"]]])
        let result = TraceChecker.check(outcome.trace)
        #expect(result.verdict.matched, "\(result.anomalies.map(\.explanation))")
        let found = result.anomalies.filter { $0.kind == .constraintViolation }
        #expect(found.count == 1)
        #expect(found.first?.explanation.contains("inbox, inbox2 all hold name = \"Inbox\"") == true, "\(found.map(\.explanation))")
    }

    /// The device's store is of the newest version: a process still on the previous one cannot load it
    /// (its schema holds a column the previous version lacks), as Core Data fails with 134100.
    @Test func aProcessOfAnEarlierVersionDoesNotLoadANewerDeviceStore() throws {
        let directory = try TemporaryDirectory(prefix: "from")
        let url = directory.url.appendingPathComponent("Notes.sqlite")
        let device = try Self.deviceStore(at: url)
        defer { device.close() }
        let yaml = """
            summary: The share extension still ships the previous model.
            store:
              group: group.t
              name: Notes
              from: \(url.path)
              models:
                v1:
                  Folder: { name: string? }
                  Note: { created: date?, title: string?, folder: Folder?, tags: [Tag] }
                  Tag: { name: string?, notes: [Note] }
                v2:
                  Folder: { name: string? }
                  Note: { rank: int?, created: date?, title: string?, folder: Folder?, tags: [Tag] }
                  Tag: { name: string?, notes: [Note] }
            processes:
              share: { role: share, model: v1, migrate: false }
            steps:
              - share: launch
            expect: [store-load-failed]
            """
        let outcome = try RunHarness.single(yaml)
        #expect(outcome.harnessError == nil, "\(String(describing: outcome.harnessError))")
        let result = TraceChecker.check(outcome.trace)
        #expect(result.verdict.matched, "\(result.anomalies.map(\.explanation))")
    }

    /// A store GroupSim wrote keeps its exact model: a scenario starting from it needs none.
    @Test func aStoreGroupSimWroteStartsARunWithItsOwnModel() throws {
        let directory = try TemporaryDirectory(prefix: "from")
        let url = directory.url.appendingPathComponent("Notes.sqlite")
        let model = ModelDescription(entities: [EntityDescription(name: "Note", attributes: [
            AttributeDescription(name: "title", type: .string), AttributeDescription(name: "done", type: .bool),
        ])])
        do {
            let store = try StoreCoordinator(url: url, model: try Model(model), options: StoreOptions(historyTracking: true))
            _ = try store.viewContext.insert("Note", values: ["title": "A", "done": true])
            try store.viewContext.save()
            store.close()
        }
        let yaml = """
            summary: From a store GroupSim wrote.
            store: { group: group.t, name: Notes, from: { file: \(url.path), objects: { n1: Note 1 } } }
            processes:
              app: { role: host }
            steps:
              - app: launch
              - app: { fetch: Note }
              - app: { read: n1, expect: { title: A, done: true }, now: true }
            """
        let scenario = try ScenarioLoader.parse(yaml: yaml, file: "test.yaml")
        #expect(scenario.store.model == model, "the model kept in Z_MODELCACHE, bool and required included")
        let outcome = try RunHarness.single(yaml)
        #expect(outcome.harnessError == nil, "\(String(describing: outcome.harnessError))")
        #expect(TraceChecker.check(outcome.trace).verdict.matched)
    }

    @Test func namesForRowsTheStoreLacksAndWhatCannotBeInferredAreErrorsAtTheirPlace() throws {
        let directory = try TemporaryDirectory(prefix: "from")
        let url = directory.url.appendingPathComponent("Notes.sqlite")
        let device = try Self.deviceStore(at: url)
        defer { device.close() }
        func errors(_ from: String) -> [String] { Self.validationErrors(store: "from: \(from)") }
        #expect(errors("{ file: \(url.path), objects: { n1: Note 2 } }").first?.contains("has no Note 2") == true)
        #expect(errors("{ file: \(url.path), objects: { n1: Nope 1 } }").first?.contains("no entity 'Nope'") == true)
        #expect(errors("{ file: \(url.path), objects: { n1: Note one } }").first?.contains("expected a row like Note 12") == true)
        #expect(errors("{ file: \(url.path), objects: { n1: Note 1, n2: Note 1 } }").first?.contains("named twice") == true)
        #expect(errors("missing.sqlite").first?.hasPrefix("2:") == true)
        #expect(errors("missing.sqlite").first?.contains("there is no store file at") == true)
        #expect(errors("{ file: missing.sqlite, objects: { n1: Note 1 } }").count == 1, "one missing file, one error")
        #expect(errors("\"\"") == ["2:45: from: needs the path of a .sqlite store file, like device/Notes.sqlite; it is empty."],
                "an empty path said so once (it fell through to 'no reason was found')")
        let mismatch = """
            summary: x
            store: { group: group.t, name: Notes, from: \(url.path), model: { Note: { title: string, color: string } } }
            processes: { app: { role: host } }
            steps:
              - app: launch
            """
        do {
            _ = try ScenarioLoader.parse(yaml: mismatch, file: "test.yaml")
            Issue.record("a model the file does not hold was accepted")
        } catch {
            #expect(error.errors.map(\.message) == ["the store at \(url.path) does not hold the model given: Z_PRIMARYKEY has no row 1 "
                + "for Note (SharedStore numbers entities from 1 in alphabetical order)."])
        }
        // Tag made a sub-entity of Folder: Core Data would number it 2, right after its parent.
        try device.execute("UPDATE Z_PRIMARYKEY SET Z_SUPER = 1 WHERE Z_ENT = 3")
        #expect(errors(url.path).first?.contains("not as Core Data and SharedStore number them") == true, "\(errors(url.path))")
    }

    /// A store with entity inheritance, as Docs/SharedStore.md ("The file") shows one: Book 1 and its sub-entity
    /// GraphicNovel 2 in one table `ZBOOK`, Page 3 whose to-one `book` keeps its target's entity in `Z1_BOOK`.
    static func inheritanceStore(at url: URL) throws -> SQLiteConnection {
        let db = try SQLiteConnection(path: url.path, walMode: false)
        try db.execute("PRAGMA journal_mode=WAL")
        try db.execute("""
            \(CoreDataLayout.storeTables)
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Book', 0, 2), (2, 'GraphicNovel', 1, 0), (3, 'Page', 0, 1);
            CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZARTIST VARCHAR, ZTITLE VARCHAR );
            CREATE INDEX ZBOOK_Z_ENT_INDEX ON ZBOOK (Z_ENT);
            CREATE TABLE ZPAGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNUMBER INTEGER, ZBOOK INTEGER, Z1_BOOK INTEGER );
            CREATE INDEX ZPAGE_ZBOOK_INDEX ON ZPAGE (ZBOOK);
            INSERT INTO ZBOOK VALUES (1, 1, 1, NULL, 'Dune'), (2, 2, 1, 'Gibbons', 'Watchmen');
            INSERT INTO ZPAGE VALUES (1, 3, 1, 1, 2, 2);
            """)
        try db.execute(try CoreDataLayout.metadataRow(identifier: "0A1B2C3D-4E5F-4061-8272-839405A6B7C8", entities: ["Book", "GraphicNovel", "Page"]))
        return db
    }

    /// What the store's inheritance says and a model does not is refused at validation, with its reason.
    @Test func aModelThatMisreadsTheStoresInheritanceIsRefused() throws {
        let directory = try TemporaryDirectory(prefix: "from")
        let url = directory.url.appendingPathComponent("Books.sqlite")
        let device = try Self.inheritanceStore(at: url)
        defer { device.close() }
        func errors(_ model: String) -> [String] { Self.validationErrors(store: "from: \(url.path), model: { \(model) }") }
        let page = "Page: { number: int?, book: Book? }"
        #expect(errors("Book: { artist: string?, title: string? }, GraphicNovel: { parent-entity: Book }, \(page)") == [])
        #expect(errors("Book: { artist: string?, title: string? }, GraphicNovel: { title: string? }, \(page)").first?
            .contains("row 2 GraphicNovel has Z_SUPER 1, and the model makes it a root entity (0)") == true)
        #expect(errors("Book: { abstract-entity: true, artist: string?, title: string? }, GraphicNovel: { parent-entity: Book }, \(page)")
            .first?.contains("ZBOOK holds rows of Book, which the model makes abstract") == true)
        // A row of no entity of the table is a problem inspect names.
        try device.execute("INSERT INTO ZBOOK VALUES (9, 7, 1, NULL, 'Stray')")
        #expect(try StoreInspector.inspect(url).problems.contains { $0.contains("ZBOOK has 1 row with Z_ENT 7, which is no entity stored in it") })
    }

    @Test(arguments: RunMode.allCases)
    func aRunStartsFromAStoreWithSubEntities(mode: RunMode) throws {
        let directory = try TemporaryDirectory(prefix: "from")
        let url = directory.url.appendingPathComponent("Books.sqlite")
        let device = try Self.inheritanceStore(at: url)
        defer { device.close() }
        let yaml = """
            summary: The app reads a graphic novel through a page, and sees the share extension's new one with its parent entity.
            store:
              group: group.t
              name: Books
              from: { file: \(url.path), objects: { dune: Book 1, watchmen: GraphicNovel 2, p1: Page 1 } }
            processes:
              app: { role: host }
              share: { role: share }
            steps:
              - app: launch
              - app: { fetch: Book }
              - app: { count: Book, expect: 2, now: true }
              - app: { count: GraphicNovel, expect: 1, now: true }
              - app: { count: Book, where: "artist == 'Gibbons'", expect: 1, now: true }
              - app: { read: watchmen, expect: { title: Watchmen, artist: Gibbons }, now: true }
              - app: { fetch: Page }
              - app: { read: p1, expect: { number: 1, book: watchmen }, now: true }
              - share: launch
              - share: { insert: GraphicNovel, id: maus, set: { title: Maus, artist: Spiegelman } }
              - share: { insert: Page, id: p2, set: { number: 2 } }
              - share: { relate: p2, to: maus, via: book }
              - share: { update: watchmen, set: { artist: Dave Gibbons } }
              - share: save
              - share: exit
              - app: { fetch: Book }
              - app: { count: Book, expect: 3, now: true }
              - app: refresh
              - app: { read: watchmen, expect: { artist: Dave Gibbons }, now: true }
              - app: { fetch: Page }
              - app: { read: p2, expect: { book: maus }, now: true }
            """
        let scenario = try ScenarioLoader.parse(yaml: yaml, file: "test.yaml")
        let model = scenario.store.model
        #expect(model.entities.map(\.name) == ["Book", "GraphicNovel", "Page"])
        #expect(model.entity(named: "GraphicNovel")?.parent == "Book")
        #expect(model.entity(named: "GraphicNovel")?.attributes.map(\.name) == ["artist", "title"], "the root's columns, inherited")
        #expect(model.entity(named: "Page")?.relationships.map(\.destination) == ["Book"])

        let outcome = try RunHarness.single(yaml, mode: mode)
        #expect(outcome.harnessError == nil, "\(String(describing: outcome.harnessError))")
        let result = TraceChecker.check(outcome.trace)
        #expect(result.verdict.matched, "\(result.anomalies.map(\.explanation))")
        #expect(outcome.trace.events.contains { event in
            if case .saveCommitted(let commit) = event.kind { return commit.source == .storeFile && commit.objects.count == 3 }
            return false
        }, "the file's three rows, of both kinds of book, are one commit by the runner")
    }
}
