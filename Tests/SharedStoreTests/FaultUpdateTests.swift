import Basics
import Foundation
import SharedStore
import Testing

/// Setting a value on a fault fires it first, as any property access does in Core Data: the snapshot
/// optimistic locking compares at save is the row as it was at the edit.
@Suite struct FaultUpdateTests {
    @Test func anEditOfAFaultTakesTheRowThenAndConflictsWithALaterSave() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let share = try fixture.open()
        let context = app.viewContext
        context.stalenessInterval = 0
        let id = try context.insertNote("A")
        context.refreshAllObjects()
        #expect(context.isFault(id))
        try context.setValues(["title": "FromApp"], for: id)
        #expect(!context.isFault(id), "the edit fired the fault")
        try share.update(id, ["title": "FromShare"])
        #expect {
            try context.save()
        } throws: { error in
            ErrorKind(error) == .conflict
        }
    }
}
