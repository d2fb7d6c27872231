import Foundation
import SharedStore
import Testing

/// What a context logs for a fetched-results controller: the objects whose changes it processed (its own
/// edits, merges, refreshes, rollbacks), as its objects-did-change notification names them; never what
/// only reached the store, nor what a fetch registered.
@Suite struct ProcessedChangesTests {
    @Test func aContextLogsWhatItProcessedAndNothingElse() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let share = try fixture.open()
        let context = app.viewContext
        let n1 = try context.insertNote("A")
        context.logsProcessedChanges = true
        #expect(context.takeProcessedChanges().isEmpty)

        // Another process's save: the store changed, this context did not.
        try share.update(n1, ["title": "B"])
        let n2 = try share.viewContext.insertNote("C")
        _ = try context.fetch(FetchRequest(entity: "Note"))
        #expect(context.takeProcessedChanges().isEmpty, "a fetch registers objects and changes none")

        // Its own edit, then a merge of the other process's changes.
        try context.setValue("D", forKey: "title", of: n1)
        #expect(context.takeProcessedChanges() == [n1])
        context.rollback()
        #expect(context.takeProcessedChanges() == [n1], "a rollback undoes the edit: the object changes again")
        context.mergeChanges(fromRemoteContextSave: RemoteChanges(inserted: [n2], updated: [n1]))
        #expect(Set(context.takeProcessedChanges()) == [n1, n2])
        context.refreshAllObjects()
        #expect(Set(context.takeProcessedChanges()) == [n1, n2], "every registered object is refreshed")
        #expect(context.takeProcessedChanges().isEmpty, "taken once")

        // Without logging, nothing is kept.
        context.logsProcessedChanges = false
        try context.setValue("E", forKey: "title", of: n1)
        #expect(context.takeProcessedChanges().isEmpty)
    }
}
