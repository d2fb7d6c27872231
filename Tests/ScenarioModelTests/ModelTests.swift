import Basics
import Foundation
@testable import ScenarioModel
import Testing

@Suite struct ModelTests {
    private func model(_ entities: String) throws -> ModelDescription {
        try Fixture.scenario(Fixture.yaml(model: entities)).store.model
    }

    @Test func anAttributeMayBeAUniquenessConstraint() throws {
        let decoded = try model("""
            Tag:
              name: string unique
              code: int? unique
              color: string unique = red
              note: string
            """)
        let attributes = try #require(decoded.entity(named: "Tag")).attributes
        #expect(attributes.map(\.isUnique) == [true, true, true, false])
        #expect(attributes[1].isOptional && attributes[2].defaultValue == .string("red"))
        #expect(PropertyDeclaration.parse("Tag unique", entityNames: ["Tag"]) == .failure(.init(message: "only an attribute can be unique; 'Tag' is not an attribute type.")))
    }

    @Test func inverseIsInferredOnlyWhenUnambiguous() throws {
        let decoded = try model("""
            Folder:
              notes: [Note]
              pinnedNotes: [Note]
              owner: Person
            Note:
              folder: Folder?
            Person:
              folders: "[Folder]"
            """)
        let folder = try #require(decoded.entity(named: "Folder"))
        #expect(folder.relationship(named: "notes")?.inverse == nil)
        #expect(folder.relationship(named: "pinnedNotes")?.inverse == nil)
        #expect(folder.relationship(named: "owner") == RelationshipDescription(
            name: "owner", destination: "Person", isToMany: false, isOptional: false, inverse: "folders"))
        #expect(decoded.entity(named: "Note")?.relationship(named: "folder")?.inverse == nil)
        #expect(decoded.entity(named: "Person")?.relationship(named: "folders")?.inverse == "owner")
    }

    @Test func defaultsAreTypedAndQuotedStringsUnquoted() throws {
        let decoded = try model("""
            Note:
              title: string = "Untitled"
              rank: int = 3
              score: double? = 0.5
              when: date = 2024-05-01
              body: string? = null
            """)
        let note = try #require(decoded.entity(named: "Note"))
        #expect(note.attribute(named: "title")?.defaultValue == .string("Untitled"))
        #expect(note.attribute(named: "rank")?.defaultValue == .int(3))
        #expect(note.attribute(named: "score") == AttributeDescription(name: "score", type: .double, isOptional: true,
                                                                 defaultValue: .double(0.5)))
        #expect(note.attribute(named: "when")?.defaultValue == Value.parseDate("2024-05-01").map(Value.date))
        #expect(note.attribute(named: "body")?.defaultValue == nil)
    }

    @Test func valuesForInsertFillDefaultsNullsZerosAndDerivedUUIDs() throws {
        let decoded = try model("""
            Note:
              title: string
              body: string?
              pinned: bool = true
              rank: int
              uid: uuid
            """)
        let note = try #require(decoded.entity(named: "Note"))
        let values = note.valuesForInsert(objectID: "n1", explicit: ["title": .string("A")])
        #expect(values["title"] == .string("A"))
        #expect(values["body"] == .null)
        #expect(values["pinned"] == .bool(true))
        #expect(values["rank"] == .int(0))
        #expect(values["uid"] == Value.derivedUUID(objectID: "n1", attribute: "uid"))
        #expect(Value.derivedUUID(objectID: "n1", attribute: "uid") != Value.derivedUUID(objectID: "n2", attribute: "uid"))
    }

    @Test func derivedUUIDIsAFixedVersion4UUID() {
        guard case let .uuid(uuid) = Value.derivedUUID(objectID: "n1", attribute: "uid") else {
            Issue.record("expected a UUID")
            return
        }
        #expect(uuid.uuidString.dropFirst(14).first == "4")
        #expect(Value.derivedUUID(objectID: "n1", attribute: "uid") == .uuid(uuid))
    }
}
