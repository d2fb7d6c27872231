import Foundation
import SharedStore
import Testing

@Suite struct MergeTests {
    @Test func remoteMergeDropsSnapshotsAndShowsInsertsAndDeletes() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let share = try fixture.open()
        let context = app.viewContext
        let kept = try context.insertNote("A")
        let doomed = try context.insertNote("D")
        _ = try context.title(kept)

        let remote = share.newBackgroundContext()
        try remote.setValues(["title": "B"], for: kept)
        try remote.delete(doomed)
        let inserted = try remote.insert("Note", values: ["title": "N"])
        let result = try remote.save()
        let newID = result.permanentIDs[inserted]!

        #expect(try context.title(kept) == "A", "before the merge: the cached value")
        context.mergeChanges(fromRemoteContextSave: RemoteChanges(inserted: [newID], updated: [kept], deleted: [doomed]))
        #expect(context.isFault(kept))
        #expect(try context.title(kept) == "B", "after the merge: read from SQL even at staleness -1")
        #expect(context.viewObjects(entity: "Note") == [kept, newID])
        #expect(try context.title(newID) == "N")
        #expect(fixture.recorded.contains { event in
            if case .snapshotDropped(let object, .remoteMerge) = event { return object == kept }
            return false
        })
    }

    @Test func mergingAnInsertOfARegisteredObjectKeepsWhatItHolds() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let share = try fixture.open()
        let context = app.viewContext
        let id = try context.insertNote("A")
        _ = try context.title(id)
        try share.update(id, ["title": "B"])

        // The app's own insert comes back from history as an insert: the object is already registered.
        context.mergeChanges(fromRemoteContextSave: RemoteChanges(inserted: [id]))
        #expect(!context.isFault(id))
        #expect(try context.title(id) == "A", "an inserted ID does not refresh a registered object")
        #expect(context.viewObjects(entity: "Note") == [id])
    }

    @Test func automaticMergeCoversOnlyThisProcesssContexts() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let share = try fixture.open()
        let context = app.viewContext
        context.automaticallyMergesChangesFromParent = true
        let id = try context.insertNote("A")
        _ = try context.title(id)

        try share.update(id, ["title": "other process"])
        #expect(try context.title(id) == "A", "another process's save never merges automatically")

        let background = app.newBackgroundContext()
        background.mergePolicy = .objectTrump
        try background.setValues(["title": "same process"], for: id)
        try background.save()
        #expect(try context.title(id) == "same process")
    }

    @Test func didSaveMergeWithoutAutomaticMergingIsExplicit() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let context = app.viewContext
        let id = try context.insertNote("A")
        _ = try context.title(id)
        var events: [DidSaveEvent] = []
        app.addDidSaveObserver { events.append($0) }
        let background = app.newBackgroundContext()
        try background.setValues(["title": "B"], for: id)
        let inserted = try background.insert("Note", values: ["title": "C"])
        let result = try background.save()
        #expect(try context.title(id) == "A")
        #expect(events.count == 1)
        context.mergeChanges(fromContextDidSave: events[0])
        #expect(try context.title(id) == "B")
        #expect(context.viewContains(result.permanentIDs[inserted]!))
    }

    @Test func existingObjectRegistersAndShowsTheObject() throws {
        let fixture = try StoreFixture()
        let share = try fixture.open()
        let id = try share.viewContext.insertNote("A")
        let app = try fixture.open()
        let context = app.viewContext
        #expect(!context.isRegistered(id))
        try context.existingObject(with: id)
        #expect(context.isRegistered(id))
        #expect(context.viewObjects(entity: "Note") == [id])
    }

    @Test func saveAssignsPermanentIDsAndBumpsVersions() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let context = app.viewContext
        let temporary = try context.insert("Note", values: ["title": "A"])
        #expect(temporary.isTemporary)
        let first = try context.save()
        let id = try #require(first.permanentIDs[temporary])
        #expect(!id.isTemporary && id.primaryKey == 1)
        #expect(context.viewObjects(entity: "Note") == [id])
        #expect(first.changes.first?.version == 1)
        try context.setValues(["title": "B"], for: id)
        let second = try context.save()
        #expect(second.changes.map(\.version) == [2])
        #expect(second.changes.first?.values["title"] == "B")
        let other = try fixture.open().viewContext
        let next = try other.insert("Note", values: ["title": "C"])
        #expect(try other.save().permanentIDs[next]?.primaryKey == 2, "keys come from Z_PRIMARYKEY.Z_MAX")
    }

    @Test func relationshipsRoundTripThroughTheStore() throws {
        let fixture = try StoreFixture()
        let context = try fixture.open().viewContext
        let note = try context.insert("Note", values: ["title": "A"])
        let tag = try context.insert("Tag", values: ["name": "t"])
        try context.relate(note, to: tag, via: "tags")
        let result = try context.save()
        let noteID = result.permanentIDs[note]!, tagID = result.permanentIDs[tag]!
        let other = try fixture.open().viewContext
        #expect(try other.relatedObjects(of: noteID, via: "tags") == [tagID])
        #expect(try other.relatedObjects(of: tagID, via: "note") == [noteID])
        try other.unrelate(noteID, from: tagID, via: "tags")
        try other.save()
        #expect(try fixture.open().viewContext.relatedObjects(of: noteID, via: "tags").isEmpty)
    }

    @Test func beforeCommitHookRunsAfterStatementsAndBeforeCommit() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let observer = try fixture.open()
        var seenInside: Int?
        app.beforeCommit = { event in
            #expect(event.inserted == 1)
            seenInside = (try? observer.viewContext.fetch(FetchRequest(entity: "Note")))?.count
        }
        _ = try app.viewContext.insertNote("A")
        #expect(seenInside == 0, "another connection does not see the save before COMMIT")
        #expect(try observer.viewContext.fetch(FetchRequest(entity: "Note")).count == 1)
    }
}
