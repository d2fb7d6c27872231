import Basics
import Foundation
import SharedStore
import Testing

@Suite struct ModelTests {
    @Test func attributeSyntaxParses() throws {
        let description = try ModelDescription.parse([
            ("Note", [("title", "string"), ("body", "string?"), ("pinned", "bool = false"), ("tags", "[Tag]")]),
            ("Tag", [("note", "Note?"), ("label", "string = 'x y'")]),
        ])
        let note = description.entities[0]
        #expect(note.attributes.map(\.name) == ["title", "body", "pinned"])
        #expect(note.attributes[1].isOptional)
        #expect(note.attributes[2].defaultValue == .bool(false))
        #expect(note.relationships == [RelationshipDescription(name: "tags", destination: "Tag", isToMany: true)])
        #expect(description.entities[1].attributes[0].defaultValue == "x y")
        let model = try Model(description)
        #expect(model.relationships(of: "Note")?.first?.inverse == "note", "the inverse is inferred")
    }

    @Test func unknownTypeNamesEntityAndAttribute() {
        #expect(throws: ModelError(entity: "Note", property: "title",
                                   reason: "unknown type `strng` (expected one of string, int, double, bool, date, uuid, or an entity name)")) {
            try ModelDescription.parse([("Note", [("title", "strng")])])
        }
    }

    @Test func duplicateNamesAreRejected() {
        let duplicateAttribute = ModelDescription(entities: [EntityDescription(name: "Note", attributes: [
            AttributeDescription(name: "title", type: .string), AttributeDescription(name: "title", type: .int),
        ])])
        #expect(throws: ModelError(entity: "Note", property: "title", reason: "duplicate property name")) {
            try Model(duplicateAttribute)
        }
        let duplicateEntity = ModelDescription(entities: [EntityDescription(name: "Note"), EntityDescription(name: "Note")])
        #expect(throws: ModelError(entity: "Note", reason: "duplicate entity name")) { try Model(duplicateEntity) }
    }

    @Test func relationshipToAMissingEntityIsRejected() throws {
        let description = try ModelDescription.parse([("Note", [("tags", "[Tag]")])])
        #expect(throws: ModelError(entity: "Note", property: "tags", reason: "relationship to missing entity `Tag`")) {
            try Model(description)
        }
    }

    @Test func badDefaultValueIsRejected() {
        #expect(throws: ModelError.self) { try ModelDescription.parse([("Note", [("rank", "int = many")])]) }
    }

    @Test func storeMadeWithAnotherModelIsRefused() throws {
        let fixture = try StoreFixture()
        _ = try fixture.open()
        let other = try Model(ModelDescription.parse([("Note", [("title", "string"), ("extra", "int")])]))
        #expect {
            _ = try StoreCoordinator(url: fixture.url, model: other)
        } throws: { error in
            guard (error as? StoreError)?.code == .modelMismatch else { return false }
            return true
        }
    }

    @Test func schemaUsesCoreDataLayout() throws {
        let fixture = try StoreFixture()
        _ = try fixture.open()
        let db = try SQLiteConnection(path: fixture.url.path)
        for table in ["ZNOTE", "ZTAG", "Z_PRIMARYKEY", "Z_METADATA"] {
            #expect(try db.tableExists(table), "missing \(table)")
        }
        let columns = try db.prepare("SELECT name FROM pragma_table_info('ZTAG')")
        var names: [String] = []
        while try columns.step() { names.append(columns.string(at: 0)!) }
        #expect(names == ["Z_PK", "Z_ENT", "Z_OPT", "ZNAME", "ZNOTE"])
        #expect(try db.scalarInt("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Tag'") == 2)
        #expect(try db.scalarInt("SELECT count(*) FROM pragma_journal_mode WHERE journal_mode = 'wal'") == 1)
    }

    @Test func manyToManyUsesAJoinTable() throws {
        let model = try Model(ModelDescription.parse([
            ("Note", [("title", "string"), ("tags", "[Tag]")]),
            ("Tag", [("name", "string"), ("notes", "[Note]")]),
        ]))
        let fixture = try StoreFixture(model: model)
        let context = try fixture.open().viewContext
        let note = try context.insert("Note", values: ["title": "A"])
        let tag = try context.insert("Tag", values: ["name": "t"])
        try context.relate(tag, to: note, via: "notes")
        let ids = try context.save().permanentIDs
        let db = try SQLiteConnection(path: fixture.url.path)
        #expect(try db.scalarInt("SELECT count(*) FROM Z_1TAGS") == 1)
        #expect(try fixture.open().viewContext.relatedObjects(of: ids[note]!, via: "tags") == [ids[tag]!])
    }

    /// A relationship change is a pending change of its object (kept out of line until made): it is saved,
    /// then cleared; `refresh(mergeChanges: false)` and `rollback()` discard one.
    @Test func relationshipChangesArePendingUntilSavedOrDiscarded() throws {
        let model = try Model(ModelDescription.parse([
            ("Note", [("title", "string"), ("tags", "[Tag]")]),
            ("Tag", [("name", "string"), ("notes", "[Note]")]),
        ]))
        let fixture = try StoreFixture(model: model)
        let context = try fixture.open().viewContext
        let temporaryNote = try context.insert("Note", values: ["title": "A"])
        let temporaryTag = try context.insert("Tag", values: ["name": "t"])
        let saved = try context.save().permanentIDs
        let note = try #require(saved[temporaryNote]), tag = try #require(saved[temporaryTag])
        #expect(!context.hasChanges)

        try context.relate(note, to: tag, via: "tags")
        #expect(context.hasChanges && context.updatedObjects.contains(note))
        context.refresh(note, mergeChanges: false)
        context.refresh(tag, mergeChanges: false)
        #expect(!context.hasChanges, "a refresh without merging drops the join-table change")
        #expect(try context.relatedObjects(of: note, via: "tags").isEmpty)

        try context.relate(note, to: tag, via: "tags")
        context.rollback()
        #expect(!context.hasChanges)
        #expect(try context.relatedObjects(of: note, via: "tags").isEmpty)

        try context.relate(note, to: tag, via: "tags")
        let version = try #require(context.version(of: note))
        try context.save()
        #expect(!context.hasChanges, "a save clears the pending change")
        #expect(context.version(of: note) == version + 1, "the object's version moves though no attribute changed")
        #expect(try fixture.open().viewContext.relatedObjects(of: note, via: "tags") == [tag])
    }

    @Test func valuesConvertFromScenarioScalars() throws {
        #expect(try Value.from(scalar: "3", as: .int) == 3)
        #expect(try Value.from(scalar: "yes", as: .bool) == true)
        #expect(try Value.from(scalar: "2.5", as: .double) == 2.5)
        #expect(try Value.from(scalar: "~", as: .string) == .null)
        #expect(try Value.from(scalar: "2024-05-01T10:00:00Z", as: .date) == .date(Date(timeIntervalSince1970: 1_714_557_600)))
        #expect(throws: ValueConversionError.self) { try Value.from(scalar: "x", as: .int) }
    }

    @Test func everyTypeRoundTripsThroughTheStore() throws {
        let fixture = try StoreFixture()
        let context = try fixture.open().viewContext
        let uid = UUID()
        let created = Date(timeIntervalSinceReferenceDate: 12345.5)
        let values: [String: Value] = ["title": "é", "body": .null, "pinned": true, "rank": .int(-4),
                                       "score": 0.25, "created": .date(created), "uid": .uuid(uid)]
        let temporary = try context.insert("Note", values: values)
        let id = try context.save().permanentIDs[temporary]!
        #expect(try fixture.open().viewContext.values(of: id) == values)
        #expect(throws: StoreError.self) { try context.setValues(["rank": "many"], for: id) }
    }
}
