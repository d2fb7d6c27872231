import Basics
import Foundation
import SharedStore
import Testing
import TestSupport

/// Two real OS processes on one store file: this test process and `testpeer store`.
@Suite(.serialized, .spawnsProcesses) struct CrossProcessTests {
    struct PeerRun {
        let status: Int32
        let reason: Process.TerminationReason
        let output: String
    }

    /// Runs `testpeer store <file> <arguments>` to completion.
    static func peer(_ url: URL, _ arguments: [String]) throws -> PeerRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.executable("testpeer"))
        process.arguments = ["store", url.path] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return PeerRun(status: process.terminationStatus, reason: process.terminationReason,
                       output: String(decoding: data, as: UTF8.self))
    }

    @Test func anotherProcesssUpdateIsInvisibleUntilTheCacheExpires() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let context = app.viewContext
        let id = try context.insertNote("A")
        #expect(try context.title(id) == "A")

        let run = try Self.peer(fixture.url, ["update", "\(id.primaryKey)", "title=B"])
        #expect(run.status == 0)
        #expect(run.output.contains("saved update Note \(id.primaryKey) v2"))

        context.refreshAllObjects()
        #expect(try context.title(id) == "A", "staleness -1: the row cache still answers")
        context.stalenessInterval = 0
        context.refreshAllObjects()
        #expect(try context.title(id) == "B")
    }

    @Test func anotherProcesssInsertAppearsAfterARefetch() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        _ = try app.viewContext.fetch(FetchRequest(entity: "Note"))
        let run = try Self.peer(fixture.url, ["insert", "Note", "title=M", "rank=3"])
        #expect(run.output.contains("inserted Note 1"))
        #expect(app.viewContext.viewObjects(entity: "Note").isEmpty, "bug 3: the list never learns of it")
        let ids = try app.viewContext.fetch(FetchRequest(entity: "Note"))
        #expect(try ids.map { try app.viewContext.title($0) } == ["M"])
    }

    @Test func aWriteLockHeldByAnotherProcessMakesSavesBusy() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open(busyTimeout: .milliseconds(50))
        _ = try app.viewContext.insertNote("A")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.executable("testpeer"))
        process.arguments = ["store", fixture.url.path, "hold-write", "1500"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        defer { process.waitUntilExit() }
        // Peer                 | App
        // BEGIN IMMEDIATE      |
        // prints "holding"     |
        //                      | save -> busy after 50 ms
        // COMMIT after 1.5 s   |
        let line = String(decoding: pipe.fileHandleForReading.availableData, as: UTF8.self)
        #expect(line.hasPrefix("holding"))
        try app.viewContext.setValues(["title": "B"], for: app.viewContext.view[0])
        #expect {
            try app.viewContext.save()
        } throws: { error in
            ErrorKind(error) == .busy
        }
    }

    @Test func aProcessKilledInsideItsSaveCommitsNothing() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        _ = try app.viewContext.insertNote("A")
        let run = try Self.peer(fixture.url, ["crash-in-save", "+", "insert", "Note", "title=X", "+", "save"])
        #expect(run.reason == .uncaughtSignal)
        let titles = try app.viewContext.fetch(FetchRequest(entity: "Note")).map { try app.viewContext.title($0) }
        #expect(titles == ["A"])
        let next = try app.viewContext.insertNote("B")
        #expect(next.primaryKey == 2, "the killed save's primary keys were rolled back with it")
    }
}
