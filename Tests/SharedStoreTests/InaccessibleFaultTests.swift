import Basics
import Foundation
import SharedStore
import Testing

@Suite struct InaccessibleFaultTests {
    func deletedElsewhere() throws -> (StoreFixture, StoreCoordinator, ObjectID) {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let share = try fixture.open()
        let id = try app.viewContext.insertNote("A")
        app.viewContext.refresh(id, mergeChanges: false)
        let remote = share.newBackgroundContext()
        try remote.delete(id)
        try remote.save()
        app.dropRowCache()
        return (fixture, app, id)
    }

    @Test func faultForARowDeletedElsewhereFiresAsADeletedObject() throws {
        let (fixture, app, id) = try deletedElsewhere()
        defer { withExtendedLifetime(fixture) {} }
        let context = app.viewContext
        let values = try context.values(of: id)
        #expect(values["title"] == "")
        #expect(values["body"] == .null)
        #expect(context.isDeleted(id))
        #expect(context.viewContains(id), "it stays in the view until a merge, refetch or reset")
    }

    @Test func faultForARowDeletedElsewhereThrowsWhenInaccessibleFaultsAreKept() throws {
        let (fixture, app, id) = try deletedElsewhere()
        defer { withExtendedLifetime(fixture) {} }
        let context = app.viewContext
        context.shouldDeleteInaccessibleFaults = false
        #expect {
            _ = try context.values(of: id)
        } throws: { error in
            ErrorKind(error) == .notFound
        }
    }

    @Test func existingObjectThrowsNotFoundForAGoneRow() throws {
        let (fixture, _, id) = try deletedElsewhere()
        let other = try fixture.open().viewContext
        #expect(throws: StoreError.self) { try other.existingObject(with: id) }
    }
}

/// `existingObject(with:)` in a context that has not registered the object takes the process's row cache
/// when the context's staleness allows, as a firing fault does; SQL otherwise.
@Suite struct ExistingObjectCacheTests {
    @Test func anotherContextOfTheProcessSeesWhatTheCacheHolds() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let id = try app.viewContext.insertNote("A")
        _ = try app.viewContext.fetch(FetchRequest(entity: "Note"))
        #expect(try app.viewContext.title(id) == "A")
        let share = try fixture.open().viewContext
        try share.setValues(["title": "B"], for: id)
        try share.save()

        let cached = app.newBackgroundContext(name: "cached")
        try cached.existingObject(with: id)
        #expect(try cached.title(id) == "A", "staleness -1: the row cache answers")
        let fresh = app.newBackgroundContext(name: "fresh")
        fresh.stalenessInterval = 0
        try fresh.existingObject(with: id)
        #expect(try fresh.title(id) == "B", "staleness 0: SQL")
        #expect(try app.newBackgroundContext(name: "after").existingObject(with: id) == id)
        #expect(try app.newBackgroundContext(name: "after").title(id) == "B", "the SQL read refreshed the cache")
    }
}

/// Opening a store that needs nothing written takes no write lock: a process launches while another
/// holds one, as Core Data adds such a store (WAL readers never wait for the writer).
@Suite struct OpenWhileWritingTests {
    @Test(arguments: [false, true])
    func anExistingStoreOpensWhileAnotherProcessHoldsTheWriteLock(history: Bool) throws {
        let fixture = try StoreFixture()
        let app = try fixture.open(history: history)
        _ = try app.viewContext.insertNote("A")
        try app.viewContext.save()
        let share = try fixture.open(history: history)
        try share.beginWrite()
        let ext = try fixture.open(history: history, busyTimeout: .milliseconds(50))
        #expect(try ext.viewContext.fetch(FetchRequest(entity: "Note")).count == 1)
        try share.endWrite()
    }
}

/// A process that may not write a store cannot take its write lock either.
@Suite struct ReadOnlyBeginWriteTests {
    @Test func beginWriteOnAStoreThisProcessMayNotWriteFailsReadOnly() throws {
        let fixture = try StoreFixture()
        let tracked = try fixture.open(history: true)
        _ = try tracked.viewContext.insertNote("A")
        try tracked.viewContext.save()
        let untracked = try fixture.open(history: false)
        #expect(untracked.readOnlyReason != nil)
        #expect { try untracked.beginWrite() } throws: { ErrorKind($0) == .readOnly }
        try tracked.beginWrite()
        try tracked.endWrite()
    }
}
