import Basics
import Foundation
import SharedStore
import Testing

/// Entity and attribute keys, looked up once: inserting, reading and setting through them behaves as the
/// by-name calls do, and a key of another entity or model, or a value of the wrong type, is an error.
@Suite struct PropertyKeyTests {
    @Test func insertThroughKeysSavesWhatInsertByNameSaves() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let context = store.viewContext
        let note = try fixture.model.entityKey("Note")
        let title = try fixture.model.attributeKey("title", of: "Note")
        let rank = try fixture.model.attributeKey("rank", of: "Note")
        let score = try fixture.model.attributeKey("score", of: "Note")
        let keyed = try context.insert(note) {
            $0[title] = "A"
            $0[rank] = .int(3)
            $0[score] = .int(2)  // converted, as by name
            #expect($0[rank] == .int(3))
        }
        let named = try context.insert("Note", values: ["title": "A", "rank": .int(3), "score": .int(2)])
        #expect(context.view == [keyed, named])
        let result = try context.save()

        let reader = try fixture.open()
        let saved = try #require(result.permanentIDs[keyed])
        let other = try #require(result.permanentIDs[named])
        #expect(try reader.viewContext.values(of: saved) == reader.viewContext.values(of: other))
        #expect(try reader.viewContext.value(title, of: saved) == "A")
        #expect(try reader.viewContext.value(score, of: saved) == .double(2))
        #expect(try reader.viewContext.value("pinned", of: saved) == .bool(false), "defaults stay")
    }

    @Test func setValueThroughKeyIsAPendingChange() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let context = store.viewContext
        let id = try context.insertNote("A")
        let title = try fixture.model.attributeKey("title", of: "Note")
        try context.setValue("B", for: title, of: id)
        #expect(context.updatedObjects == [id])
        #expect(try context.value(title, of: id) == "B")
        try context.save()
        #expect(try fixture.open().viewContext.title(id) == "B")
    }

    @Test func keysDescribeThemselves() throws {
        let model = try Model(.notesExample)
        let key = try model.attributeKey("score", of: "Note")
        #expect(key.entity == "Note" && key.name == "score" && key.type == .double)
        #expect("\(key)" == "Note.score")
        #expect(try model.entityKey("Tag").name == "Tag")
        #expect(try model.attributeKey("score", of: "Note") == key)
    }

    @Test func unknownNamesAreErrors() throws {
        let model = try Model(.notesExample)
        #expect(throws: StoreError.self) { try model.entityKey("Nope") }
        #expect(throws: StoreError.self) { try model.attributeKey("nope", of: "Note") }
        // Relationships have no attribute keys.
        #expect(throws: StoreError.self) { try model.attributeKey("note", of: "Tag") }
    }

    @Test func aKeyOfAnotherEntityOrAWrongTypeInsertsNothing() throws {
        let fixture = try StoreFixture()
        let context = try fixture.open().viewContext
        let note = try fixture.model.entityKey("Note")
        let tagName = try fixture.model.attributeKey("name", of: "Tag")
        let rank = try fixture.model.attributeKey("rank", of: "Note")
        let wrongEntity = #expect(throws: StoreError.self) { try context.insert(note) { $0[tagName] = "x" } }
        #expect("\(wrongEntity!)".contains("Tag.name"))
        let wrongType = #expect(throws: StoreError.self) { try context.insert(note) { $0[rank] = "high" } }
        #expect("\(wrongType!)".contains("rank"))
        #expect(context.insertedObjects.isEmpty && context.view.isEmpty)
        let id = try context.insert(note)
        #expect(throws: StoreError.self) { try context.setValue("x", for: tagName, of: id) }
        #expect(throws: StoreError.self) { try context.value(tagName, of: id) }
    }

    @Test func keyedCallsRefuseDeletedObjectsAndIDsOfAnotherStore() throws {
        let fixture = try StoreFixture()
        let context = try fixture.open().viewContext
        let title = try fixture.model.attributeKey("title", of: "Note")
        let id = try context.insertNote("A")
        try context.delete(id)
        let deleted = #expect(throws: StoreError.self) { try context.setValue("B", for: title, of: id) }
        guard deleted?.code == .notFound else { Issue.record("expected notFound, got \(String(describing: deleted))"); return }
        let foreign = ObjectID(entity: "Note", primaryKey: 1, storeIdentifier: "another-store")
        let error = #expect(throws: StoreError.self) { try context.value(title, of: foreign) }
        guard error?.code == .invalidObjectID else { Issue.record("expected invalidObjectID, got \(String(describing: error))"); return }
    }

    /// A model freed and another made (possibly at the same address) does not take the old model's keys.
    @Test func aKeyOutlivingItsModelFitsNoOtherModel() throws {
        var title: AttributeKey?
        var note: EntityKey?
        do {
            let old = try Model(ModelDescription.parse([("Tag", [("name", "string")]), ("Note", [("title", "string")])]))
            title = try old.attributeKey("title", of: "Note")
            note = try old.entityKey("Note")
        }
        for _ in 0..<20 {
            let fixture = try StoreFixture()
            let context = try fixture.open().viewContext
            #expect(throws: StoreError.self) { try context.insert(note!) }
            let id = try context.insert("Note", values: ["title": "A"])
            #expect(throws: StoreError.self) { try context.value(title!, of: id) }
            #expect(throws: StoreError.self) { try context.setValue("B", for: title!, of: id) }
        }
    }

    @Test func aKeyOfAnotherModelIsAnError() throws {
        let fixture = try StoreFixture()
        let context = try fixture.open().viewContext
        let otherModel = try Model(.notesExample)
        let note = try otherModel.entityKey("Note")
        let title = try otherModel.attributeKey("title", of: "Note")
        let error = #expect(throws: StoreError.self) { try context.insert(note) }
        #expect("\(error!)".contains("another model"))
        let id = try context.insert(try fixture.model.entityKey("Note"))
        #expect(throws: StoreError.self) { try context.value(title, of: id) }
    }
}
