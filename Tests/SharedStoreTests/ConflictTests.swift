import Basics
import Foundation
import SharedStore
import Testing

/// Bug 14 of Docs/Bugs.md: the app and an extension edit the same object.
/// App | Share
/// ----|------
/// reads X v1 (title A, rank 1) |
///     | sets title B, rank 2, saves (v2)
/// sets rank 9 (and body "app"), saves |
@Suite struct ConflictTests {
    struct Setup {
        let fixture: StoreFixture
        let app: StoreCoordinator
        let share: StoreCoordinator
        let id: ObjectID

        init(policy: MergePolicy) throws {
            fixture = try StoreFixture()
            app = try fixture.open()
            share = try fixture.open()
            id = try app.viewContext.insertNote("A", rank: 1)
            app.viewContext.mergePolicy = policy
            try share.update(id, ["title": "B", "rank": 2])
            try app.viewContext.setValues(["rank": 9, "body": "app"], for: id)
        }

        func storeValues() throws -> [String: Value] {
            let reader = try fixture.open().viewContext
            return try reader.values(of: id)
        }
    }

    @Test func errorPolicyFailsAndWritesNothing() throws {
        let setup = try Setup(policy: .error)
        do {
            try setup.app.viewContext.save()
            Issue.record("expected a conflict")
        } catch {
            #expect(error.code == .conflicts && ErrorKind(error) == .conflict)
            let conflicts = error.conflicts
            #expect(conflicts.count == 1)
            #expect(conflicts[0].object == setup.id)
            #expect(conflicts[0].cachedVersion == 1)
            #expect(conflicts[0].storeVersion == 2)
            #expect(conflicts[0].storeValues["title"] == "B")
            #expect(conflicts[0].cachedValues["rank"] == 9)
            #expect(conflicts[0].outcome == .failed)
        }
        let stored = try setup.storeValues()
        #expect(stored["rank"] == 2 && stored["body"] == .null)
        #expect(setup.app.viewContext.hasChanges, "the failed save keeps the context's changes")
    }

    @Test func objectTrumpKeepsChangedPropertiesAndTakesTheStoresOthers() throws {
        let setup = try Setup(policy: .objectTrump)
        let result = try setup.app.viewContext.save()
        #expect(result.conflicts.first?.outcome == .merged)
        let stored = try setup.storeValues()
        #expect(stored["title"] == "B", "not changed in memory: the store's value")
        #expect(stored["rank"] == 9, "changed in memory: ours wins")
        #expect(stored["body"] == "app")
        #expect(try setup.app.viewContext.values(of: setup.id) == stored)
        #expect(setup.app.viewContext.version(of: setup.id) == 3)
    }

    @Test func storeTrumpKeepsTheStoresChangesAndOnlyOurOtherChanges() throws {
        let setup = try Setup(policy: .storeTrump)
        try setup.app.viewContext.save()
        let stored = try setup.storeValues()
        #expect(stored["title"] == "B")
        #expect(stored["rank"] == 2, "both changed rank: the store wins")
        #expect(stored["body"] == "app", "only we changed body: ours is kept")
    }

    @Test func overwriteWritesTheWholeObject() throws {
        let setup = try Setup(policy: .overwrite)
        let result = try setup.app.viewContext.save()
        #expect(result.conflicts.first?.outcome == .overwritten)
        let stored = try setup.storeValues()
        #expect(stored["title"] == "A", "the in-memory title overwrote the store's B: a lost update")
        #expect(stored["rank"] == 9)
    }

    @Test func rollbackDiscardsOurChangesAndTakesTheStores() throws {
        let setup = try Setup(policy: .rollback)
        let result = try setup.app.viewContext.save()
        #expect(result.conflicts.first?.outcome == .discarded)
        let stored = try setup.storeValues()
        #expect(stored["title"] == "B" && stored["rank"] == 2 && stored["body"] == .null)
        #expect(try setup.app.viewContext.values(of: setup.id) == stored)
        #expect(!setup.app.viewContext.hasChanges)
    }

    @Test func conflictEventsCarryVersionsPolicyAndOutcome() throws {
        let setup = try Setup(policy: .objectTrump)
        try setup.app.viewContext.save()
        let conflicts = setup.fixture.recorded.compactMap { event -> SaveConflict? in
            if case .conflict(_, let conflict) = event { return conflict }
            return nil
        }
        #expect(conflicts.count == 1)
        #expect(conflicts.first?.cachedVersion == 1 && conflicts.first?.storeVersion == 2)
        #expect(conflicts.first?.policy == .objectTrump)
        #expect(conflicts.first?.resolvedValues["rank"] == 9)
    }

    @Test func deletingAnObjectChangedElsewhereIsAConflict() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let share = try fixture.open()
        let id = try app.viewContext.insertNote("A")
        try share.update(id, ["title": "B"])
        try app.viewContext.delete(id)
        #expect(throws: SaveError.self) { try app.viewContext.save() }
        app.viewContext.mergePolicy = .objectTrump
        try app.viewContext.save()
        #expect(try fixture.open().viewContext.fetch(FetchRequest(entity: "Note")).isEmpty)
    }
}
