import Foundation
import SharedStore
import Testing

/// The bookkeeping a save re-keys: registered objects and the view move from temporary to permanent IDs,
/// unsaved inserts are shown once, and IDs of another store are never registered.
@Suite struct RegistrationAndViewTests {
    @Test func unsavedInsertsAreShownOnceAndReKeyedBySave() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let context = store.viewContext
        let saved = try context.insertNote("saved")
        let a = try context.insert("Note", values: ["title": "A"])
        let b = try context.insert("Note", values: ["title": "B"])
        // Reaching an unsaved insert by ID, or fetching (which appends pending inserts), adds no duplicate.
        try context.existingObject(with: a)
        let fetched = try context.fetch(FetchRequest(entity: "Note"))
        #expect(fetched == [saved, a, b])
        #expect(context.view == [saved, a, b])
        #expect(context.viewContains(a) && context.viewContains(b))

        try context.delete(b)
        #expect(!context.viewContains(b) && !context.isRegistered(b))
        #expect(context.view == [saved, a])

        let result = try context.save()
        let permanent = try #require(result.permanentIDs[a])
        #expect(result.permanentIDs.count == 1)
        #expect(context.view == [saved, permanent], "the fetch list and the extras are re-keyed")
        #expect(!context.viewContains(a) && context.viewContains(permanent))
        #expect(!context.isRegistered(a) && context.isRegistered(permanent) && !context.isFault(permanent))
        #expect(context.registeredObjects == [saved, permanent])
        #expect(try context.title(permanent) == "A")
        // Reaching the saved object by ID again does not show it twice.
        try context.existingObject(with: permanent)
        #expect(context.view == [saved, permanent])
    }

    /// The view holds what the context inserted: a filtered fetch lists some notes and leaves the others
    /// shown; a fetch of every note lists them all and retires the ones deleted elsewhere.
    @Test func onlyAFetchOfEveryObjectRetiresTheObjectsShownOutsideLists() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let context = store.viewContext
        let first = try context.insertNote("first")
        let second = try context.insertNote("second")
        _ = try context.fetch(FetchRequest(entity: "Note", predicate: "title == 'nothing'"))
        _ = try context.fetch(FetchRequest(entity: "Note", fetchLimit: 1))
        #expect(context.viewObjects(entity: "Note") == [first, second], "a filtered or limited fetch leaves them")
        let other = try fixture.open().viewContext
        try other.delete(second)
        try other.save()
        _ = try context.fetch(FetchRequest(entity: "Note"))
        #expect(context.viewObjects(entity: "Note") == [first], "a fetch of every note shows what the store holds")
    }

    /// An object a filtered or limited list held, and holds no more after a refetch, leaves the screen, even
    /// one this context inserted and saved; objects the list never held stay where they were.
    @Test func anObjectThatDropsOutOfAListLeavesTheScreen() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let context = store.viewContext
        _ = try context.insert("Note", values: ["title": "high", "rank": 5])
        _ = try context.insert("Note", values: ["title": "low", "rank": 1])
        try context.save()
        let saved = context.viewObjects(entity: "Note")
        #expect(saved.count == 2)
        let filtered = FetchRequest(entity: "Note", predicate: "rank > 2")
        #expect(try context.fetch(filtered).count == 1)
        let other = try fixture.open().viewContext
        try other.delete(saved[0])  // the high one, inserted first
        try other.save()
        _ = try context.fetch(filtered)
        #expect(context.viewObjects(entity: "Note") == [saved[1]],
                "the deleted note dropped out of the list and off the screen; the low one, never listed, stays")
        let unsaved = try context.insert("Note", values: ["title": "new", "rank": 9])
        _ = try context.fetch(filtered)
        _ = try context.fetch(FetchRequest(entity: "Note", predicate: "rank > 100"))
        #expect(context.viewObjects(entity: "Note").contains(unsaved), "an unsaved insert stays shown (includesPendingChanges)")
    }

    @Test func manyInsertsSurviveTableGrowthAndReKeying() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let context = store.viewContext
        let temporary = try (0..<3_000).map { i in
            try context.insert("Note", values: ["title": .string("n\(i)"), "rank": .int(Int64(i))])
        }
        let result = try context.save()
        #expect(result.permanentIDs.count == 3_000)
        #expect(context.registeredObjects.count == 3_000)
        #expect(store.rowCacheCount == 3_000)
        for (i, id) in temporary.enumerated() where i % 250 == 0 {
            let permanent = try #require(result.permanentIDs[id])
            #expect(try context.value("rank", of: permanent) == .int(Int64(i)))
        }
        #expect(context.view == temporary.map { result.permanentIDs[$0]! })
    }

    /// Two contexts inserting in turn share the store's temporary keys: each finds its own unsaved inserts
    /// (of either entity), forgets deleted and rolled-back ones, and never treats the other's as its own.
    @Test func interleavedInsertsOfTwoContextsStayApart() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let view = store.viewContext
        let background = store.newBackgroundContext(name: "other")
        var mine: [ObjectID] = []
        var theirs: [ObjectID] = []
        for i in 0..<40 {
            mine.append(try view.insert(i % 3 == 0 ? "Tag" : "Note",
                                        values: i % 3 == 0 ? ["name": .string("t\(i)")] : ["title": .string("m\(i)")]))
            theirs.append(try background.insert("Note", values: ["title": .string("o\(i)")]))
        }
        #expect(view.insertedObjects == mine && background.insertedObjects == theirs)
        #expect(mine.allSatisfy { view.isRegistered($0) } && !theirs.contains { view.isRegistered($0) })
        // The same temporary key under the other entity's name is not an object of this context.
        let notATag = ObjectID(entity: "Tag", primaryKey: mine[1].primaryKey, storeIdentifier: store.storeIdentifier)
        #expect(!view.isRegistered(notATag))

        try view.delete(mine[5])
        try view.setValues(["title": "edited"], for: mine[7])
        #expect(!view.isRegistered(mine[5]) && view.insertedObjects.count == 39)
        #expect(try view.title(mine[7]) == "edited")
        let fetched = try view.fetch(FetchRequest(entity: "Note", predicate: "title == 'edited'"))
        #expect(fetched == [mine[7]])

        background.rollback()
        #expect(background.insertedObjects.isEmpty && !background.isRegistered(theirs[0]))
        #expect(!background.hasChanges)

        let result = try view.save()
        #expect(result.permanentIDs.count == 39)
        #expect(view.insertedObjects.isEmpty && !view.isRegistered(mine[7]))
        let edited = try #require(result.permanentIDs[mine[7]])
        #expect(try view.title(edited) == "edited" && view.registeredObjects.count == 39)
        #expect(try view.value("name", of: result.permanentIDs[mine[3]]!) == .string("t3"))
    }

    /// A save nobody observes keeps its changes compact until read: they read the same as an observed one's.
    @Test func anUnobservedSavesResultReadsLikeAnObservedOne() throws {
        let fixture = try StoreFixture()
        let model = try Model(.notesExample)
        let store = try StoreCoordinator(url: fixture.url, model: model)  // no event sink, no observer
        let context = store.viewContext
        let kept = try context.insert("Note", values: ["title": "kept", "rank": 1])
        let gone = try context.insert("Note", values: ["title": "gone"])
        let first = try context.save()
        #expect(first.changes.map(\.operation) == [.insert, .insert])
        #expect(first.changes.map(\.version) == [1, 1])
        #expect(first.inserted == [first.permanentIDs[kept]!, first.permanentIDs[gone]!])
        #expect(first.changes.allSatisfy { $0.values.isEmpty && $0.object.storeIdentifier == store.storeIdentifier })

        let tag = try context.insert("Tag", values: ["name": "t"])
        try context.setValues(["title": "edited"], for: first.permanentIDs[kept]!)
        try context.delete(first.permanentIDs[gone]!)
        let second = try context.save()
        let tagID = try #require(second.permanentIDs[tag])
        #expect(tagID.entity == "Tag" && !tagID.isTemporary)
        #expect(second.inserted == [tagID])
        #expect(second.updated == [first.permanentIDs[kept]!] && second.deleted == [first.permanentIDs[gone]!])
        #expect(second.changes.first { $0.operation == .update }?.version == 2)
    }

    @Test func anotherStoresIDIsNeverRegistered() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let id = try store.viewContext.insertNote("A")
        let foreign = ObjectID(entity: "Note", primaryKey: id.primaryKey, storeIdentifier: "another-store")
        #expect(store.viewContext.isRegistered(id))
        #expect(!store.viewContext.isRegistered(foreign))
        #expect(throws: StoreError.self) { try store.viewContext.registerFault(foreign) }
    }
}
