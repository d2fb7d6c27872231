import Basics
import Foundation
import SharedStore
import Testing

@Suite struct StoreFilesTests {
    @Test func copyWithoutWALMissesTheLatestSaveAndCopyAfterCheckpointDoesNot() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let first = try app.viewContext.insert("Note", values: ["title": "A"])
        let firstSave = try app.viewContext.save()
        try app.checkpoint()
        try app.viewContext.setValues(["title": "B"], for: firstSave.permanentIDs[first]!)
        let secondSave = try app.viewContext.save()
        let committed = (firstSave.changes + secondSave.changes).map(ExpectedCommit.init)

        let backup = fixture.directory.url.appendingPathComponent("backup/Notes.sqlite")
        try app.copyStore(to: backup, includeWAL: false)
        let missing = try StoreFiles.verify(backup, model: fixture.model, committed: committed)
        #expect(missing.count == 1)
        #expect(missing.first?.found == 1 && missing.first?.expected.version == 2)

        try app.copyStore(to: backup, includeWAL: true)
        #expect(try StoreFiles.verify(backup, model: fixture.model, committed: committed).isEmpty)

        try app.checkpoint()
        try app.copyStore(to: backup, includeWAL: false)
        #expect(try StoreFiles.verify(backup, model: fixture.model, committed: committed).isEmpty)

        let copy = try fixture.open(readOnly: true, url: backup)
        #expect(try copy.viewContext.title(firstSave.permanentIDs[first]!) == "B")
        try copy.viewContext.insert("Note", values: ["title": "C"])
        #expect(throws: SaveError.self) { try copy.viewContext.save() }
    }

    @Test func checkpointIsBusyWhileAnotherConnectionHoldsAGeneration() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open(busyTimeout: .milliseconds(30))
        let share = try fixture.open(busyTimeout: .milliseconds(30))
        _ = try share.viewContext.insertNote("A")
        try app.viewContext.pinQueryGeneration()
        _ = try app.viewContext.fetch(FetchRequest(entity: "Note"))
        _ = try share.viewContext.insertNote("B")
        #expect {
            try share.checkpoint()
        } throws: { error in
            ErrorKind(error) == .busy
        }
        app.viewContext.unpinQueryGeneration()
        try share.checkpoint()
    }

    /// A store opened read-only cannot be checkpointed (SQLite cannot write the file nor truncate the WAL,
    /// and failed with SQLITE_IOERR_TRUNCATE, a harness error): the process is told its store is read-only.
    @Test func aReadOnlyStoreRefusesACheckpointAsReadOnly() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        _ = try app.viewContext.insertNote("A")
        let reader = try fixture.open(readOnly: true)
        #expect {
            try reader.checkpoint()
        } throws: { error in
            ErrorKind(error) == .readOnly
        }
        try app.checkpoint()
    }
}
