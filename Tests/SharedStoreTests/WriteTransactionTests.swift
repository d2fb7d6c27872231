import Basics
import Foundation
import SharedStore
import Testing

/// `write-transactions: deferred`: a transaction that has read cannot wait for the write lock (bug 23).
@Suite struct WriteTransactionTests {
    @Test func deferredUpgradeFailsBusyWhenAnotherProcessCommittedSinceItsRead() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open(writes: .deferred)
        let service = try fixture.open(busyTimeout: .seconds(30), writes: .deferred)
        let id = try app.viewContext.insertNote("A")
        try app.beginWrite()
        try service.beginWrite()
        // Both transactions have read. Deferred ones hold no lock yet: the app's first write takes it.
        #expect(app.openTransactions == [.write])
        try app.viewContext.setValues(["title": "app"], for: id)
        try app.viewContext.save()
        try app.endWrite()
        try service.viewContext.setValues(["title": "service"], for: id)
        // The service's snapshot is older than the app's commit: no wait can make the upgrade succeed,
        // so SQLite fails it at once with SQLITE_BUSY_SNAPSHOT, whatever the 30 s busy timeout.
        #expect {
            try service.viewContext.save()
        } throws: { error in
            guard let save = error as? SaveError, save.code == .sqlite, let sqlite = save.sqliteError else { return false }
            return sqlite.code == .busy && sqlite.extendedCode == 517
        }
        try service.endWrite()
        // Once that transaction is over, a new one reads the app's commit and its write succeeds.
        try service.viewContext.save()
        let reader = try fixture.open()
        #expect(try reader.viewContext.title(id) == "service")
    }

    @Test func deferredUpgradeFailsBusyWhileAnotherProcessHoldsTheLock() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open(writes: .deferred)
        let service = try fixture.open(writes: .deferred)
        let id = try app.viewContext.insertNote("A")
        try service.beginWrite()
        try app.beginWrite()
        try app.viewContext.setValues(["title": "app"], for: id)
        try app.viewContext.save()       // the app now holds the write lock, uncommitted
        try service.viewContext.setValues(["title": "service"], for: id)
        #expect {
            try service.viewContext.save()
        } throws: { error in
            ErrorKind(error) == .busy
        }
        try app.endWrite()
        try service.endWrite()
    }

    @Test func immediateTransactionsTakeTheLockFirstSoTheSecondWaitsItsTurn() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let service = try fixture.open(busyTimeout: .milliseconds(20))
        let id = try app.viewContext.insertNote("A")
        try app.beginWrite()
        // The second immediate transaction cannot even begin while the first holds the lock.
        #expect { try service.beginWrite() } throws: { ErrorKind($0) == .busy }
        try app.viewContext.setValues(["title": "app"], for: id)
        try app.viewContext.save()
        try app.endWrite()
        try service.beginWrite()
        try service.viewContext.setValues(["title": "service"], for: id)
        try service.viewContext.save()
        try service.endWrite()
        #expect(try fixture.open().viewContext.title(id) == "service")
    }

    @Test func deferredPlainSavesInTurnSucceed() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open(writes: .deferred)
        let service = try fixture.open(writes: .deferred)
        let id = try app.viewContext.insertNote("A")
        try service.update(id, ["title": "B"])
        #expect(!service.holdsTransaction && !app.holdsTransaction)
        #expect(try fixture.open().viewContext.title(id) == "B")
    }
}
