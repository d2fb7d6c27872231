import Basics
import Foundation
import SharedStore
import Testing

/// Persistent history: catching up, author filters, tokens in the group container.
@Suite struct HistoryTests {
    struct Pair {
        let fixture: StoreFixture
        let app: StoreCoordinator
        let share: StoreCoordinator

        init() throws {
            fixture = try StoreFixture()
            app = try fixture.open(history: true, bundle: "host")
            share = try fixture.open(history: true, bundle: "share")
            app.viewContext.transactionAuthor = "app"
        }

        func shareContext(author: String? = "share") -> ObjectContext {
            let context = share.newBackgroundContext(name: "share")
            context.transactionAuthor = author
            return context
        }
    }

    @Test func consumerCatchesUpOnInsertsUpdatesAndDeletesItMissed() throws {
        let pair = try Pair()
        let context = pair.app.viewContext
        let kept = try context.insertNote("A")
        let doomed = try context.insertNote("D")
        try pair.app.mergeHistory(into: context, consumer: "app")
        #expect(try context.title(kept) == "A")

        let share = pair.shareContext()
        try share.setValues(["title": "B"], for: kept)
        try share.delete(doomed)
        let inserted = try share.insert("Note", values: ["title": "N"])
        let newID = try share.save().permanentIDs[inserted]!

        #expect(try context.title(kept) == "A")
        let result = try pair.app.mergeHistory(into: context, consumer: "app")
        #expect(result.transactions.count == 1)
        #expect(try context.title(kept) == "B", "the merge dropped the snapshot: staleness -1 reads SQL")
        #expect(context.viewObjects(entity: "Note") == [kept, newID])
        #expect(pair.app.historyToken(for: "app") == result.tokenAfter)
    }

    /// A process launched after another's insert (no token yet) deletes the object and saves; its first
    /// merge fetches the older insert, which must not bring the object back into its view.
    @Test func anOlderInsertMergedAfterOwnDeleteStaysDeleted() throws {
        let pair = try Pair()
        let share = pair.shareContext()
        let doomed = try share.insertNote("D")
        let context = pair.app.viewContext
        #expect(try context.fetch(FetchRequest(entity: "Note")) == [doomed])
        try context.delete(doomed)
        try context.save()
        let kept = try share.insertNote("K")

        let result = try pair.app.mergeHistory(into: context, consumer: "app")
        #expect(result.transactions.count == 2, "both of the share's inserts were merged")
        #expect(context.viewObjects(entity: "Note") == [kept], "the deleted note did not come back")
        #expect(try context.title(kept) == "K")
    }

    /// The same with a batch delete of the process's own, which its all-but-own filter skips as well.
    @Test func anOlderInsertMergedAfterOwnBatchDeleteStaysDeleted() throws {
        let pair = try Pair()
        let doomed = try pair.shareContext().insertNote("D")
        #expect(try pair.app.batchDelete("Note", author: "app") == [doomed])
        let result = try pair.app.mergeHistory(into: pair.app.viewContext, consumer: "app")
        #expect(result.transactions.count == 1, "the share's insert was merged, the app's own batch skipped")
        #expect(pair.app.viewContext.viewObjects(entity: "Note").isEmpty, "the batch-deleted note did not come back")
    }

    @Test func ownTransactionsAreSkippedButAdvanceTheToken() throws {
        let pair = try Pair()
        let context = pair.app.viewContext
        _ = try context.insertNote("A")
        let result = try pair.app.mergeHistory(into: context, consumer: "app", filter: .allButOwn)
        #expect(result.transactions.isEmpty)
        #expect(result.skipped == 1)
        #expect(result.tokenAfter == (try pair.app.latestHistoryToken()))
    }

    @Test func transactionWithoutAuthorIsSkippedByAnAllowList() throws {
        let pair = try Pair()
        let context = pair.app.viewContext
        let id = try context.insertNote("A")
        try pair.app.mergeHistory(into: context, consumer: "app")
        let share = pair.shareContext(author: nil)
        try share.setValues(["title": "B"], for: id)
        try share.save()
        let result = try pair.app.mergeHistory(into: context, consumer: "app", filter: .authors(["app", "share"]))
        #expect(result.transactions.isEmpty && result.skipped == 1)
        #expect(try context.title(id) == "A", "bug 8: the unattributed save is never merged")
    }

    @Test func tokenPersistsInTheGroupContainerAcrossRelaunch() throws {
        let pair = try Pair()
        _ = try pair.app.viewContext.insertNote("A")
        let first = try pair.app.mergeHistory(into: pair.app.viewContext, consumer: "app", filter: .all)
        #expect(first.transactions.count == 1)
        _ = try pair.shareContext().insertNote("B")
        let relaunched = try pair.fixture.open(history: true)
        let second = try relaunched.mergeHistory(into: relaunched.viewContext, consumer: "app", filter: .all)
        #expect(second.tokenBefore == first.tokenAfter)
        #expect(second.transactions.count == 1)
        #expect(relaunched.viewContext.view.count == 1)
    }

    @Test func historyRecordsAuthorsColumnsAndTombstones() throws {
        let pair = try Pair()
        let uid = UUID()
        let context = pair.app.viewContext
        let temporary = try context.insert("Note", values: ["title": "A", "uid": .uuid(uid)])
        let id = try context.save().permanentIDs[temporary]!
        try context.setValues(["title": "B"], for: id)
        try context.save()
        try context.delete(id)
        try context.save()
        let history = try pair.app.fetchHistory(after: nil)
        #expect(history.transactions.map { $0.changes.map(\.operation) } == [[.insert], [.update], [.delete]])
        #expect(history.transactions.allSatisfy { $0.author == "app" && $0.bundleIdentifier == "host" })
        #expect(history.transactions[1].changes[0].updatedProperties == ["title"])
        #expect(history.transactions[2].changes[0].tombstone == ["uid": .uuid(uid)])
        #expect(history.transactions[0].timestamp == pair.fixture.clock.now)
        let tokens = history.transactions.map(\.token)
        #expect(tokens == tokens.sorted() && Set(tokens).count == 3)
    }

    @Test func storeTrackedOnceIsReadOnlyWithoutTracking() throws {
        let fixture = try StoreFixture()
        let tracked = try fixture.open(history: true)
        _ = try tracked.viewContext.insertNote("A")
        let untracked = try fixture.open(history: false)
        #expect(untracked.readOnlyReason != nil)
        try untracked.viewContext.insert("Note", values: ["title": "B"])
        #expect {
            try untracked.viewContext.save()
        } throws: { error in
            ErrorKind(error) == .readOnly
        }
        #expect(try untracked.viewContext.fetch(FetchRequest(entity: "Note", includesPendingChanges: false)).count == 1,
                "reads still work")
    }
}

/// A store replaced by a copy is another store: a new identifier, and a token saved for the old one
/// is rejected until it is started again.
@Suite struct StoreIdentityTests {
    @Test func aRestoredStoreHasANewIdentifierAndRejectsTokensSavedForTheOldOne() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open(history: true)
        _ = try app.viewContext.insertNote("A")
        try app.mergeHistory(into: app.viewContext, consumer: "app")
        let old = app.storeIdentifier
        let backup = fixture.directory.url.appendingPathComponent("backup/Notes.sqlite")
        try app.copyStore(to: backup, includeWAL: true)
        let token = app.historyToken(for: "app")
        _ = consume app
        try StoreFiles.restore(fixture.url, from: backup)
        let restored = try fixture.open(history: true)
        #expect(restored.storeIdentifier != old)
        #expect(restored.historyToken(for: "app") == token, "the token file stays in the container")
        #expect(restored.historyTokenIsForeign(for: "app"))
        #expect(throws: StoreError.self) { try restored.mergeHistory(into: restored.viewContext, consumer: "app") }
        try restored.setHistoryToken(nil, for: "app")
        #expect(!restored.historyTokenIsForeign(for: "app"))
        let merged = try restored.mergeHistory(into: restored.viewContext, consumer: "app")
        #expect(merged.transactions.count == 1, "started again, it reads the restored history from the start")
    }
}
