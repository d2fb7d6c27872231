import Basics
import Foundation
import SharedStore
import Testing

/// What a uniqueness constraint covers beyond an insert meeting a row of its own entity, as Core Data's
/// unique index on the root table does: an update, a composite constraint, a constraint an abstract parent
/// declares, two inserts of one save, a batch insert (an upsert under a trump policy).
@Suite struct ConstraintCoverageTests {
    private static let tags = ModelDescription(entities: [
        EntityDescription(name: "Tag", attributes: [
            AttributeDescription(name: "name", type: .string, isUnique: true),
            AttributeDescription(name: "color", type: .string, isOptional: true),
        ]),
    ])
    private static let folders = ModelDescription(entities: [
        EntityDescription(name: "Note", attributes: [
            AttributeDescription(name: "name", type: .string),
            AttributeDescription(name: "folder", type: .string),
            AttributeDescription(name: "body", type: .string, isOptional: true),
        ], uniquenessConstraints: [["name", "folder"]]),
    ])
    private static let items = ModelDescription(entities: [
        EntityDescription(name: "Item", attributes: [AttributeDescription(name: "title", type: .string, isUnique: true)], isAbstract: true),
        EntityDescription(name: "Book", parent: "Item"),
        EntityDescription(name: "Magazine", parent: "Item"),
    ]).inheriting()

    private func rows(_ fixture: StoreFixture, _ entity: String) throws -> [[String: Value]] {
        let reader = try fixture.open().newBackgroundContext(name: "check")
        return try reader.fetch(FetchRequest(entity: entity)).map { try reader.values(of: $0) }
    }

    private func failure(_ result: Result<SaveResult, SaveError>) -> [SaveConflict]? {
        if case .failure(let error) = result, error.code == .conflicts { return error.conflicts }
        return nil
    }

    @Test func theStoreHasCoreDatasUniqueIndexes() throws {
        let fixture = try StoreFixture(model: Model(Self.folders))
        _ = try fixture.open()
        let db = try SQLiteConnection(path: fixture.url.path, readOnly: true)
        let statement = try db.prepare("SELECT sql FROM sqlite_master WHERE name = 'Z_Note_UNIQUE_name_folder'")
        #expect(try statement.step())
        #expect(statement.value(at: 0).stringValue?.contains("UNIQUE INDEX") == true)
    }

    @Test func renamingAnObjectToATakenValueIsAConstraintConflict() throws {
        let fixture = try StoreFixture(model: Model(Self.tags))
        let app = try fixture.open().viewContext
        let home = try app.insert("Tag", values: ["name": "Home"])
        let work = try app.insert("Tag", values: ["name": "Work"])
        let ids = try app.save().permanentIDs
        try app.setValue("Home", forKey: "name", of: ids[work]!)
        let conflicts = failure(Result { () throws(SaveError) in try app.save() })
        #expect(conflicts?.count == 1)
        #expect(conflicts?.first?.constraint == "name" && conflicts?.first?.existingObject == ids[home])
        #expect(try rows(fixture, "Tag").compactMap { $0["name"]?.stringValue }.sorted() == ["Home", "Work"], "nothing written")
    }

    @Test func aValueTheSaveFreesIsFreeForItsUpdates() throws {
        let fixture = try StoreFixture(model: Model(Self.tags))
        let app = try fixture.open().viewContext
        let home = try app.insert("Tag", values: ["name": "Home"])
        let work = try app.insert("Tag", values: ["name": "Work"])
        let ids = try app.save().permanentIDs
        try app.delete(ids[home]!)
        try app.setValue("Home", forKey: "name", of: ids[work]!)
        _ = try app.save()
        #expect(try rows(fixture, "Tag").compactMap { $0["name"]?.stringValue } == ["Home"])
    }

    @Test func aCompositeConstraintConflictsOnlyWhenEveryValueMatches() throws {
        let fixture = try StoreFixture(model: Model(Self.folders))
        let app = try fixture.open().viewContext
        _ = try app.insert("Note", values: ["name": "Milk", "folder": "Shopping", "body": "one"])
        _ = try app.save()
        let share = try fixture.open().viewContext
        _ = try share.insert("Note", values: ["name": "Milk", "folder": "Work"])
        _ = try share.save()
        _ = try share.insert("Note", values: ["name": "Milk", "folder": "Shopping", "body": "two"])
        let conflicts = failure(Result { () throws(SaveError) in try share.save() })
        #expect(conflicts?.first?.constraint == "name, folder")
        share.rollback()
        share.mergePolicy = .objectTrump
        _ = try share.insert("Note", values: ["name": "Milk", "folder": "Shopping", "body": "two"])
        _ = try share.save()
        let bodies = try rows(fixture, "Note").filter { $0["folder"] == "Shopping" }.map { $0["body"] }
        #expect(bodies == ["two"], "an upsert onto the row holding both values")
    }

    @Test(arguments: [MergePolicy.error, .objectTrump, .storeTrump])
    func aConstraintOfAnAbstractParentCoversEverySubEntity(policy: MergePolicy) throws {
        let fixture = try StoreFixture(model: Model(Self.items))
        let app = try fixture.open().viewContext
        _ = try app.insert("Book", values: ["title": "Dune"])
        _ = try app.save()
        let share = try fixture.open().viewContext
        share.mergePolicy = policy
        _ = try share.insert("Magazine", values: ["title": "Dune"])
        let conflicts = failure(Result { () throws(SaveError) in try share.save() })
        #expect(conflicts?.first?.constraint == "title", "a Magazine cannot become the Book's row")
        #expect(try rows(fixture, "Item").count == 1)
    }

    @Test func twoInsertsOfOneSaveWithOneValueConflict() throws {
        let fixture = try StoreFixture(model: Model(Self.tags))
        let app = try fixture.open().viewContext
        _ = try app.insert("Tag", values: ["name": "Home"])
        _ = try app.insert("Tag", values: ["name": "Home"])
        #expect(failure(Result { () throws(SaveError) in try app.save() })?.first?.constraint == "name")
        #expect(try rows(fixture, "Tag").isEmpty)
    }

    @Test func aBatchInsertUnderTheErrorPolicyFailsOnATakenValue() throws {
        let fixture = try StoreFixture(model: Model(Self.tags))
        let store = try fixture.open()
        try store.batchInsert("Tag", objects: [["name": "Home", "color": "red"]])
        #expect(throws: StoreError.self) { try store.batchInsert("Tag", objects: [["name": "Work"], ["name": "Home"]]) }
        let error = #expect(throws: StoreError.self) { try store.batchInsert("Tag", objects: [["name": "Home"]]) }
        #expect(error.flatMap { ErrorKind($0) } == .conflict, "a constraint conflict, as a save's")
        #expect(try rows(fixture, "Tag").count == 1, "the whole batch is rolled back")
    }

    @Test func aBatchInsertUnderATrumpPolicyUpserts() throws {
        let fixture = try StoreFixture(model: Model(Self.tags))
        let store = try fixture.open(history: true)
        let first = try store.batchInsert("Tag", objects: [["name": "Home", "color": "red"]])
        let second = try store.batchInsert("Tag", objects: [["name": "Home", "color": "blue"], ["name": "Work"]], policy: .objectTrump)
        #expect(second.first == first.first, "the existing row, updated")
        #expect(try rows(fixture, "Tag").map { $0["color"] }.contains(.string("blue")))
        let kept = try store.batchInsert("Tag", objects: [["name": "Home", "color": "green"]], policy: .storeTrump)
        #expect(kept == first)
        let colors = try rows(fixture, "Tag").compactMap { $0["color"]?.stringValue }
        #expect(colors == ["blue"], "store-trump keeps the row as it is")
        #expect(try rows(fixture, "Tag").count == 2)
    }
}
