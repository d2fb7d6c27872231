import Basics
import Foundation
@testable import SharedStore
import Testing

/// A statement skips binding NULL to a parameter that already holds NULL (bindings survive a reset):
/// rows mixing NULL and values must still be written exactly.
@Suite struct StatementBindingTests {
    @Test func nullsSkippedOnlyWhereTheParameterHoldsNull() throws {
        let db = try SQLiteConnection(path: ":memory:", walMode: false)
        try db.execute("CREATE TABLE t(n INTEGER, a, b, c)")
        let rows: [[Value]] = [
            [.null, .int(1), .string("x")],
            [.null, .null, .string("y")],
            [.int(2), .null, .null],
            [.null, .double(3.5), .null],
            [.null, .null, .null],
            [.string("z"), .int(4), .null],
        ]
        let insert = try db.cached("INSERT INTO t VALUES (?, ?, ?, ?)")
        for (n, row) in rows.enumerated() {
            insert.rewind()  // keeps the previous row's bindings
            try insert.bind(Int64(n), at: 1)
            try insert.bind(row, from: 2)
            try insert.step()
        }
        // A reset clears the bindings: NULLs are NULL again without binding them.
        insert.reset()
        try insert.bind(Int64(6), at: 1)
        try insert.bind([.null, .null, .null], from: 2)
        try insert.step()
        let read = try db.prepare("SELECT a, b, c FROM t ORDER BY n")
        var found: [[Value]] = []
        while try read.step() { found.append((0..<3).map { read.value(at: Int32($0)) }) }
        #expect(found == rows + [[.null, .null, .null]])
    }

    /// Text is bound and read by its byte count: U+0000 inside a string survives, and "" stays "", not NULL.
    @Test func textHoldingNulOrNothingRoundTripsWhole() throws {
        let db = try SQLiteConnection(path: ":memory:", walMode: false)
        try db.execute("CREATE TABLE t(n INTEGER, a)")
        let texts = ["a\u{0}b", "\u{0}", "", "naïve ☃︎", String(repeating: "x", count: 5000)]
        let insert = try db.cached("INSERT INTO t VALUES (?, ?)")
        for (n, text) in texts.enumerated() {
            insert.reset()
            try insert.bind(Int64(n), at: 1)
            try insert.bind([.string(text)], from: 2)
            try insert.step()
        }
        let read = try db.prepare("SELECT a, length(CAST(a AS BLOB)) FROM t ORDER BY n")
        var found: [Value] = [], lengths: [Int64] = []
        while try read.step() {
            found.append(read.value(at: 0))
            lengths.append(read.int64(at: 1))
        }
        #expect(found == texts.map(Value.string))
        #expect(lengths == texts.map { Int64($0.utf8.count) })
    }

    @Test func savesOfOptionalAttributesWriteEachRowsOwnValues() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let context = store.viewContext
        var temporary: [ObjectID] = []
        for i in 0..<20 {
            var values: [String: Value] = ["title": .string("n\(i)")]
            if i % 3 == 0 { values["body"] = .string("body \(i)") }
            if i % 4 == 1 { values["created"] = .date(Date(timeIntervalSinceReferenceDate: Double(i))) }
            temporary.append(try context.insert("Note", values: values))
        }
        let saved = try context.save()
        let reader = try fixture.open()
        for (i, id) in temporary.enumerated() {
            let values = try reader.viewContext.values(of: saved.permanentIDs[id]!)
            #expect(values["body"] == (i % 3 == 0 ? .string("body \(i)") : .null))
            #expect(values["created"] == (i % 4 == 1 ? .date(Date(timeIntervalSinceReferenceDate: Double(i))) : .null))
        }
    }
}
