import Basics
import Foundation
import SharedStore
import Testing

/// A required to-one relationship (`owner: Person`, not optional) must hold an object when its object is
/// saved: Core Data's `validateForInsert()`/`validateForUpdate()` fail the save with
/// NSValidationMissingMandatoryPropertyError (Cocoa error 1570), and nothing is written. The classic
/// way to meet it: deleting the destination nullifies the required side, and the next save fails.
@Suite struct MandatoryRelationshipTests {
    /// Folder.notes (to-many, nullify) and Note.folder (to-one, required), each other's inverse.
    private func fixture() throws -> StoreFixture {
        try StoreFixture(model: Model(ModelDescription(entities: [
            EntityDescription(name: "Folder", attributes: [AttributeDescription(name: "name", type: .string)],
                              relationships: [RelationshipDescription(name: "notes", destination: "Note", isToMany: true, inverse: "folder")]),
            EntityDescription(name: "Note", attributes: [AttributeDescription(name: "title", type: .string)],
                              relationships: [RelationshipDescription(name: "folder", destination: "Folder", isToMany: false, isOptional: false)]),
        ])))
    }

    private func isMissing(_ relationship: String) -> (any Error) -> Bool {
        { error in
            guard let inner = (error as? SaveError)?.storeError, inner.code == .missingMandatory else { return false }
            return "\(inner)".contains("its relationship `\(relationship)` is required") && ErrorKind(error) == .validation
        }
    }

    /// A folder holding one note, saved; their permanent ids.
    private func savedNoteInFolder(_ context: ObjectContext) throws -> (folder: ObjectID, note: ObjectID) {
        let folder = try context.insert("Folder", values: ["name": "Work"])
        let note = try context.insert("Note", values: ["title": "a"])
        try context.relate(note, to: folder, via: "folder")
        let ids = try context.save().permanentIDs
        return (ids[folder]!, ids[note]!)
    }

    private func rows(_ store: StoreCoordinator, _ entity: String) throws -> Int {
        try store.newBackgroundContext(name: "check").fetch(FetchRequest(entity: entity)).count
    }

    @Test func anInsertWithoutItsRequiredToOneFailsTheSaveAndWritesNothing() throws {
        let fixture = try fixture()
        let store = try fixture.open(history: true)
        let context = store.viewContext
        let note = try context.insert("Note", values: ["title": "Orphan"])
        _ = try context.insert("Folder", values: ["name": "Work"])
        #expect(performing: { try context.save() }, throws: isMissing("folder"))
        #expect(try rows(store, "Folder") == 0, "nothing of the save was written")
        // Related, it saves.
        let folder = try context.insert("Folder", values: ["name": "Home"])
        try context.relate(note, to: folder, via: "folder")
        try context.save()
        #expect(try rows(store, "Note") == 1)
    }

    @Test func deletingTheFolderNullifiesItsNotesRequiredFolderAndTheSaveFails() throws {
        let fixture = try fixture()
        let store = try fixture.open(history: true)
        let context = store.viewContext
        let (folder, _) = try savedNoteInFolder(context)
        try context.delete(folder)
        #expect(performing: { try context.save() }, throws: isMissing("folder"))
        #expect(try rows(store, "Folder") == 1, "the folder is still there")
    }

    @Test func anUpdateOfAnotherAttributeOfAValidObjectSaves() throws {
        let fixture = try fixture()
        let store = try fixture.open(history: true)
        let context = store.viewContext
        let (_, note) = try savedNoteInFolder(context)
        let other = store.newBackgroundContext(name: "other")
        try other.setValues(["title": "b"], for: try other.existingObject(with: note))
        try other.save()
        #expect(try rows(store, "Note") == 1)
    }
}
