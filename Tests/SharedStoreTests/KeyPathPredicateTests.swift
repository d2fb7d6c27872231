import Basics
import Foundation
import SharedStore
import Testing

/// Key paths in predicates (`ANY tags.name == 'x'`, `ALL`, `NONE`, a to-one's `note.title`, `@count`,
/// `note == nil`): SQL and memory select the same objects, NULLs and negations included.
@Suite struct KeyPathPredicateTests {
    /// Notes A (tags x, y), B (tag y), C (no tag), D (a tag with no name), and a tag of no note: the
    /// example model's `Note.tags` is a to-many whose inverse is `Tag.note`, a to-one.
    private func store() throws -> (ObjectContext, StoreFixture) {
        let fixture = try StoreFixture()
        let context = try fixture.open().viewContext
        var notes: [String: ObjectID] = [:]
        for title in ["A", "B", "C", "D"] { notes[title] = try context.insert("Note", values: ["title": .string(title)]) }
        for (name, note) in [("x", "A"), ("y", "A"), ("y", "B"), (nil, "D")] as [(String?, String)] {
            let tag = try context.insert("Tag", values: ["name": name.map(Value.string) ?? .null])
            try context.relate(notes[note]!, to: tag, via: "tags")
        }
        _ = try context.insert("Tag", values: ["name": "orphan"])
        try context.save()
        return (context, fixture)
    }

    @Test func sqlAndMemoryAgree() throws {
        let (context, fixture) = try store()
        let cases: [(String, String, [String])] = [
            ("Note", "ANY tags.name == 'y'", ["A", "B"]),
            ("Note", "SOME tags.name == 'x'", ["A"]),
            ("Note", "ALL tags.name == 'y'", ["B", "C"]),
            ("Note", "NONE tags.name == 'y'", ["C", "D"]),
            ("Note", "ANY tags.name == nil", ["D"]),
            ("Note", "NOT (ANY tags.name == 'y')", ["C", "D"]),
            ("Note", "ANY tags.name IN {'x', 'z'}", ["A"]),
            ("Note", "ANY tags.name BEGINSWITH 'x' OR title == 'C'", ["A", "C"]),
            ("Note", "tags.@count == 2", ["A"]),
            ("Note", "tags.@count >= 1 AND tags.@count < 2", ["B", "D"]),
            ("Note", "tags.@count == 0", ["C"]),
            ("Tag", "note.title == 'A'", ["x", "y"]),
            ("Tag", "note == nil", ["orphan"]),
            ("Tag", "note != nil AND NOT (note.title == 'A')", ["y", "(nil)"]),
            ("Tag", "ALL note.title == 'B'", ["y", "orphan"]),
            ("Tag", "NOT name == 'x'", ["y", "y", "(nil)", "orphan"]),
            ("Tag", "ANY note.tags.name == 'x'", ["x", "y"]),
            ("Tag", "note.tags.@count == 2", ["x", "y"]),
            ("Tag", "ALL note.tags.name == 'y'", ["y", "orphan"]),
            ("Tag", "NONE note.tags.name == 'y'", ["(nil)", "orphan"]),
            ("Note", "ANY tags.note.title == 'A'", ["A"]),
            ("Note", "ANY tags.note.tags.name == nil", ["D"]),
            // A path of to-ones is nil when an object on it is missing, as NSPredicate's key path evaluates.
            ("Tag", "note.title == nil", ["orphan"]),
            ("Tag", "note.title != nil", ["x", "y", "y", "(nil)"]),
            ("Tag", "NOT (note.title != nil)", ["orphan"]),
        ]
        let reader = try fixture.open().viewContext
        for (entity, text, expected) in cases {
            let label = entity == "Note" ? "title" : "name"
            func names(_ ids: [ObjectID], in context: ObjectContext) throws -> [String] {
                try ids.map { try context.value(label, of: $0).stringValue ?? "(nil)" }.sorted()
            }
            let fetched = try reader.fetch(FetchRequest(entity: entity, predicate: text))
            #expect(try names(fetched, in: reader) == expected.sorted(), "SQL: \(text)")
            let model = ModelDescription.notesExample
            let predicate = try FetchPredicate(parsing: text, entity: ModelEntitySchema(model: model, entity: model.entity(named: entity)!))
            let all = try context.fetch(FetchRequest(entity: entity))
            #expect(try names(all.filter { context.matches(predicate, $0) }, in: context) == expected.sorted(), "memory: \(text)")
            #expect(try FetchPredicate(parsing: predicate.description) == predicate, "round trip: \(predicate)")
        }
    }

    @Test func pendingChangesMatchThroughTheirRelationships() throws {
        let (context, fixture) = try store()
        defer { withExtendedLifetime(fixture) {} }
        let note = try context.insert("Note", values: ["title": "E"])
        let tag = try context.insert("Tag", values: ["name": "y"])
        try context.relate(note, to: tag, via: "tags")
        let ids = try context.fetch(FetchRequest(entity: "Note", predicate: "ANY tags.name == 'y'"))
        #expect(try ids.map { try context.title($0) ?? "" }.sorted() == ["A", "B", "E"])
        // The view holds the fetched list and the notes this context inserted (a filtered fetch leaves them).
        #expect(try context.countInView(entity: "Note", where: "tags.@count == 1") == 3, "B, D and E: A has two tags, C none")
    }

    @Test func aBatchDeleteByAKeyPathDeletesTheRowsAndTheirJoinRows() throws {
        let (context, fixture) = try store()
        let store = try fixture.open()
        let deleted = try store.batchDelete("Note", where: "ANY tags.name == 'y'")
        #expect(deleted.count == 2)
        let reader = try fixture.open().viewContext
        #expect(try reader.fetch(FetchRequest(entity: "Note")).map { try reader.title($0) ?? "" }.sorted() == ["C", "D"])
        #expect(try reader.fetch(FetchRequest(entity: "Tag", predicate: "note != nil")).count == 1)
        _ = context
    }

    /// The deepest and widest predicates the parser accepts run as SQL; one step more is refused at parsing.
    @Test func predicatesAtTheLimitRunInSQLiteAndOneMoreIsRefused() throws {
        let (context, fixture) = try store()
        defer { withExtendedLifetime(fixture) {} }
        let model = ModelDescription.notesExample
        let schema = ModelEntitySchema(model: model, entity: model.entity(named: "Note")!)
        let leaf = "title ENDSWITH 'x'"
        let nots = String(repeating: "NOT ", count: 16) + leaf
        let path = "ANY tags.note.tags.note.tags.note.title == 'x'"
        let plainNots = String(repeating: "NOT ", count: 18) + "title == 'x'"
        var groups = leaf
        for i in 0..<16 { groups = "(rank == \(i) \(i % 2 == 0 ? "OR" : "AND") \(groups))" }
        let mixed = "NOT NOT (rank == 1 OR ANY tags.note.tags.note.title ENDSWITH 'x')"
        let wide = (0..<FetchPredicate.maxTerms).map { "rank == \($0)" }.joined(separator: " OR ")
        for text in [nots, plainNots, path, groups, mixed, wide] {
            _ = try FetchPredicate(parsing: text, entity: schema)
            #expect(throws: Never.self, "\(text.prefix(60))") { try context.fetch(FetchRequest(entity: "Note", predicate: text)) }
        }
        for text in ["NOT " + nots, "NOT " + plainNots, "ANY tags.note." + path.dropFirst(4), "NOT (rank == 1 OR \(groups))", wide + " OR rank == -1"] {
            #expect(throws: FetchPredicateError.self, "\(text.prefix(60))") { try FetchPredicate(parsing: text, entity: schema) }
        }
    }
}
