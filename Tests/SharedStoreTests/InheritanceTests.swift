import Basics
import Foundation
import SharedStore
import Testing
import TestSupport

/// Sub-entities as Core Data stores them: in their root's table, told apart by `Z_ENT`, keyed from the
/// root's `Z_PRIMARYKEY` row, a to-one into them with a `Z<n>_` companion column; fetched with their
/// parent, related through its relationships.
@Suite struct InheritanceTests {
    /// Author 1; Book 2 with sub-entity GraphicNovel 3 (and its abstract-free sibling Magazine 4); Page 5
    /// whose `book` may hold any kind of Book.
    static let declared = ModelDescription(entities: [
        EntityDescription(name: "Book", attributes: [AttributeDescription(name: "title", type: .string)],
                          relationships: [RelationshipDescription(name: "author", destination: "Author", isToMany: false)]),
        EntityDescription(name: "GraphicNovel", attributes: [AttributeDescription(name: "artist", type: .string, isOptional: true)],
                          parent: "Book"),
        EntityDescription(name: "Magazine", attributes: [AttributeDescription(name: "issue", type: .int)], parent: "Book"),
        EntityDescription(name: "Author", attributes: [AttributeDescription(name: "name", type: .string)],
                          relationships: [RelationshipDescription(name: "books", destination: "Book", isToMany: true)]),
        EntityDescription(name: "Page", attributes: [AttributeDescription(name: "number", type: .int)],
                          relationships: [RelationshipDescription(name: "book", destination: "Book", isToMany: false)]),
    ])

    private func rows(_ url: URL, _ sql: String) throws -> [[Value]] {
        let db = try SQLiteConnection(path: url.path, readOnly: true)
        let statement = try db.prepare(sql)
        var result: [[Value]] = []
        while try statement.step() { result.append((0..<statement.columnCount).map { statement.value(at: $0) }) }
        return result
    }

    @Test func subEntitiesLiveInTheirRootsTableAsCoreDataNumbersThem() throws {
        let fixture = try StoreFixture(model: try Model(Self.declared.inheriting()))
        let store = try fixture.open()
        let context = store.viewContext
        let author = try context.insert("Author", values: ["name": "Moore"])
        let novel = try context.insert("GraphicNovel", values: ["title": "Watchmen", "artist": "Gibbons"])
        let book = try context.insert("Book", values: ["title": "Dune"])
        let page = try context.insert("Page", values: ["number": 1])
        try context.relate(novel, to: author, via: "author")
        try context.relate(page, to: novel, via: "book")
        let saved = try context.save()
        let novelID = try #require(saved.permanentIDs[novel])
        #expect(novelID.entity == "GraphicNovel")

        #expect(try rows(fixture.url, "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT") == [
            [.int(1), .string("Author"), .int(0)], [.int(2), .string("Book"), .int(0)],
            [.int(3), .string("GraphicNovel"), .int(2)], [.int(4), .string("Magazine"), .int(2)],
            [.int(5), .string("Page"), .int(0)],
        ])
        // One table for the family, keys from the root's row, sub-entities' columns in it.
        #expect(try rows(fixture.url, "SELECT Z_ENT, ZTITLE, ZARTIST, ZISSUE FROM ZBOOK ORDER BY Z_ENT DESC") == [
            [.int(3), .string("Watchmen"), .string("Gibbons"), .null], [.int(2), .string("Dune"), .null, .null],
        ])
        #expect(try rows(fixture.url, "SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT IN (2, 3)") == [[.int(2), .int(2)], [.int(3), .int(0)]])
        #expect(try rows(fixture.url, "SELECT name FROM sqlite_master WHERE name IN ('ZGRAPHICNOVEL', 'ZBOOK_Z_ENT_INDEX')")
            == [[.string("ZBOOK_Z_ENT_INDEX")]])
        // The to-one into the family stores its target's entity beside its key.
        #expect(try rows(fixture.url, "SELECT ZBOOK, Z2_BOOK FROM ZPAGE") == [[.int(novelID.primaryKey), .int(3)]])
        _ = book

        // Another process: a fetch of Book finds both kinds, each as its own entity; a fetch of a
        // sub-entity only its own; a predicate on an inherited attribute works.
        let other = try fixture.open().viewContext
        let books = try other.fetch(FetchRequest(entity: "Book", sort: "title"))
        #expect(books.map(\.entity) == ["Book", "GraphicNovel"])
        #expect(try other.value("artist", of: books[1]) == .string("Gibbons"))
        #expect(try other.fetch(FetchRequest(entity: "GraphicNovel")).map(\.primaryKey) == [novelID.primaryKey])
        #expect(try other.fetch(FetchRequest(entity: "GraphicNovel", predicate: "title == 'Dune'")).isEmpty)
        #expect(try other.fetch(FetchRequest(entity: "Magazine")).isEmpty)
        // Relationships hand out objects of their own entity.
        let pages = try other.fetch(FetchRequest(entity: "Page"))
        #expect(try other.relatedObjects(of: pages[0], via: "book") == [novelID])
        let authors = try other.fetch(FetchRequest(entity: "Author"))
        #expect(try other.relatedObjects(of: authors[0], via: "books") == [novelID])
        #expect(try other.fetch(FetchRequest(entity: "Page", predicate: "book.title == 'Watchmen'")).count == 1)
    }

    @Test func anEditOfAnInheritedRelationshipMovesTheObjectBetweenOwners() throws {
        let fixture = try StoreFixture(model: try Model(Self.declared.inheriting()))
        let context = try fixture.open().viewContext
        let first = try context.insert("Author", values: ["name": "A"])
        let second = try context.insert("Author", values: ["name": "B"])
        let novel = try context.insert("GraphicNovel", values: ["title": "T"])
        try context.relate(first, to: novel, via: "books")
        try context.relate(second, to: novel, via: "books")
        #expect(try context.relatedObjects(of: first, via: "books").isEmpty)
        #expect(try context.relatedObjects(of: second, via: "books") == [novel])
        let saved = try context.save()
        let other = try fixture.open().viewContext
        let novelID = try #require(saved.permanentIDs[novel])
        #expect(try other.relatedObjects(of: novelID, via: "author") == [try #require(saved.permanentIDs[second])])
        // Deleting the novel clears the author's to-many (nullify through the inherited inverse).
        try other.delete(novelID)
        try other.save()
        #expect(try fixture.open().viewContext.relatedObjects(of: try #require(saved.permanentIDs[second]), via: "books").isEmpty)
    }

    @Test func anAbstractEntityHasNoObjectsOfItsOwn() throws {
        var declared = Self.declared
        declared.entities[0].isAbstract = true
        let fixture = try StoreFixture(model: try Model(declared.inheriting()))
        let context = try fixture.open().viewContext
        #expect(throws: StoreError.self) { try context.insert("Book", values: ["title": "x"]) }
        #expect(throws: StoreError.self) { try context.insert(try fixture.model.entityKey("Book")) }
        _ = try context.insert("Magazine", values: ["title": "Wired", "issue": 3])
        try context.save()
        #expect(try context.fetch(FetchRequest(entity: "Book")).map(\.entity) == ["Magazine"])
    }

    @Test func batchesAndChildContextsKeepToTheEntitysKinds() throws {
        let fixture = try StoreFixture(model: try Model(Self.declared.inheriting()))
        let store = try fixture.open(history: true)
        let novels = try store.batchInsert("GraphicNovel", objects: [["title": "A"], ["title": "B"]])
        let magazine = try store.batchInsert("Magazine", objects: [["title": "C", "issue": 1]])
        #expect(novels.map(\.entity) == ["GraphicNovel", "GraphicNovel"] && Set(novels.map(\.primaryKey)).isDisjoint(with: magazine.map(\.primaryKey)),
                "one key space for the family")
        // A leaf sub-entity's batch touches its own rows only.
        #expect(try store.batchUpdate("GraphicNovel", values: ["title": "X"]).count == 2)
        let context = store.viewContext
        #expect(try context.fetch(FetchRequest(entity: "Magazine")).map { try context.value("title", of: $0) } == [.string("C")])

        // A child context's fetch of the parent entity runs through its parent, kinds and unsaved inserts included.
        let child = context.newChildContext(name: "editor")
        _ = try child.insert("Magazine", values: ["title": "D", "issue": 2])
        let found = try child.fetch(FetchRequest(entity: "Book"))
        #expect(found.map(\.entity).sorted() == ["GraphicNovel", "GraphicNovel", "Magazine", "Magazine"])
        try child.save()
        try context.save()
        #expect(try fixture.open().viewContext.fetch(FetchRequest(entity: "Magazine")).count == 2)
    }

    /// `NSBatchUpdateRequest` and `NSBatchDeleteRequest` on a parent entity reach its sub-entities' rows
    /// (`includesSubentities` is true by default), each named by its own entity in the result and in history.
    @Test func aBatchOnAParentEntityReachesEveryKind() throws {
        let fixture = try StoreFixture(model: try Model(Self.declared.inheriting()))
        let store = try fixture.open(history: true)
        let novel = try store.batchInsert("GraphicNovel", objects: [["title": "A"]])
        let magazine = try store.batchInsert("Magazine", objects: [["title": "B", "issue": 1]])
        let book = try store.batchInsert("Book", objects: [["title": "C"]])
        let author = try store.batchInsert("Author", objects: [["name": "Kept"]])
        let before = try store.latestHistoryToken()

        let updated = try store.batchUpdate("Book", where: "title != 'C'", values: ["title": "X"])
        #expect(updated == novel + magazine, "the kinds' rows, each under its own entity")
        let reader = try fixture.open()
        #expect(try reader.viewContext.fetch(FetchRequest(entity: "Book")).map { try reader.viewContext.value("title", of: $0) }
            .sorted { "\($0)" < "\($1)" } == [.string("C"), .string("X"), .string("X")])

        let deleted = try store.batchDelete("Book", where: "title == 'X'")
        #expect(Set(deleted) == Set(novel + magazine))
        #expect(try rows(fixture.url, "SELECT Z_PK FROM ZBOOK").map { $0[0] } == book.map { .int($0.primaryKey) })
        #expect(try rows(fixture.url, "SELECT count(*) FROM ZAUTHOR") == [[.int(1)]], "another table untouched: \(author)")

        let history = try store.fetchHistory(after: before)
        let changes = history.transactions.flatMap(\.changes)
        #expect(changes.map(\.object.entity) == ["GraphicNovel", "Magazine", "GraphicNovel", "Magazine"])
        #expect(changes.map(\.operation) == [.update, .update, .delete, .delete])
        #expect(try rows(fixture.url, "SELECT DISTINCT ZENTITY FROM ACHANGE WHERE ZCHANGETYPE = 2 ORDER BY 1")
            == [[.int(3)], [.int(4)]], "history's ZENTITY is each row's own Z_ENT")
    }

    /// Review findings: each would write a wrong key, a wrong companion or a wrong ID.
    @Test func keysAndIDsStayRightAcrossTheFamily() throws {
        var declared = Self.declared
        declared.entities[0].relationships.append(RelationshipDescription(name: "sequel", destination: "Book", isToMany: false))
        let model = try Model(declared.inheriting())
        let fixture = try StoreFixture(model: model)
        let store = try fixture.open()
        let context = store.viewContext
        // A to-one within the family keeps its target's entity in its companion (the subquery reads the
        // same table it updates).
        let dune = try context.insert("Book", values: ["title": "Dune"])
        let novel = try context.insert("GraphicNovel", values: ["title": "Watchmen"])
        try context.relate(novel, to: dune, via: "sequel")
        try context.relate(dune, to: novel, via: "sequel")
        // An unsaved sub-entity insert deleted before the save leaves no temporary key behind.
        let page = try context.insert("Page", values: ["number": 1])
        let gone = try context.insert("GraphicNovel", values: ["title": "Draft"])
        try context.relate(page, to: gone, via: "book")
        try context.delete(gone)
        // A child reads its parent's unsaved sub-entity insert through a relationship as that entity.
        let other = try context.insert("Page", values: ["number": 2])
        try context.relate(other, to: novel, via: "book")
        let child = context.newChildContext(name: "editor")
        #expect(try child.relatedObjects(of: other, via: "book") == [novel])
        #expect(try child.value("title", of: try #require(child.relatedObjects(of: other, via: "book").first)) == .string("Watchmen"))
        let saved = try context.save()
        let novelID = try #require(saved.permanentIDs[novel])
        #expect(try rows(fixture.url, "SELECT ZTITLE, ZSEQUEL IS NOT NULL, Z2_SEQUEL FROM ZBOOK ORDER BY ZTITLE") == [
            [.string("Dune"), .int(1), .int(3)], [.string("Watchmen"), .int(1), .int(2)],
        ])
        #expect(try rows(fixture.url, "SELECT ZNUMBER, ZBOOK, Z2_BOOK FROM ZPAGE ORDER BY ZNUMBER") == [
            [.int(1), .null, .null], [.int(2), .int(novelID.primaryKey), .int(3)],
        ])
        // An ID naming the parent entity for a sub-entity's row finds nothing.
        let reader = try fixture.open().viewContext
        reader.shouldDeleteInaccessibleFaults = false
        let wrong = try store.objectID(entity: "Book", primaryKey: novelID.primaryKey)
        #expect(throws: StoreError.self) { try reader.value("title", of: wrong) }
        // A parent's attribute key reads a sub-entity's object; an abstract entity's key inserts nothing.
        #expect(try reader.value(try model.attributeKey("title", of: "Book"), of: novelID) == .string("Watchmen"))
    }

    /// A batch delete that nullifies a to-one into a family clears its companion with its key, as a save
    /// that sets the to-one to nil does.
    @Test func aBatchDeleteClearsAToOnesCompanionWithItsKey() throws {
        let fixture = try StoreFixture(model: try Model(ModelDescription(entities: [
            EntityDescription(name: "Book", attributes: [AttributeDescription(name: "title", type: .string)],
                              relationships: [RelationshipDescription(name: "pages", destination: "Page", isToMany: true, inverse: "book")]),
            EntityDescription(name: "GraphicNovel", attributes: [], parent: "Book"),
            EntityDescription(name: "Page", attributes: [AttributeDescription(name: "number", type: .int)],
                              relationships: [RelationshipDescription(name: "book", destination: "Book", isToMany: false)]),
        ]).inheriting()))
        let store = try fixture.open()
        let context = store.viewContext
        let novel = try context.insert("GraphicNovel", values: ["title": "Watchmen"])
        let page = try context.insert("Page", values: ["number": 1])
        try context.relate(page, to: novel, via: "book")
        try context.save()
        #expect(try rows(fixture.url, "SELECT ZBOOK IS NOT NULL, Z1_BOOK FROM ZPAGE") == [[.int(1), .int(2)]])
        try store.batchDelete("Book", where: nil)
        #expect(try rows(fixture.url, "SELECT ZBOOK, Z1_BOOK, Z_OPT FROM ZPAGE") == [[.null, .null, .int(2)]])
    }

    @Test func keysComeAfterTheHighestOfTheFamily() throws {
        let fixture = try StoreFixture(model: try Model(Self.declared.inheriting()))
        let store = try fixture.open()
        _ = try store.viewContext.insert("Book", values: ["title": "x"])
        try store.viewContext.save()
        // A store whose Z_MAX was kept on a sub-entity's row (not as SharedStore keeps it).
        let db = try SQLiteConnection(path: fixture.url.path)
        try db.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 40 WHERE Z_NAME = 'GraphicNovel'")
        db.close()
        let context = try fixture.open().viewContext
        let novel = try context.insert("GraphicNovel", values: ["title": "y"])
        #expect(try context.save().permanentIDs[novel]?.primaryKey == 41)
    }

    @Test func aModelWithSubEntitiesIsNotMigratedYet() throws {
        let fixture = try StoreFixture(model: try Model(Self.declared.inheriting()))
        _ = try fixture.open().viewContext.insert("Book", values: ["title": "x"])
        var next = Self.declared
        next.entities[0].attributes.append(AttributeDescription(name: "isbn", type: .string, isOptional: true))
        var options = StoreOptions()
        options.previousModels = [try Model(Self.declared.inheriting())]
        do {
            _ = try StoreCoordinator(url: fixture.url, model: try Model(next.inheriting()), options: options)
            Issue.record("a store with sub-entities was migrated")
        } catch {
            #expect("\(error)".contains("does not migrate stores with entity inheritance"), "\(error)")
        }
    }

    @Test func modelsWithBrokenInheritanceAreRefused() throws {
        var missing = Self.declared
        missing.entities[1].parent = "Comic"
        #expect(throws: ModelError.self) { try Model(missing.inheriting()) }
        var loop = Self.declared
        loop.entities[0].parent = "GraphicNovel"
        #expect(throws: ModelError.self) { try Model(loop) }
        // Declared-only properties (not inheriting()) are refused: a sub-entity lists its parent's first.
        #expect(throws: ModelError.self) { try Model(Self.declared) }
        var clash = Self.declared
        clash.entities[2].attributes.append(AttributeDescription(name: "artist", type: .string))
        #expect(throws: ModelError.self) { try Model(clash.inheriting()) }
    }
}
