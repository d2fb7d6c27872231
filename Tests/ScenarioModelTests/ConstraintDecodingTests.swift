import Basics
import Foundation
@testable import ScenarioModel
import Testing

/// `uniqueness-constraints:` (Xcode's Constraints list): composite constraints, inherited by sub-entities,
/// and refused with a position where they name something that is not an attribute.
@Suite struct ConstraintDecodingTests {
    @Test func compositeConstraintsDecodeAndSubEntitiesInheritThem() throws {
        let scenario = try Fixture.scenario(Fixture.yaml(model: """
            Item: { abstract-entity: true, name: string, list: string, uniqueness-constraints: [[name, list]] }
            Book: { parent-entity: Item, isbn: string? unique, uniqueness-constraints: [isbn] }
            """, steps: """
            - app: { insert: Book, id: b1, set: { name: Dune, list: Home } }
            - app: save
            """))
        let model = scenario.store.model
        #expect(model.entity(named: "Item")?.uniquenessConstraints == [["name", "list"]])
        #expect(model.entity(named: "Book")?.uniquenessConstraints == [["name", "list"], ["isbn"]])
        #expect(model.entity(named: "Book")?.allUniquenessConstraints == [["isbn"], ["name", "list"]], "isbn counted once")
    }

    @Test func twoIdsForOneCompositeValueAreAnErrorAtTheSecond() {
        Fixture.expectOneError(Fixture.yaml(model: "Tag: { name: string, list: string, uniqueness-constraints: [[name, list]] }", steps: """
            - app: { insert: Tag, id: t1, set: { name: A, list: Home } }
            - app: { insert: Tag, id: t2, set: { name: A, list: Work } }
            - app: { insert: Tag, id: t3, set: { name: A, list: Home } }
            """), line: 12, column: 29, containing: "(name, list) is unique in Tag, and 't1'")
    }

    @Test func mistakesAreErrorsAtTheirPlace() {
        Fixture.expectOneError(Fixture.yaml(model: "Tag: { name: string, uniqueness-constraints: name }", steps: ""),
                               line: 6, column: 50, containing: "expected a list of uniqueness constraints")
        Fixture.expectOneError(Fixture.yaml(model: "Tag: { name: string, uniqueness-constraints: [[name, colour]] }", steps: ""),
                               line: 6, column: 50, containing: "names an attribute the entity does not have")
        Fixture.expectOneError(Fixture.yaml(model: "Tag: { name: string, notes: [Note], uniqueness-constraints: [[notes]] }\nNote: { tags: [Tag] }", steps: ""),
                               line: 6, column: 26, containing: "attributes only, and this is a relationship")
        Fixture.expectOneError(Fixture.yaml(model: "Tag: { name: string, uniqueness-constraints: [[]] }", steps: ""),
                               line: 6, column: 51, containing: "names at least one attribute")
    }
}
