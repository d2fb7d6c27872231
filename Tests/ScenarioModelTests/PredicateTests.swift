import Testing
@testable import ScenarioModel

@Suite struct PredicateTests {
    private let note = EntityModel(name: "Note", attributes: [
        AttributeModel(name: "title", type: .string), AttributeModel(name: "rank", type: .int),
        AttributeModel(name: "score", type: .double), AttributeModel(name: "pinned", type: .bool),
        AttributeModel(name: "body", type: .string, isOptional: true),
    ])

    private func parse(_ text: String) throws(PredicateParser.Failure) -> FetchPredicate {
        var parser = try PredicateParser(text, entity: note)
        return try parser.parse()
    }

    private func failure(_ text: String) -> PredicateParser.Failure? {
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
        let values: [String: AttributeValue] = ["title": .string("Groceries"), "rank": .int(3), "score": .double(1.5)]
        #expect(try parse("rank > 2 AND title BEGINSWITH 'Gro'").matches(values))
        #expect(try parse("score < 2 AND body == nil").matches(values))
        #expect(try !parse("title ENDSWITH 'x' OR rank <= 2").matches(values))
        #expect(try parse("rank == 3.0").matches(values))
    }
}
