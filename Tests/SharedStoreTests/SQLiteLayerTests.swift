import Basics
import Foundation
import SharedStore
import Testing
import TestSupport

@Suite struct SQLiteLayerTests {
    @Test func busyIsATypedErrorMatchableByCode() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("busy.sqlite")
        let holder = try SQLiteConnection(path: path)
        try holder.execute("CREATE TABLE t(a)")
        let waiter = try SQLiteConnection(path: path, busyTimeout: .milliseconds(20))
        // Holder              | Waiter
        // BEGIN IMMEDIATE     |
        //                     | BEGIN IMMEDIATE -> busy after 20 ms
        try holder.execute("BEGIN IMMEDIATE")
        do {
            try waiter.execute("BEGIN IMMEDIATE")
            Issue.record("expected busy")
        } catch {
            #expect(error.code == .busy)
            #expect(error.sql == "BEGIN IMMEDIATE")
            #expect(SQLiteResultCode.busy ~= error)
            #expect(ErrorKind(error) == .busy)
        }
        try holder.execute("COMMIT")
        try waiter.execute("BEGIN IMMEDIATE; COMMIT")
    }

    @Test func errorsCarryMessageAndSQL() throws {
        let db = try SQLiteConnection(path: ":memory:", walMode: false)
        do {
            _ = try db.prepare("SELEC 1")
            Issue.record("expected a syntax error")
        } catch {
            #expect(error.code == .error)
            #expect(error.message.contains("syntax error"))
            #expect(error.description.contains("SELEC 1"))
        }
    }

    @Test func readOnlyConnectionRefusesWrites() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("ro.sqlite")
        try SQLiteConnection(path: path).execute("CREATE TABLE t(a)")
        let reader = try SQLiteConnection(path: path, readOnly: true)
        #expect {
            try reader.execute("INSERT INTO t VALUES (1)")
        } throws: { error in
            (error as? SQLiteError)?.code == .readonly
        }
    }

    @Test func cachedStatementsBindAndReadEveryType() throws {
        let db = try SQLiteConnection(path: ":memory:", walMode: false)
        try db.execute("CREATE TABLE t(a, b, c, d, e)")
        let uid = UUID()
        try db.cached("INSERT INTO t VALUES (?, ?, ?, ?, ?)").run(["x", 3, 1.5, .uuid(uid), .null])
        let statement = try db.cached("SELECT a, b, c, d, e FROM t")
        #expect(try statement.step())
        #expect((0..<5).map { statement.value(at: $0) } == ["x", 3, 1.5, .uuid(uid), .null])
        #expect(try db.cached("SELECT a, b, c, d, e FROM t") === statement)
    }

    @Test func twoConnectionsInOneProcessSeeEachOthersCommits() throws {
        let fixture = try StoreFixture()
        let first = try fixture.open()
        let second = try fixture.open()
        let id = try first.viewContext.insertNote("A")
        #expect(try second.viewContext.fetch(FetchRequest(entity: "Note")) == [id])
        #expect(try second.viewContext.title(id) == "A")
    }
}
