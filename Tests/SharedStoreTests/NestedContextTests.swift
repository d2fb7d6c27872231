import Foundation
import SharedStore
import Testing

/// Child contexts (`newChildContext(name:)`): reads through the parent, saves one store up.
@Suite struct NestedContextTests {
    @Test func aChildFiresFromItsParentsUnsavedValues() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let view = app.viewContext
        let id = try view.insertNote("A")
        try view.setValues(["title": "edited, unsaved"], for: id)

        let editor = view.newChildContext(name: "editor")
        #expect(try editor.title(id) == "edited, unsaved", "the parent's pending change, not the store's row")
        #expect(fixture.recorded.contains { event in
            if case .faultFulfilled(let object, .parentContext, _, "editor") = event { return object == id }
            return false
        })
        #expect(try app.newBackgroundContext().title(id) == "A", "nothing reached the store")
    }

    @Test func aChildsSaveReachesOnlyItsParentUntilTheParentSaves() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let share = try fixture.open()
        let view = app.viewContext
        let id = try view.insertNote("A")
        let editor = view.newChildContext(name: "editor")
        try editor.setValues(["title": "B"], for: id)
        let inserted = try editor.insert("Note", values: ["title": "new"])

        let result = try editor.save()
        #expect(result.savedInto == "viewContext")
        #expect(result.historyToken == nil)
        #expect(!editor.hasChanges)
        #expect(view.hasChanges, "the parent holds the child's changes as its own")
        #expect(try view.title(id) == "B")
        #expect(view.insertedObjects == [inserted])
        #expect(view.viewContains(inserted), "the parent's screen shows the pushed insert")
        #expect(try share.newBackgroundContext().title(id) == "A", "the store is untouched")

        let saved = try view.save()
        let permanent = try #require(saved.permanentIDs[inserted])
        let reader = try fixture.open().viewContext
        #expect(try reader.title(id) == "B")
        #expect(try reader.title(permanent) == "new")
        #expect(editor.isRegistered(permanent), "the child follows its object to the permanent ID")
        #expect(try editor.title(permanent) == "new")
    }

    @Test func aChildsFetchSeesItsParentsUnsavedInsertsEditsAndDeletes() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let view = app.viewContext
        let kept = try view.insertNote("keep", rank: 1)
        let doomed = try view.insertNote("doomed", rank: 2)
        let renamed = try view.insertNote("old", rank: 3)
        try view.delete(doomed)
        try view.setValues(["title": "new"], for: renamed)
        let added = try view.insert("Note", values: ["title": "added", "rank": 4])

        let editor = view.newChildContext(name: "editor")
        let all = try editor.fetch(FetchRequest(entity: "Note", sort: "rank"))
        #expect(all == [kept, renamed, added])
        #expect(try editor.fetch(FetchRequest(entity: "Note", predicate: "title == 'new'")) == [renamed])
        #expect(try editor.title(added) == "added", "a parent's unsaved insert fires in the child")
        #expect(view.viewObjects(entity: "Note").count == 3, "the child's fetch leaves the parent's view alone")
    }

    @Test func aChildKeepsWhatItReadUntilItsObjectFiresAgain() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let view = app.viewContext
        let id = try view.insertNote("A")
        let editor = view.newChildContext(name: "editor")
        #expect(try editor.title(id) == "A")

        try view.setValues(["title": "B"], for: id)
        try view.save()
        #expect(try editor.title(id) == "A", "a parent's save does not reach a child that does not merge")
        editor.refresh(id, mergeChanges: true)
        #expect(try editor.title(id) == "B", "refreshed, it fires from the parent again")

        let merging = view.newChildContext(name: "merging")
        merging.automaticallyMergesChangesFromParent = true
        #expect(try merging.title(id) == "B")
        try view.setValues(["title": "C"], for: id)
        #expect(try merging.title(id) == "B", "an unsaved parent change is not merged")
        try view.save()
        #expect(try merging.title(id) == "C", "the parent's save is")
    }

    @Test func aStaleChildOverwritesWithoutAConflict() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let share = try fixture.open()
        let view = app.viewContext
        let id = try view.insertNote("A")
        let editor = view.newChildContext(name: "editor")
        #expect(try editor.title(id) == "A")

        try share.update(id, ["title": "from the share extension"])
        view.mergeChanges(fromRemoteContextSave: RemoteChanges(updated: [id]))
        #expect(try view.title(id) == "from the share extension")

        try editor.setValues(["title": "typed in the editor"], for: id)
        try editor.save()
        let saved = try view.save()
        #expect(saved.conflicts.isEmpty, "the parent's version is current: nothing to detect")
        #expect(try fixture.open().viewContext.title(id) == "typed in the editor")
    }

    @Test func aChildsToManyAndDeletesGoThroughItsParent() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let view = app.viewContext
        let note = try view.insertNote("A")
        let tag = try view.insert("Tag", values: ["name": "work"])
        try view.relate(note, to: tag, via: "tags")

        let editor = view.newChildContext(name: "editor")
        #expect(try editor.relatedObjects(of: note, via: "tags") == [tag], "the parent's unsaved relate")
        try editor.unrelate(note, from: tag, via: "tags")
        try editor.delete(note)
        try editor.save()
        #expect(view.deletedObjects == [note])
        try view.save()
        let reader = app.newBackgroundContext()
        #expect(try reader.fetch(FetchRequest(entity: "Note")).isEmpty)
        #expect(try reader.fetch(FetchRequest(entity: "Tag")).count == 1)
    }

    @Test func aChildsSaveFailsWholeWhenTheParentDeletedAnObjectItChanged() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let view = app.viewContext
        let id = try view.insertNote("A")
        let editor = view.newChildContext(name: "editor")
        _ = try editor.insert("Note", values: ["title": "new"])
        try editor.setValues(["title": "B"], for: id)
        try view.delete(id)

        #expect(throws: SaveError.self) { try editor.save() }
        #expect(view.insertedObjects.isEmpty, "nothing moved")
        #expect(editor.hasChanges)
    }

    @Test func nestedChildrenReadThroughEveryAncestor() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let view = app.viewContext
        let inserted = try view.insert("Note", values: ["title": "in the view"])
        let middle = view.newChildContext(name: "middle")
        try middle.setValues(["title": "in the middle"], for: inserted)
        let leaf = middle.newChildContext(name: "leaf")
        #expect(leaf.canReach(inserted))
        #expect(try leaf.title(inserted) == "in the middle")
        try leaf.setValues(["title": "in the leaf"], for: inserted)
        try leaf.save()
        #expect(try view.title(inserted) == "in the view", "one level up only")
        try middle.save()
        #expect(try view.title(inserted) == "in the leaf")
    }
}

/// A child goes on editing what it pushed after its parent saved it, and a merging grandchild takes a push.
@Suite struct NestedContextFollowUpTests {
    @Test func editsAndDeletesOfAPushedInsertFollowItsPermanentID() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let view = app.viewContext
        let editor = view.newChildContext(name: "editor")
        let note = try editor.insert("Note", values: ["title": "Draft"])
        let gone = try editor.insert("Note", values: ["title": "Gone"])
        try editor.save()
        try editor.setValues(["title": "Edited"], for: note)
        try editor.delete(gone)
        let saved = try view.save()
        #expect(editor.hasChanges, "the pending edit and delete are still the child's")
        try editor.save()
        try view.save()
        let reader = try fixture.open().viewContext
        let rows = try reader.fetch(FetchRequest(entity: "Note"))
        #expect(rows == [saved.permanentIDs[note]!])
        #expect(try reader.title(rows[0]) == "Edited")
    }

    @Test func aMergingGrandchildFiresAgainFromItsParentAfterAPush() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let view = app.viewContext
        let id = try view.insertNote("Draft")
        let editor = view.newChildContext(name: "editor")
        let sheet = editor.newChildContext(name: "sheet")
        sheet.automaticallyMergesChangesFromParent = true
        let other = editor.newChildContext(name: "other")
        #expect(try sheet.title(id) == "Draft")
        try other.setValues(["title": "Edited"], for: id)
        try other.save()
        #expect(try sheet.title(id) == "Draft", "a sibling's push into the parent is not the parent's save")
        try editor.save()
        #expect(try sheet.title(id) == "Edited", "the parent's save, taken from the parent, not the old row")
    }
}

/// Deleting an unsaved insert leaves no reference to its temporary key for a save to write.
@Suite struct DeletedInsertTests {
    @Test func objectsPointingAtADeletedInsertLoseIt() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let view = app.viewContext
        let note = try view.insert("Note", values: ["title": "A"])
        let tag = try view.insert("Tag", values: ["name": "t"])
        try view.relate(note, to: tag, via: "tags")
        try view.delete(note)
        try view.save()
        let raw = try SQLiteConnection(path: fixture.url.path, readOnly: true)
        #expect(try raw.scalarInt("SELECT count(*) FROM ZTAG WHERE ZNOTE IS NOT NULL") == 0, "no temporary key saved")
        #expect(try raw.scalarInt("SELECT count(*) FROM ZTAG") == 1)
    }

    @Test func aChildDeletingItsParentsInsertLeavesNoTemporaryKey() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let view = app.viewContext
        let tag = try view.insert("Tag", values: ["name": "t"])
        let note = try view.insert("Note", values: ["title": "A"])
        try view.relate(note, to: tag, via: "tags")
        let editor = view.newChildContext(name: "editor")
        try editor.delete(tag)
        try editor.save()
        try view.save()
        let raw = try SQLiteConnection(path: fixture.url.path, readOnly: true)
        #expect(try raw.scalarInt("SELECT count(*) FROM ZTAG") == 0)
        #expect(try raw.scalarInt("SELECT count(*) FROM ZNOTE") == 1)
        #expect(try raw.scalarInt("SELECT min(Z_PK) FROM ZNOTE") ?? 0 > 0)
    }
}
