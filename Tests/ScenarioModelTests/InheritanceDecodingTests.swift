import Basics
import Foundation
@testable import ScenarioModel
import Testing

/// `parent-entity:` and `abstract-entity:` (Xcode's Parent Entity and Abstract Entity): a sub-entity has
/// its parent's properties, its objects stand where the parent's are expected, an abstract entity has none.
@Suite struct InheritanceDecodingTests {
    private func yaml(_ model: String, steps: String) -> String { Fixture.yaml(model: model, steps: steps) }

    private let books = """
        Item: { abstract-entity: true, title: string }
        Book: { parent-entity: Item, pages: int = 0 }
        GraphicNovel: { parent-entity: Book, artist: string? }
        Shelf: { items: [Item] }
        """

    @Test func aSubEntityHasItsParentsPropertiesFirst() throws {
        let scenario = try Fixture.scenario(yaml(books, steps: """
            - app: { insert: GraphicNovel, id: g1, set: { title: Watchmen, pages: 416, artist: Gibbons } }
            - app: { insert: Shelf, id: s1 }
            - app: { relate: s1, to: g1, via: items }
            - app: save
            - app: { read: s1, expect: { items: [g1] } }
            """))
        let model = scenario.store.model
        #expect(model.entity(named: "GraphicNovel")?.attributes.map(\.name) == ["title", "pages", "artist"])
        #expect(model.entity(named: "GraphicNovel")?.parent == "Book")
        #expect(model.entity(named: "Item")?.isAbstract == true && model.entity(named: "Book")?.isAbstract == false)
        #expect(model.entity("GraphicNovel", isKindOf: "Item") && !model.entity("Item", isKindOf: "Book"))
        #expect(model.declaredProperties(of: model.entity(named: "Book")!).attributes.map(\.name) == ["pages"])
        // Shelf.items's inverse is inferred on Item and inherited.
        #expect(model.entity(named: "Book")?.relationships.isEmpty == true)
    }

    @Test func mistakesAreErrorsAtTheirPlace() {
        Fixture.expectOneError(yaml("Book: { parent-entity: Bok, title: string }\nNovel: { parent-entity: Book }", steps: ""),
                               line: 6, column: 28, containing: "unknown parent entity 'Bok'")
        Fixture.expectOneError(yaml("Book: { parent-entity: Novel }\nNovel: { parent-entity: Book }", steps: ""),
                               line: 6, column: 13, containing: "lead back to it")
        Fixture.expectOneError(yaml("Book: { title: string }\nNovel: { parent-entity: Book, title: string? }", steps: ""),
                               line: 7, column: 35, containing: "inherits 'title' from Book")
        Fixture.expectOneError(yaml("Book: { parent-entity: Book }", steps: ""),
                               line: 6, column: 28, containing: "cannot be its own parent")
        Fixture.expectOneError(yaml("Book: { title: string }\nA: { parent-entity: Book, x: int }\nB: { parent-entity: Book, x: string }", steps: ""),
                               line: 8, column: 31, containing: "A, stored in the same table, has a property of this name")
        Fixture.expectOneError(yaml((0...17).map { "E\($0): { \($0 == 0 ? "" : "parent-entity: E\($0 - 1), ")a\($0): int }" }.joined(separator: "\n"), steps: ""),
                               line: 23, column: 12, containing: "more than 16 parent entities")
        Fixture.expectOneError(yaml(books, steps: "- app: { insert: Item, id: i1 }"),
                               line: 13, column: 20, containing: "Item is an abstract entity: insert one of its sub-entities (Book)")
        Fixture.expectOneError(yaml(books + "\nNote: { shelf: Shelf? }", steps: """
            - app: { insert: Note, id: n1 }
            - app: { insert: Shelf, id: s1 }
            - app: { relate: s1, to: n1, via: items }
            """), line: 16, column: 28, containing: "Shelf.items leads to Item, but 'n1' is a Note")
    }

    /// What SharedStore does not do with sub-entities yet is refused at validation, not at run time.
    @Test func whatIsNotSupportedWithSubEntitiesIsRefusedAtValidation() {
        #expect((try? Fixture.scenario(yaml(books, steps: "- app: { batch-delete: Book, where: \"pages > 2\" }"))) != nil,
                "a batch on a parent reaches its sub-entities (includesSubentities)")
        Fixture.expectOneError(yaml(books, steps: "- app: { batch-insert: Item, count: 3 }"),
                               line: 13, column: 26, containing: "Item is an abstract entity: batch-insert one")
        #expect((try? Fixture.scenario(yaml(books, steps: "- app: { batch-update: GraphicNovel, set: { pages: 1 } }"))) != nil,
                "a sub-entity without sub-entities of its own is fine")
        let synced = yaml(books, steps: "").replacingOccurrences(of: "app: { role: host }", with: "app: { role: host, sync: transfer }")
        Fixture.expectOneError(synced, line: 10, column: 39, containing: "sync of a store whose model has sub-entities")
        let versions = """
            summary: Versions.
            store:
              group: group.example.books
              name: Books
              models:
                v1: { Book: { title: string } }
                v2: { Book: { title: string }, Novel: { parent-entity: Book } }
            processes: { app: { role: host } }
            steps: [ { app: launch } ]
            """
        Fixture.expectOneError(versions, line: 7, column: 9, containing: "model versions with sub-entities are not supported yet")
    }
}
