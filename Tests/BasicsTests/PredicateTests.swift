import Basics
import Foundation
import Testing

@Suite struct PredicateTests {
    private let note = EntityDescription(name: "Note", attributes: [
        AttributeDescription(name: "title", type: .string), AttributeDescription(name: "rank", type: .int),
        AttributeDescription(name: "score", type: .double), AttributeDescription(name: "pinned", type: .bool),
        AttributeDescription(name: "body", type: .string, isOptional: true),
        AttributeDescription(name: "due", type: .date, isOptional: true),
    ])

    private func parse(_ text: String) throws(FetchPredicateError) -> FetchPredicate {
        try FetchPredicate(parsing: text, entity: note)
    }

    private func failure(_ text: String) -> FetchPredicateError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func andBindsTighterThanOr() throws {
        let rank = FetchPredicate.comparison(attribute: "rank", op: .equal, value: .int(1))
        let title = FetchPredicate.comparison(attribute: "title", op: .equal, value: .string("A"))
        let pinned = FetchPredicate.comparison(attribute: "pinned", op: .equal, value: .bool(true))
        #expect(try parse("rank = 1 OR title == 'A' && pinned == YES") == .or([rank, .and([title, pinned])]))
        #expect(try parse("(rank == 1 or title == \"A\") and not pinned == true") == .and([.or([rank, title]), .not(pinned)]))
    }

    @Test func intLiteralsBecomeDoublesForDoubleAttributes() throws {
        #expect(try parse("score >= 2") == .comparison(attribute: "score", op: .greaterOrEqual, value: .double(2)))
        #expect(try parse("rank < -2.5") == .comparison(attribute: "rank", op: .less, value: .double(-2.5)))
    }

    @Test func constantsParse() throws {
        #expect(try parse("TRUEPREDICATE") == .constant(true))
        #expect(try parse("NOT FALSEPREDICATE") == .not(.constant(false)))
    }

    @Test func errorsPointAtTheOffendingToken() {
        #expect(failure("rank >")?.offset == 6)
        #expect(failure("rank > 2 title == 'x'")?.offset == 9)
        #expect(failure("(rank > 2")?.offset == 0)
        #expect(failure("title == B")?.message == "'B' is not a value; put text in quotes, like 'B'.")
        #expect(failure("pinned > true")?.message.contains("has no order") == true)
        #expect(failure("rank CONTAINS 'x'")?.message.contains("works on string attributes") == true)
        #expect(failure("body < nil")?.message == "nil can only be compared with == or !=.")
        #expect(failure("title == 'x")?.offset == 9)
    }

    @Test func matchesEvaluatesAgainstValues() throws {
        let values: [String: Value] = ["title": .string("Groceries"), "rank": .int(3), "score": .double(1.5)]
        #expect(try parse("rank > 2 AND title BEGINSWITH 'Gro'").evaluate(values))
        #expect(try parse("score < 2 AND body == nil").evaluate(values))
        #expect(try !parse("title ENDSWITH 'x' OR rank <= 2").evaluate(values))
        #expect(try parse("rank == 3.0").evaluate(values))
    }

    @Test func exponentsParseInEitherCase() throws {
        #expect(try parse("score < 0.00001") == .comparison(attribute: "score", op: .less, value: .double(0.00001)))
        #expect(try parse("score < 1e-05") == .comparison(attribute: "score", op: .less, value: .double(0.00001)))
        #expect(try parse("score > 2.5E+3") == .comparison(attribute: "score", op: .greater, value: .double(2500)))
        #expect(failure("score < 1e")?.offset == 8)
        #expect(failure("title CONTAINS 3")?.message.contains("quotes") == true)
    }

    @Test func quotesAndEscapesInText() throws {
        let expected = FetchPredicate.comparison(attribute: "title", op: .equal, value: .string("a\"b"))
        #expect(try parse("title == 'a\"b'") == expected)
        #expect(try parse("title == \"a\\\"b\"") == expected)
        #expect(try parse("title == 'it\\'s'") == .comparison(attribute: "title", op: .equal, value: .string("it's")))
        #expect(try parse("title == 'back\\\\slash'") == .comparison(attribute: "title", op: .equal, value: .string("back\\slash")))
    }

    @Test func inListsTakeBracesOrBrackets() throws {
        let expected = FetchPredicate.inList(attribute: "rank", values: [.int(1), .int(2), .int(3)])
        #expect(try parse("rank IN {1, 2, 3}") == expected)
        #expect(try parse("rank in [1,2,3]") == expected)
        #expect(try parse("score IN {1, 2.5}") == .inList(attribute: "score", values: [.double(1), .double(2.5)]))
        #expect(try parse("rank IN {2, 3}").evaluate(["rank": .int(3)]))
        #expect(try !parse("rank IN {}").evaluate(["rank": .int(3)]))
        #expect(failure("rank IN {1, 'x'}") != nil)
    }

    @Test func literalsConvertToTheAttributeType() throws {
        let date = Date(timeIntervalSince1970: 1_714_521_600)
        #expect(try parse("due > '2024-05-01T00:00:00Z'") == .comparison(attribute: "due", op: .greater, value: .date(date)))
        #expect(failure("due > 'tomorrow'") != nil)
        #expect(failure("colour == 'red'")?.message.contains("colour") == true)
    }

    /// What the runner prints into a step's text must parse back to the same tree, whatever the values.
    @Test func descriptionParsesBackToTheSameTree() throws {
        let samples = [
            "score < 0.00001", "title == 'a\"b'", "rank IN {1, 2}", "NOT (title CONTAINS 'x' OR rank >= -3)",
            "TRUEPREDICATE", "title == 'line\\nbreak'", "body == nil", "due <= '2024-05-01T10:20:30Z'",
            "score > 1e300", "score > -0.0", "title ENDSWITH '\\\\'",
        ]
        for text in samples {
            let predicate = try parse(text)
            #expect(try parse(predicate.description) == predicate, "\(text) printed as \(predicate.description)")
        }
    }

    @Test func codableKeepsTheTree() throws {
        let predicate = try parse("(rank IN {1, 2} AND score < 1e-5) OR NOT title BEGINSWITH 'Gr\u{fc}'")
        let data = try JSONEncoder().encode(predicate)
        #expect(try JSONDecoder().decode(FetchPredicate.self, from: data) == predicate)
    }

    @Test func keyPathsParseAgainstTheModelAndPrintBack() throws {
        let model = ModelDescription(entities: [
            EntityDescription(name: "Note", attributes: [AttributeDescription(name: "title", type: .string)],
                              relationships: [RelationshipDescription(name: "tags", destination: "Tag", isToMany: true),
                                              RelationshipDescription(name: "folder", destination: "Folder", isToMany: false)]),
            EntityDescription(name: "Tag", attributes: [AttributeDescription(name: "rank", type: .int)]),
            EntityDescription(name: "Folder", attributes: [AttributeDescription(name: "name", type: .string)]),
        ])
        let schema = ModelEntitySchema(model: model, entity: model.entities[0])
        func parse(_ text: String) throws(FetchPredicateError) -> FetchPredicate { try FetchPredicate(parsing: text, entity: schema) }
        #expect(try parse("ANY tags.rank > 2") == .related(relationship: "tags", quantifier: .any,
                                                            predicate: .comparison(attribute: "rank", op: .greater, value: .int(2))))
        #expect(try parse("folder.name == 'Work'") == .related(relationship: "folder", quantifier: .any,
                                                                predicate: .comparison(attribute: "name", op: .equal, value: .string("Work"))))
        #expect(try parse("tags.@count >= 2") == .relatedCount(relationship: "tags", op: .greaterOrEqual, count: 2))
        #expect(try parse("folder == nil") == .relatedCount(relationship: "folder", op: .equal, count: 0))
        #expect(try parse("folder != nil") == .relatedCount(relationship: "folder", op: .greater, count: 0))
        for text in ["ALL tags.rank IN {1, 2}", "NONE tags.rank == 1 AND title == 'x'", "NOT (tags.@count == 0)"] {
            let predicate = try parse(text)
            #expect(try parse(predicate.description) == predicate, "\(text) -> \(predicate)")
        }
        func error(_ text: String) -> String {
            do { _ = try parse(text); return "" } catch { return error.message }
        }
        #expect(error("tags.rank == 1").contains("to-many relationship: say which of its objects must match"))
        #expect(error("ANY tags.@count > 1").contains("does not apply to @count"))
        #expect(error("ANY tags.rank == 'x'").contains("'rank' is int"))
        #expect(error("ANY tags.color == 1").contains("Tag has no attribute 'color'"))
        #expect(error("ANY title.x == 1").contains("'title' is an attribute of Note, not a relationship"))
        #expect(error("tags.@max > 1").contains("use @count"))
        #expect(error("folder == 'x'").contains("compares with nil only"))
        #expect(error("tags > 1").contains("follow it to an attribute"))
        #expect(error("tags.@count > 'x'").contains("whole number"))
    }

    @Test func longerKeyPathsNestOneRelationshipAtATime() throws {
        let model = ModelDescription(entities: [
            EntityDescription(name: "Note", attributes: [AttributeDescription(name: "title", type: .string)],
                              relationships: [RelationshipDescription(name: "folder", destination: "Folder", isToMany: false)]),
            EntityDescription(name: "Folder", attributes: [AttributeDescription(name: "name", type: .string)],
                              relationships: [RelationshipDescription(name: "notes", destination: "Note", isToMany: true),
                                              RelationshipDescription(name: "owner", destination: "Person", isToMany: false)]),
            EntityDescription(name: "Person", attributes: [AttributeDescription(name: "name", type: .string)]),
        ])
        let schema = ModelEntitySchema(model: model, entity: model.entities[0])
        func parse(_ text: String) throws(FetchPredicateError) -> FetchPredicate { try FetchPredicate(parsing: text, entity: schema) }
        let title = FetchPredicate.comparison(attribute: "title", op: .equal, value: .string("x"))
        #expect(try parse("folder.owner.name == 'x'") == .related(relationship: "folder", quantifier: .any, predicate:
            .related(relationship: "owner", quantifier: .any, predicate: .comparison(attribute: "name", op: .equal, value: .string("x")))))
        #expect(try parse("ALL folder.notes.title == 'x'") == .related(relationship: "folder", quantifier: .all, predicate:
            .related(relationship: "notes", quantifier: .all, predicate: title)), "ALL holds at every step")
        #expect(try parse("NONE folder.notes.title == 'x'") == .related(relationship: "folder", quantifier: .none, predicate:
            .related(relationship: "notes", quantifier: .any, predicate: title)), "NONE: not any of what the path reaches")
        #expect(try parse("folder.notes.@count > 2") == .related(relationship: "folder", quantifier: .any, predicate:
            .relatedCount(relationship: "notes", op: .greater, count: 2)))
        #expect(try parse("folder.owner == nil") == .related(relationship: "folder", quantifier: .none, predicate:
            .relatedCount(relationship: "owner", op: .greater, count: 0)), "nil when the note has no folder too")
        #expect(try parse("folder.owner.name == nil") == .related(relationship: "folder", quantifier: .none, predicate:
            .related(relationship: "owner", quantifier: .any, predicate: .comparison(attribute: "name", op: .notEqual, value: .null))))
        #expect(try parse("folder.owner.name != nil") == .related(relationship: "folder", quantifier: .any, predicate:
            .related(relationship: "owner", quantifier: .any, predicate: .comparison(attribute: "name", op: .notEqual, value: .null))))
        for text in ["ANY folder.notes.folder.owner.name == 'x'", "NONE folder.notes.title BEGINSWITH 'a'", "folder.owner.name == nil",
                     "folder.notes.@count == 1 AND folder.owner.name != nil"] {
            let predicate = try parse(text)
            #expect(try parse(predicate.description) == predicate, "\(text) -> \(predicate)")
        }
        func error(_ text: String) -> String {
            do { _ = try parse(text); return "" } catch { return error.message }
        }
        #expect(error("folder.notes.title == 'x'").contains("'notes' is a to-many relationship"))
        #expect(error("folder.ANY notes.title == 'x'").contains("a quantifier goes before the whole key path"))
        #expect(error("folder.owner.age == 1").contains("Person has no attribute 'age'"))
        #expect(error("folder.nobody.name == 1").contains("Folder has no relationship 'nobody'"))
    }

    @Test func nestingIsBoundedInsteadOfExhaustingTheStack() throws {
        func error(_ text: String) -> String {
            do { _ = try FetchPredicate(parsing: text); return "" } catch { return error.message }
        }
        let limit = FetchPredicate.maxDepth
        #expect(error(String(repeating: "(", count: limit) + "rank == 1" + String(repeating: ")", count: limit)) == "")
        #expect(error(String(repeating: "(", count: limit + 1) + "rank == 1" + String(repeating: ")", count: limit + 1))
            .contains("more than \(limit) levels deep"))
        #expect(error(String(repeating: "NOT ", count: 20_000) + "rank == 1").contains("levels deep"))
        #expect(error(String(repeating: "(", count: 20_000) + "rank == 1").contains("levels deep"))
        #expect(error("a" + String(repeating: ".b", count: 20_000) + " == 1").contains("levels deep"))
    }
}
