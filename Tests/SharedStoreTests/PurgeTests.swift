import Basics
import Foundation
import SharedStore
import Testing

/// Bug 6 of Docs/Bugs.md: history purged before another process read it.
@Suite struct PurgeTests {
    /// App merged up to T1; share writes T2 and T3, then purges with `policy`.
    func purged(_ policy: HistoryPurgePolicy) throws -> (HistoryTests.Pair, ObjectID, Int) {
        let pair = try HistoryTests.Pair()
        let id = try pair.app.viewContext.insertNote("A")                    // T1
        try pair.app.mergeHistory(into: pair.app.viewContext, consumer: "app")
        _ = try pair.app.viewContext.title(id)
        let share = pair.shareContext()
        try share.setValues(["title": "B"], for: id)
        try share.save()                                                     // T2
        try share.setValues(["title": "C"], for: id)
        try share.save()                                                     // T3
        let deleted = try pair.share.purgeHistory(policy, consumers: ["app"])
        return (pair, id, deleted)
    }

    @Test func ownTokenPurgeMakesAnotherConsumersNextFetchExpire() throws {
        let (pair, id, deleted) = try purged(.ownToken)
        #expect(deleted == 2, "T1 and T2, strictly before T3")
        let token = pair.app.historyToken(for: "app")
        #expect {
            try pair.app.mergeHistory(into: pair.app.viewContext, consumer: "app")
        } throws: { error in
            ErrorKind(error) == .expiredToken
        }
        #expect(pair.app.historyToken(for: "app") == token, "the token is kept")
        #expect(try pair.app.viewContext.title(id) == "A", "nothing was merged: still stale")
    }

    /// A process that wrote T2 and T3 and was relaunched (after a crash) purges before T3 as its previous
    /// run would have: what it wrote is in the history under its name (issue 29).
    @Test func ownTokenSurvivesARelaunch() throws {
        let fixture = try StoreFixture()
        func open(_ process: String) throws -> StoreCoordinator {
            var options = StoreOptions(historyTracking: true, bundleIdentifier: process)
            options.processName = process
            return try StoreCoordinator(url: fixture.url, model: fixture.model, options: options, clock: fixture.clock)
        }
        let app = try open("app")
        let id = try app.viewContext.insertNote("A")                          // T1
        try app.mergeHistory(into: app.viewContext, consumer: "app")
        var share: StoreCoordinator? = try open("share")
        let context = share!.newBackgroundContext(name: "share")
        for title in ["B", "C"] {                                             // T2, T3
            try context.setValues(["title": .string(title)], for: id)
            try context.save()
        }
        let written = share!.lastOwnHistoryToken
        share!.close()
        share = nil
        let relaunched = try open("share")
        #expect(relaunched.lastOwnHistoryToken == written, "the token its previous run wrote")
        #expect(try relaunched.purgeHistory(.ownToken) == 2, "T1 and T2, strictly before T3")
        #expect(try open("watch").lastOwnHistoryToken == nil, "a process that never wrote nor consumed has none")
        #expect(try open("app").lastOwnHistoryToken == app.lastOwnHistoryToken, "the app's consumed token")
    }

    @Test func consumedByAllPurgeKeepsWhatAConsumerStillNeeds() throws {
        let (pair, id, deleted) = try purged(.consumedByAll)
        #expect(deleted == 0, "nothing is strictly before the app's token T1")
        let result = try pair.app.mergeHistory(into: pair.app.viewContext, consumer: "app")
        #expect(result.transactions.count == 2)
        #expect(try pair.app.viewContext.title(id) == "C")
    }

    @Test func consumedByAllPurgesNothingWhileAConsumerHasNoToken() throws {
        let pair = try HistoryTests.Pair()
        _ = try pair.app.viewContext.insertNote("A")
        try pair.app.mergeHistory(into: pair.app.viewContext, consumer: "app")
        _ = try pair.app.viewContext.insertNote("B")
        try pair.app.mergeHistory(into: pair.app.viewContext, consumer: "app")
        try pair.share.registerHistoryConsumer("watch")
        #expect(try pair.share.purgeHistory(.consumedByAll) == 0)
        try pair.share.setHistoryToken(try pair.share.latestHistoryToken(), for: "watch")
        #expect(try pair.share.purgeHistory(.consumedByAll) == 1, "before the app's token (T2): T1")
    }

    @Test func weekOldPurgeUsesTheSimulatedClock() throws {
        let pair = try HistoryTests.Pair()
        _ = try pair.app.viewContext.insertNote("old")
        pair.fixture.clock.advance(by: 8 * 86_400)
        _ = try pair.app.viewContext.insertNote("new")
        #expect(try pair.app.purgeHistory(.olderThan(7 * 86_400)) == 1)
        let remaining = try pair.app.fetchHistory(after: nil)
        #expect(remaining.transactions.count == 1)
        #expect(remaining.transactions[0].changes[0].object.primaryKey == 2)
        #expect(throws: StoreError.self) { try pair.app.fetchHistory(after: 0) }
    }
}
