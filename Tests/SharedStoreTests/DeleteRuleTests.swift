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
            guard let inner = (error as? SaveError)?.storeError, inner.code == .deleteDenied else { return false }
            return inner.objectID == folder && "\(inner)".hasSuffix("its relationship `notes` (delete rule deny) still holds 2 objects")
                && ErrorKind(error) == .validation
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

    // A batch delete applies the rules too ("the delete rules for relationships are applied by Core Data",
    // Bart Jacobs, "Core Data and Swift: Batch Deletes", on iOS 9's NSBatchDeleteRequest), in its one
    // transaction.

    @Test func aBatchDeleteCascadesToTheNotesAndHistoryNamesThem() throws {
        let fixture = try fixture(.cascade)
        let app = try fixture.open(history: true), widget = try fixture.open(history: true)
        let (folder, notes) = try folderWithTwoNotes(app)
        let token = try widget.latestHistoryToken()
        let deleted = try app.batchDelete("Folder", where: nil)
        #expect(deleted == [folder] + notes, "the folder the predicate matched, then what it cascaded to")
        #expect(try rows(widget, "Note") == 0)
        let batch = try widget.fetchHistory(after: token).transactions
        #expect(batch.count == 1, "one transaction")
        #expect(batch.first?.changes.filter { $0.operation == .delete }.count == 3)
    }

    @Test func aBatchDeleteNullifiesTheNotesFolderAndUpdatesThem() throws {
        let fixture = try fixture(.nullify)
        let app = try fixture.open(history: true)
        let (folder, notes) = try folderWithTwoNotes(app)
        let before = app.newBackgroundContext(name: "before")
        _ = try before.values(of: notes[0])
        let version = try #require(before.version(of: notes[0]))
        let token = try app.latestHistoryToken()
        #expect(try app.batchDelete("Folder", where: nil) == [folder])
        // Another process's coordinator: the app's own row cache keeps the rows as they were (a batch
        // bypasses it, as Core Data's does).
        let check = try fixture.open().newBackgroundContext(name: "check")
        _ = try check.values(of: notes[0])
        #expect(try rows(app, "Note") == 2)
        #expect(try check.relatedObjects(of: notes[0], via: "folder").isEmpty, "the foreign key is cleared")
        #expect(check.version(of: notes[0]) == version + 1)
        let changes = try app.fetchHistory(after: token).transactions.flatMap(\.changes)
        #expect(changes.filter { $0.operation == .update }.map(\.object).sorted() == notes)
    }

    @Test func aBatchDeleteIsDeniedWhileTheFolderHoldsNotesAndWritesNothing() throws {
        let fixture = try fixture(.deny)
        let app = try fixture.open()
        let (folder, _) = try folderWithTwoNotes(app)
        #expect {
            try app.batchDelete("Folder", where: nil)
        } throws: { error in
            guard let error = error as? StoreError, error.code == .deleteDenied else { return false }
            return error.objectID == folder && "\(error)".hasSuffix("its relationship `notes` (delete rule deny) still holds 2 objects")
        }
        #expect(try rows(app, "Folder") == 1)
        // With its notes in the same batch's reach (deleted first), the folder may go.
        try app.batchDelete("Note", where: nil)
        #expect(try app.batchDelete("Folder", where: nil) == [folder])
    }

    @Test func aBatchDeleteWithNoActionLeavesTheNotesPointingAtTheDeletedFolder() throws {
        let fixture = try fixture(.noAction)
        let app = try fixture.open()
        let (folder, notes) = try folderWithTwoNotes(app)
        try app.batchDelete("Folder", where: nil)
        let check = app.newBackgroundContext(name: "check")
        #expect(try check.relatedObjects(of: notes[0], via: "folder") == [folder])
    }

    /// Note.cover and Cover.note, a one-to-one: Core Data keeps a key on both sides, so a nullify must
    /// clear the other side's key too, not only touch its row.
    private func oneToOne() throws -> (StoreFixture, ObjectID, ObjectID, StoreCoordinator) {
        let fixture = try StoreFixture(model: Model(ModelDescription(entities: [
            EntityDescription(name: "Note", attributes: [AttributeDescription(name: "title", type: .string)],
                              relationships: [RelationshipDescription(name: "cover", destination: "Cover", isToMany: false, inverse: "note")]),
            EntityDescription(name: "Cover", attributes: [AttributeDescription(name: "color", type: .string)],
                              relationships: [RelationshipDescription(name: "note", destination: "Note", isToMany: false, inverse: "cover")]),
        ])))
        let app = try fixture.open(history: true)
        let context = app.viewContext
        let note = try context.insert("Note", values: ["title": "a"]), cover = try context.insert("Cover", values: ["color": "red"])
        try context.relate(note, to: cover, via: "cover")
        let ids = try context.save().permanentIDs
        return (fixture, ids[note]!, ids[cover]!, app)
    }

    @Test func deletingOneSideOfAOneToOneClearsTheOtherSidesKey() throws {
        let (fixture, note, cover, app) = try oneToOne()
        let other = try fixture.open(history: true).newBackgroundContext(name: "share")
        try other.delete(other.existingObject(with: cover))
        try other.save()
        let check = try fixture.open().newBackgroundContext(name: "check")
        #expect(try check.relatedObjects(of: note, via: "cover").isEmpty, "the note no longer names the deleted cover")
        _ = app
    }

    @Test func aBatchDeleteOfOneSideOfAOneToOneClearsTheOtherSidesKey() throws {
        let (fixture, note, cover, app) = try oneToOne()
        #expect(try app.batchDelete("Cover", where: nil) == [cover])
        let check = try fixture.open().newBackgroundContext(name: "check")
        #expect(try check.relatedObjects(of: note, via: "cover").isEmpty, "the note no longer names the deleted cover")
    }

    /// Setting one side of a one-to-one to an object that had a partner unpairs that partner, and the
    /// object's own old partner, as Core Data's inverse maintenance does.
    @Test func pairingAOneToOneUnpairsTheFormerPartnersOfBothSides() throws {
        let (fixture, note, cover, app) = try oneToOne()
        let context = app.viewContext
        let second = try context.insert("Note", values: ["title": "b"]), spare = try context.insert("Cover", values: ["color": "blue"])
        try context.relate(second, to: spare, via: "cover")
        let ids = try context.save().permanentIDs
        let (note2, cover2) = (ids[second]!, ids[spare]!)
        let share = try fixture.open(history: true).newBackgroundContext(name: "share")
        // note2 takes note's cover: note loses it, and cover2 loses note2.
        try share.relate(share.existingObject(with: note2), to: share.existingObject(with: cover), via: "cover")
        try share.save()
        let check = try fixture.open().newBackgroundContext(name: "check")
        #expect(try check.relatedObjects(of: note, via: "cover").isEmpty)
        #expect(try check.relatedObjects(of: note2, via: "cover") == [cover])
        #expect(try check.relatedObjects(of: cover, via: "note") == [note2])
        #expect(try check.relatedObjects(of: cover2, via: "note").isEmpty)
    }

    @Test func aDeleteRuleIsNotPartOfTheVersionHash() throws {
        #expect(try fixture(.cascade).model.versionHash == fixture(.nullify).model.versionHash)
    }
}
