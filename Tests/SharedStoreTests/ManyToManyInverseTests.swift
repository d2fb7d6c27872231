import Basics
import Foundation
import SharedStore
import Testing

/// A many-to-many keeps its inverse in memory at once, as Core Data's does ("you only need to change one
/// end of a relationship"): relating or unrelating from one side changes the other side's to-many before
/// any save, and the save writes the one join row either side names. Found by probing relationship
/// fidelity: the other side changed only after a save.
@Suite struct ManyToManyInverseTests {
    private func fixture() throws -> StoreFixture {
        try StoreFixture(model: Model(ModelDescription(entities: [
            EntityDescription(name: "Note", attributes: [AttributeDescription(name: "title", type: .string)],
                              relationships: [RelationshipDescription(name: "tags", destination: "Tag", isToMany: true, inverse: "notes")]),
            EntityDescription(name: "Tag", attributes: [AttributeDescription(name: "name", type: .string)],
                              relationships: [RelationshipDescription(name: "notes", destination: "Note", isToMany: true, inverse: "tags")]),
        ])))
    }

    @Test func relatingFromEitherSideShowsOnTheOtherBeforeTheSave() throws {
        let fixture = try fixture()
        let app = try fixture.open()
        let context = app.viewContext
        let note = try context.insert("Note", values: ["title": "a"]), tag = try context.insert("Tag", values: ["name": "x"])
        try context.relate(tag, to: note, via: "notes")
        #expect(try context.relatedObjects(of: note, via: "tags") == [tag], "unsaved, from the other side")
        let ids = try context.save().permanentIDs
        let (savedNote, savedTag) = (ids[note]!, ids[tag]!)
        #expect(try context.relatedObjects(of: savedNote, via: "tags") == [savedTag])
        // Unrelating from the note's side empties the tag's side at once.
        try context.unrelate(savedNote, from: savedTag, via: "tags")
        #expect(try context.relatedObjects(of: savedTag, via: "notes").isEmpty)
        try context.save()
        let check = try fixture.open().newBackgroundContext(name: "check")
        #expect(try check.relatedObjects(of: savedTag, via: "notes").isEmpty)
        #expect(try check.relatedObjects(of: savedNote, via: "tags").isEmpty)
    }

    @Test func bothSidesNamingOneJoinRowSaveOneRow() throws {
        let fixture = try fixture()
        let app = try fixture.open()
        let context = app.viewContext
        let note = try context.insert("Note", values: ["title": "a"]), tag = try context.insert("Tag", values: ["name": "x"])
        try context.relate(note, to: tag, via: "tags")
        try context.relate(tag, to: note, via: "notes")
        let ids = try context.save().permanentIDs
        let check = try fixture.open().newBackgroundContext(name: "check")
        #expect(try check.relatedObjects(of: ids[note]!, via: "tags") == [ids[tag]!])
        #expect(try check.relatedObjects(of: ids[tag]!, via: "notes") == [ids[note]!])
    }
}
