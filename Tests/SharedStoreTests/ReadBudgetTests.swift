import Basics
import Foundation
import Testing
@testable import SharedStore
import TestSupport

/// Reading someone else's store is bounded in time: a statement still running at its connection's
/// deadline is stopped, and `inspect` and `import` say which file took too long instead of hanging.
@Suite struct ReadBudgetTests {
    @Test func aQueryThatNeverEndsIsStoppedAtTheDeadline() throws {
        let directory = try TemporaryDirectory(prefix: "budget")
        let db = try SQLiteConnection(path: directory.url.appendingPathComponent("x.sqlite").path)
        db.stopStatements(at: MonotonicClock.now() + 50_000_000)
        let endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
        do {
            _ = try db.scalarInt(endless, [])
            Issue.record("an endless query returned")
        } catch {
            #expect(error.code == .interrupt)
        }
        // Without a deadline, statements run as before.
        db.stopStatements(at: nil)
        #expect(try db.scalarInt("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000) SELECT count(*) FROM c", []) == 100_000)
    }

    @Test func inspectAndImportNameTheStoreThatTookTooLong() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open(history: true, bundle: "share")
        _ = try store.batchInsert("Note", objects: (0..<2_000).map { ["title": .string("note \($0)")] })
        store.close()
        for read in [
            { _ = try StoreInspector.examine(fixture.url, fitting: nil, budget: .zero) },
            { _ = try StoreInspector.recordedHistory(fixture.url, model: .notesExample, limit: 10, samples: 3, budget: .zero) },
        ] as [() throws -> Void] {
            do {
                try read()
                Issue.record("a read with no time left finished")
            } catch let error as StoreError {
                guard error.code == .file, let reason = error.reason else { Issue.record("\(error)"); continue }
                #expect("\(error)".hasPrefix(fixture.url.path + ": "))
                #expect(reason.contains("took longer than"), "\(reason)")
            }
        }
        // A budget too long for the clock saturates instead of trapping.
        #expect(StoreInspector.deadline(after: .seconds(Int64.max)) == .max)
        #expect(MonotonicClock.nanoseconds(.seconds(-5)) == 0 && MonotonicClock.nanoseconds(.milliseconds(1_500)) == 1_500_000_000)
        // With the default budget both read the store.
        #expect(try StoreInspector.inspect(fixture.url).entities.first { $0.name == "Note" }?.count == 2_000)
        #expect(try StoreInspector.recordedHistory(fixture.url, model: .notesExample, limit: 10).transactions.count == 1)
    }
}
