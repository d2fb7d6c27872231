import Basics
import Foundation
import SharedStore
import Testing

/// Delete rules as `NSDeleteRule` documents them ("Core Data Programming Guide: Relationships and Fetched
/// Properties"): cascade deletes the destination objects too, deny refuses a save that deletes an object
/// still holding some, nullify (the default) clears the inverse, no action leaves it pointing at the
/// deleted object.
@Suite struct DeleteRuleTests {
    /// Folder.notes (to-many) and Note.folder (to-one), each other's inverse; `rule` on Folder.notes.
    private func fixture(_ rule: DeleteRule) throws -> StoreFixture {
        try StoreFixture(model: Model(ModelDescription(entities: [
            EntityDescription(name: "Folder", attributes: [AttributeDescription(name: "name", type: .string)],
                              relationships: [RelationshipDescription(name: "notes", destination: "Note", isToMany: true,
                                                                      inverse: "folder", deleteRule: rule)]),
            EntityDescription(name: "Note", attributes: [AttributeDescription(name: "title", type: .string)],
                              relationships: [RelationshipDescription(name: "folder", destination: "Folder", isToMany: false)]),
        ])))
    }

    /// A folder holding two saved notes; returns the permanent ids.
    private func folderWithTwoNotes(_ store: StoreCoordinator) throws -> (folder: ObjectID, notes: [ObjectID]) {
        let context = store.viewContext
        let folder = try context.insert("Folder", values: ["name": "Work"])
        let a = try context.insert("Note", values: ["title": "a"]), b = try context.insert("Note", values: ["title": "b"])
        try context.relate(a, to: folder, via: "folder")
        try context.relate(b, to: folder, via: "folder")
        let ids = try context.save().permanentIDs
        return (ids[folder]!, [ids[a]!, ids[b]!])
    }

    private func rows(_ store: StoreCoordinator, _ entity: String) throws -> Int {
        try store.newBackgroundContext(name: "check").fetch(FetchRequest(entity: entity)).count
    }

    @Test func cascadeDeletesTheNotesWithTheirFolderInOneSave() throws {
        let fixture = try fixture(.cascade)
        let app = try fixture.open(history: true), widget = try fixture.open(history: true)
        let (folder, _) = try folderWithTwoNotes(app)
        try app.viewContext.delete(folder)
        let saved = try app.viewContext.save()
        #expect(saved.deleted.count == 3, "the folder and both notes")
        #expect(try rows(widget, "Note") == 0)
        #expect(try rows(widget, "Folder") == 0)
    }

    @Test func cascadeReachesUnsavedNotesToo() throws {
        let fixture = try fixture(.cascade)
        let app = try fixture.open()
        let (folder, _) = try folderWithTwoNotes(app)
        let context = app.viewContext
        let c = try context.insert("Note", values: ["title": "c"])
        try context.relate(c, to: folder, via: "folder")
        try context.delete(folder)
        try context.save()
        #expect(try rows(app, "Note") == 0)
    }

    @Test func nullifyKeepsTheNotesAndClearsTheirFolder() throws {
        let fixture = try fixture(.nullify)
        let app = try fixture.open()
        let (folder, notes) = try folderWithTwoNotes(app)
        try app.viewContext.delete(folder)
        try app.viewContext.save()
        let check = app.newBackgroundContext(name: "check")
        #expect(try rows(app, "Note") == 2)
        #expect(try check.relatedObjects(of: notes[0], via: "folder").isEmpty)
    }

    @Test func denyFailsTheSaveWhileTheFolderHoldsNotesAndWritesNothing() throws {
        let fixture = try fixture(.deny)
        let app = try fixture.open()
        let (folder, notes) = try folderWithTwoNotes(app)
        let context = app.viewContext
        try context.delete(folder)
        #expect {
            try context.save()
        } throws: { error in
            guard case SaveError.store(.deleteDenied(let id, let relationship, let held)) = error else { return false }
            return id == folder && relationship == "notes" && held == 2 && ErrorKind(error) == .validation
        }
        #expect(try rows(app, "Folder") == 1, "nothing was written")
        // Emptied first (both notes deleted in the same save), the folder may go.
        context.rollback()
        for note in notes { try context.delete(note) }
        try context.delete(folder)
        try context.save()
        #expect(try rows(app, "Folder") == 0)
    }

    @Test func noActionLeavesTheNotesPointingAtTheDeletedFolder() throws {
        let fixture = try fixture(.noAction)
        let app = try fixture.open()
        let (folder, notes) = try folderWithTwoNotes(app)
        try app.viewContext.delete(folder)
        try app.viewContext.save()
        let check = app.newBackgroundContext(name: "check")
        #expect(try rows(app, "Note") == 2)
        #expect(try check.relatedObjects(of: notes[0], via: "folder") == [folder], "the key still names the deleted row")
    }

    @Test func aDeleteRuleIsNotPartOfTheVersionHash() throws {
        #expect(try fixture(.cascade).model.versionHash == fixture(.nullify).model.versionHash)
    }
}
