import Basics
import Foundation
@testable import SharedStore
import Testing
import TestSupport

/// Keys from `Z_PRIMARYKEY.Z_MAX`: the one-statement path for an entity of its own, and the long way for
/// what it cannot take (a missing row, keys past the largest integer, a family), with the same answers.
@Suite struct KeyAllocatorTests {
    private func db() throws -> (SQLiteConnection, TemporaryDirectory) {
        let directory = try TemporaryDirectory(prefix: "keys")
        let db = try SQLiteConnection(path: directory.url.appendingPathComponent("k.sqlite").path)
        try db.execute("CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
        try db.execute("INSERT INTO Z_PRIMARYKEY VALUES (1, 'Note', 0, 0), (2, 'Big', 0, \(Int64.max - 2)), (3, 'Bad', 0, -5)")
        return (db, directory)
    }

    @Test func keysFollowZMaxAndItRecordsThem() throws {
        let (db, _) = try db()
        #expect(try KeyAllocator.take(3, of: 1, name: "Note", db) == 1)
        #expect(try KeyAllocator.take(1, of: 1, name: "Note", db) == 4)
        #expect(try KeyAllocator.take(0, of: 1, name: "Note", db) == 5, "no key taken: the next one")
        #expect(try db.scalarInt("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1") == 4)
        #expect(try KeyAllocator.take(2, of: 2, name: "Big", db) == Int64.max - 1, "up to the largest key exactly")
    }

    @Test func whatTheOneStatementCannotTakeIsRefusedWithItsReason() throws {
        let (db, _) = try db()
        for (entity, count, reason) in [(Int64(9), Int64(1), "no row"), (2, 3, "largest key"), (3, 1, "largest key")] {
            do {
                _ = try KeyAllocator.take(count, of: entity, name: "E\(entity)", db)
                Issue.record("entity \(entity) handed out keys")
            } catch {
                #expect("\(error)".contains(reason == "no row" ? "has no row" : "pass the largest key"), "\(error)")
            }
        }
        #expect(try db.scalarInt("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 2") == Int64.max - 2, "a refused take changes nothing")
    }
}
