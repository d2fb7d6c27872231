import Foundation
import SharedStore
import Testing

/// A sync interrupted at each stage (the hook throws, as the runner's SIGKILL would stop it there) leaves
/// both stores consistent, and the next sync completes.
@Suite struct SyncCrashTests {
    struct Crash: Error {}

    @Test(arguments: [SyncStage.exported, .beforeCommit])
    func aSyncInterruptedInsideItsTransactionChangesNothing(stage: SyncStage) throws {
        let world = try SyncWorld()
        let phone = try world.peer("phone")
        let watch = try world.peer("watch")
        try watch.sync()
        try phone.insert("Note", ["title": "A"])
        try phone.sync()
        try watch.insert("Note", ["title": "W"])

        watch.ensemble.interruption = { if $0 == stage { throw Crash() } }
        #expect(throws: SyncError.self) { try watch.sync() }
        try watch.relaunch()

        // Neither the import nor the export happened.
        #expect(try watch.rows("Note") == ["body=nil created=nil pinned=false rank=0 score=0.0 title=W uid=nil"])
        #expect(try world.transfer.list().count == 1)

        let result = try watch.sync()
        #expect(result.importedFiles.count == 1)
        #expect(result.exportedObjects == 1)
        try phone.sync()
        #expect(try phone.count("Note") == 2)
        #expect(try watch.rows("Note") == phone.rows("Note"))
    }

    @Test func aSyncInterruptedAfterCommitWritesItsExportNextTime() throws {
        let world = try SyncWorld()
        let phone = try world.peer("phone")
        let watch = try world.peer("watch")
        try watch.sync()
        try phone.sync()
        try phone.insert("Note", ["title": "A"])

        phone.ensemble.interruption = { if $0 == .beforeUpload { throw Crash() } }
        #expect(throws: SyncError.self) { try phone.sync() }
        try phone.relaunch()

        // Committed (the export token moved on) but not written: the watch sees nothing yet.
        #expect(try watch.sync().importedFiles.isEmpty)
        let next = try phone.sync()
        #expect(next.exportedObjects == 0)
        #expect(next.exportedFiles.count == 1)
        #expect(try watch.sync().importedFiles == next.exportedFiles)
        #expect(try watch.rows("Note") == phone.rows("Note"))
    }

    @Test func anInterruptedLeechCanBeRedone() throws {
        let world = try SyncWorld()
        let phone = try world.peer("phone")
        try phone.insert("Note", ["title": "A"])
        phone.ensemble.interruption = { if $0 == .beforeCommit { throw Crash() } }
        #expect(throws: SyncError.self) { try phone.ensemble.leech() }
        try phone.relaunch()
        #expect(!phone.ensemble.isLeeched)
        #expect(try phone.ensemble.leech().exportedObjects == 1)
    }
}
