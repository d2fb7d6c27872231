import Basics
import Foundation
import SharedStore
import Testing

@Suite struct GenerationAndBatchTests {
    @Test func pinnedContextKeepsTheOldValueThroughRefreshUntilItMerges() throws {
        let pair = try HistoryTests.Pair()
        let context = pair.app.viewContext
        context.stalenessInterval = 0
        let id = try context.insertNote("A")
        try context.pinQueryGeneration()
        _ = try context.fetch(FetchRequest(entity: "Note"))
        #expect(pair.app.openTransactions == [.pinnedRead])
        #expect(try context.title(id) == "A")

        let share = pair.shareContext()
        try share.setValues(["title": "B"], for: id)
        try share.save()
        context.refreshAllObjects()
        #expect(try context.title(id) == "A", "a pinned generation reads its snapshot whatever the staleness")

        context.mergeChanges(fromRemoteContextSave: RemoteChanges())
        context.refreshAllObjects()
        #expect(try context.title(id) == "A", "merging nothing (a history fetch whose filter kept nothing) moves nothing")

        try pair.app.mergeHistory(into: context, consumer: "app")
        #expect(try context.title(id) == "B", "merging advanced the generation")
        context.unpinQueryGeneration()
        #expect(!pair.app.holdsTransaction)
    }

    /// `setQueryGenerationFrom(view.queryGenerationToken)` on a background context: both read one snapshot
    /// of the store, which lasts while either is pinned to it; each moves on alone.
    @Test func aBackgroundContextPinnedWithTheViewsTokenReadsTheViewsGeneration() throws {
        let pair = try HistoryTests.Pair()
        let view = pair.app.viewContext
        let id = try view.insertNote("A")
        let importer = pair.app.newBackgroundContext(name: "importer")
        try importer.pinQueryGeneration()
        try importer.pinQueryGeneration(from: view)
        #expect(!importer.isQueryGenerationPinned, "an unpinned context's token is nil, and a nil token unpins")
        try view.pinQueryGeneration()
        try importer.pinQueryGeneration(from: view)
        #expect(importer.sharesQueryGeneration(with: view), "the view's generation was established to be shared")

        let share = pair.shareContext()
        try share.setValues(["title": "B"], for: id)
        try share.save()
        #expect(try importer.title(id) == "A", "the importer reads the view's generation, not the store")
        #expect(try view.title(id) == "A")

        view.unpinQueryGeneration()
        #expect(pair.app.openTransactions == [.pinnedRead], "the importer still holds the generation")
        view.refreshAllObjects()
        view.stalenessInterval = 0
        #expect(try view.title(id) == "B", "the view reads the store again")
        importer.refreshAllObjects()
        #expect(try importer.title(id) == "A", "the importer stays on the shared generation")

        try importer.pinQueryGeneration()
        importer.refreshAllObjects()
        #expect(try importer.title(id) == "B", "pinning again moves to the newest generation")
        importer.unpinQueryGeneration()
        #expect(!pair.app.holdsTransaction, "the last context to leave a generation ends its transaction")

        let child = view.newChildContext(name: "editor")
        #expect(throws: StoreError.self, "a child reads through its parent") { try child.pinQueryGeneration() }
    }

    @Test func batchDeleteLeavesRegisteredObjectsInTheViewUntilHistoryIsMerged() throws {
        let pair = try HistoryTests.Pair()
        let context = pair.app.viewContext
        for rank in 1...3 { _ = try context.insertNote("n\(rank)", rank: Int64(rank)) }
        try pair.app.mergeHistory(into: context, consumer: "app")
        _ = try context.fetch(FetchRequest(entity: "Note"))
        let deleted = try pair.share.batchDelete("Note", where: "rank > 1", author: "share")
        #expect(deleted.count == 2)
        #expect(context.viewObjects(entity: "Note").count == 3, "a batch delete bypasses every context")
        try pair.app.mergeHistory(into: context, consumer: "app")
        #expect(context.viewObjects(entity: "Note").count == 1)
    }

    @Test func batchInsertAndUpdateReachTheStoreAndHistoryOnly() throws {
        let pair = try HistoryTests.Pair()
        let context = pair.app.viewContext
        let ids = try pair.share.batchInsert("Note", objects: [["title": "a", "rank": 1], ["title": "b", "rank": 2]])
        #expect(ids.map(\.primaryKey) == [1, 2])
        #expect(context.view.isEmpty)
        _ = try context.fetch(FetchRequest(entity: "Note"))
        #expect(try context.title(ids[1]) == "b")
        let updated = try pair.share.batchUpdate("Note", where: "rank == 2", values: ["title": "B"])
        #expect(updated == [ids[1]])
        #expect(try context.title(ids[1]) == "b", "registered objects keep their values")
        try pair.app.mergeHistory(into: context, consumer: "app")
        #expect(try context.title(ids[1]) == "B")
        #expect(context.version(of: ids[1]) == 2)
    }

    @Test func heldWriteBlocksOtherProcessesUntilEnded() throws {
        let fixture = try StoreFixture()
        let share = try fixture.open()
        let app = try fixture.open(busyTimeout: .milliseconds(30))
        try share.beginWrite()
        #expect(share.openTransactions == [.write])
        _ = try share.viewContext.insertNote("inside")
        try app.viewContext.insert("Note", values: ["title": "app"])
        #expect {
            try app.viewContext.save()
        } throws: { error in
            ErrorKind(error) == .busy
        }
        try share.endWrite()
        #expect(!share.holdsTransaction)
        try app.viewContext.save()
        #expect(try app.viewContext.fetch(FetchRequest(entity: "Note")).count == 2)
    }
}
