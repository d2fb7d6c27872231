import Foundation
import SharedStore
import Testing

/// Bug 1 of Docs/Bugs.md: refreshAllObjects is a no-op with infinite staleness.
@Suite struct StalenessTests {
    @Test func outsideUpdateIsInvisibleAfterRefreshAllObjectsWithInfiniteStaleness() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let share = try fixture.open()
        let id = try app.viewContext.insertNote("A")
        let context = app.viewContext
        context.reset()
        _ = try context.fetch(FetchRequest(entity: "Note"))
        #expect(try context.title(id) == "A")

        try share.update(id, ["title": "B"])
        context.refreshAllObjects()
        #expect(context.isFault(id))
        #expect(try context.title(id) == "A")
    }

    @Test func outsideUpdateIsVisibleAfterRefreshAllObjectsWithZeroStaleness() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let share = try fixture.open()
        let context = app.viewContext
        context.stalenessInterval = 0
        let id = try context.insertNote("A")
        _ = try context.fetch(FetchRequest(entity: "Note"))
        #expect(try context.title(id) == "A")

        try share.update(id, ["title": "B"])
        context.refreshAllObjects()
        #expect(try context.title(id) == "B")
    }

    @Test func positiveStalenessReusesTheSnapshotUntilTheClockPassesIt() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let share = try fixture.open()
        let context = app.viewContext
        context.stalenessInterval = 10
        let id = try context.insertNote("A")
        _ = try context.fetch(FetchRequest(entity: "Note"))
        #expect(try context.title(id) == "A")

        try share.update(id, ["title": "B"])
        fixture.clock.advance(by: 5)
        context.refreshAllObjects()
        #expect(try context.title(id) == "A", "a 5 s old snapshot is fresh at staleness 10 s")

        fixture.clock.advance(by: 6)
        context.refreshAllObjects()
        #expect(try context.title(id) == "B", "an 11 s old snapshot has expired")
    }

    @Test func editedObjectKeepsItsEditThroughRefreshAllObjects() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let share = try fixture.open()
        let context = app.viewContext
        context.stalenessInterval = 0
        let id = try context.insertNote("A", rank: 1)
        try context.setValues(["rank": 7], for: id)

        try share.update(id, ["title": "B"])
        context.refreshAllObjects()
        let values = try context.values(of: id)
        #expect(values["rank"] == 7, "the pending edit survives")
        #expect(values["title"] == "B", "the other properties take the fresh values")
        #expect(context.hasChanges)
    }

    @Test func firingFromCacheAndFromSQLAreTraced() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let id = try app.viewContext.insertNote("A")
        app.viewContext.refreshAllObjects()
        _ = try app.viewContext.title(id)
        app.viewContext.stalenessInterval = 0
        app.viewContext.refreshAllObjects()
        _ = try app.viewContext.title(id)
        let sources = fixture.recorded.compactMap { event -> FaultSource? in
            if case .faultFulfilled(let object, let source, _, _) = event, object == id { return source }
            return nil
        }
        #expect(sources == [.cache, .sql])
    }
}
