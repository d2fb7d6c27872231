import Foundation
import SharedStore
import Testing

/// Identity across stores, deletes and concurrent edits: every store converges to the same objects.
@Suite struct SyncConflictTests {
    /// Syncs every peer, twice round, so each has seen every other's export.
    func syncAll(_ peers: [SyncPeer]) throws {
        for _ in 0..<2 { for peer in peers { try peer.sync() } }
    }

    @Test func theSameUUIDInsertedOnBothSidesIsOneObject() throws {
        let world = try SyncWorld()
        let phone = try world.peer("phone")
        let watch = try world.peer("watch")
        let uid = UUID()
        try phone.insert("Note", ["title": "from phone", "uid": .uuid(uid)])
        world.clock.advance(by: 1)
        try watch.insert("Note", ["title": "from watch", "uid": .uuid(uid)])

        try syncAll([phone, watch])

        #expect(try phone.count("Note") == 1)
        #expect(try watch.count("Note") == 1)
        #expect(try phone.rows("Note") == watch.rows("Note"))
        // Both inserts are concurrent: per property the later one wins.
        #expect(try phone.rows("Note").first?.contains("title=from watch") == true)
    }

    @Test func theSameObjectWithoutUUIDInsertedOnBothSidesIsADuplicate() throws {
        let world = try SyncWorld()
        let phone = try world.peer("phone")
        let watch = try world.peer("watch")
        try phone.insert("Tag", ["name": "groceries"])
        try watch.insert("Tag", ["name": "groceries"])

        try syncAll([phone, watch])

        #expect(try phone.count("Tag") == 2)
        #expect(try watch.count("Tag") == 2)
        #expect(try phone.rows("Tag") == watch.rows("Tag"))
    }

    @Test func aDeletePropagates() throws {
        let world = try SyncWorld()
        let phone = try world.peer("phone")
        let watch = try world.peer("watch")
        let note = try phone.insert("Note", ["title": "A"])
        try syncAll([phone, watch])
        #expect(try watch.count("Note") == 1)

        try phone.delete(note)
        try phone.sync()
        let view = watch.context
        let shown = try view.fetch(FetchRequest(entity: "Note"))
        let result = try watch.ensemble.sync(mergingInto: view)

        #expect(result.changes.deleted == shown)
        #expect(view.viewObjects(entity: "Note").isEmpty)
        #expect(try watch.count("Note") == 0)
    }

    @Test(arguments: [true, false])
    func aDeleteBeatsAConcurrentEdit(deleterSyncsFirst: Bool) throws {
        let world = try SyncWorld()
        let phone = try world.peer("phone")
        let watch = try world.peer("watch")
        let note = try phone.insert("Note", ["title": "A"])
        try syncAll([phone, watch])
        let watchNote = try #require(try watch.objects("Note").first)

        try phone.delete(note)
        world.clock.advance(by: 10)   // the edit is later, and still loses
        try watch.update(watchNote, ["title": "edited"])
        try syncAll(deleterSyncsFirst ? [phone, watch] : [watch, phone])

        #expect(try phone.count("Note") == 0)
        #expect(try watch.count("Note") == 0)
    }

    @Test(arguments: [true, false])
    func concurrentEditsConvergePerPropertyByLatestStamp(phoneSyncsFirst: Bool) throws {
        let world = try SyncWorld()
        let phone = try world.peer("phone")
        let watch = try world.peer("watch")
        let note = try phone.insert("Note", ["title": "A", "rank": 1, "score": 1])
        try syncAll([phone, watch])
        let watchNote = try #require(try watch.objects("Note").first)

        world.clock.advance(by: 10)
        try phone.update(note, ["title": "phone title", "rank": 2])
        world.clock.advance(by: 10)
        try watch.update(watchNote, ["title": "watch title", "score": 3])
        world.clock.advance(by: 10)
        try phone.update(note, ["score": 4])
        try syncAll(phoneSyncsFirst ? [phone, watch] : [watch, phone])

        let expected = try phone.rows("Note")
        #expect(try watch.rows("Note") == expected)
        let row = try #require(expected.first)
        #expect(row.contains("title=watch title"))
        #expect(row.contains("rank=2"))
        #expect(row.contains("score=4.0"))
    }

    @Test func equalTimesAreBrokenByStoreIdentifierTheSameWayEverywhere() throws {
        let world = try SyncWorld()
        let phone = try world.peer("phone")
        let watch = try world.peer("watch")
        let note = try phone.insert("Note", ["title": "A"])
        try syncAll([phone, watch])
        let watchNote = try #require(try watch.objects("Note").first)

        world.clock.advance(by: 10)
        try phone.update(note, ["title": "phone"])
        try watch.update(watchNote, ["title": "watch"])
        try syncAll([watch, phone])

        let winner = try #require([phone, watch].max { $0.ensemble.storeIdentifier! < $1.ensemble.storeIdentifier! })
        #expect(try phone.rows("Note") == watch.rows("Note"))
        #expect(try phone.rows("Note").first?.contains("title=\(winner.name)") == true)
    }

    @Test func aLocalEditAfterImportingAFutureStampStillWins() throws {
        // The watch's clock runs 100 s ahead: its stamp is later than the phone's next edit, which follows it.
        let world = try SyncWorld()
        let phone = try world.peer("phone")
        let watch = try world.peer("watch", clockOffset: 100)
        let note = try phone.insert("Note", ["title": "A"])
        try syncAll([phone, watch])
        let watchNote = try #require(try watch.objects("Note").first)

        world.clock.advance(by: 1)
        try watch.update(watchNote, ["title": "from the future"])
        try watch.sync()
        world.clock.advance(by: 1)
        try phone.sync()
        #expect(try phone.rows("Note").first?.contains("title=from the future") == true)
        world.clock.advance(by: 1)
        try phone.update(note, ["title": "after"])
        try syncAll([phone, watch])

        #expect(try phone.rows("Note").first?.contains("title=after") == true)
        #expect(try watch.rows("Note") == phone.rows("Note"))
    }

    @Test func threeStoresConverge() throws {
        let world = try SyncWorld(latency: 1)
        let peers = try ["phone", "watch", "ipad"].map { try world.peer($0) }
        let uid = UUID()
        for (i, peer) in peers.enumerated() {
            try peer.insert("Note", ["title": .string(peer.name), "uid": .uuid(uid), "rank": .int(Int64(i))])
            try peer.insert("Tag", ["name": .string(peer.name)])
            world.clock.advance(by: 1)
        }
        for _ in 0..<3 {
            for peer in peers { try peer.sync() }
            world.clock.advance(by: 2)
        }
        for peer in peers {
            #expect(try peer.count("Note") == 1)
            #expect(try peer.count("Tag") == 3)
            #expect(try peer.rows("Note") == peers[0].rows("Note"))
            #expect(try peer.rows("Tag") == peers[0].rows("Tag"))
        }
    }
}

/// Sync from several processes of one store, and sync's place in history purges.
@Suite struct SyncProcessTests {
    struct Crash: Error {}

    @Test func twoProcessesOfOneStoreShareItsMembershipAndNeverExportOrImportTwice() throws {
        let world = try SyncWorld()
        let app = try world.peer("phone")
        let watch = try world.peer("watch")
        // The share extension: the same store file, another process (its own connections and row cache).
        let share = try StoreCoordinator(url: app.url, model: world.model,
                                         options: StoreOptions(historyTracking: true, bundleIdentifier: "share"),
                                         clock: world.clock)
        let shareEnsemble = SyncEnsemble(store: share, transfer: world.transfer, storeName: "share")
        try app.sync()
        #expect(shareEnsemble.storeIdentifier == app.ensemble.storeIdentifier)

        let context = share.newBackgroundContext(name: "share")
        _ = try context.insert("Note", values: ["title": "shared"])
        try context.save()
        #expect(try app.sync().exportedObjects == 1)
        #expect(try shareEnsemble.sync().exportedObjects == 0)

        try watch.insert("Note", ["title": "from watch"])
        try watch.sync()
        #expect(try shareEnsemble.sync().importedFiles.count == 1)   // the watch's baseline
        #expect(try app.sync().importedFiles.isEmpty)
        #expect(try app.count("Note") == 2)
        try watch.sync()
        #expect(try watch.rows("Note") == app.rows("Note"))
    }

    @Test func purgesByAllConsumersWaitForTheExport() throws {
        let world = try SyncWorld()
        let phone = try world.peer("phone")
        try phone.sync()
        let note = try phone.insert("Note", ["title": "A"])
        try phone.update(note, ["title": "B"])
        #expect(try phone.store.purgeHistory(.consumedByAll) == 0)   // the sync consumer has not exported them
        try phone.sync()
        #expect(try phone.store.historyToken(for: SyncEnsemble.historyConsumer) == phone.store.latestHistoryToken())
    }

    @Test func historyPurgedBeforeItWasExportedIsAnError() throws {
        let world = try SyncWorld()
        let phone = try world.peer("phone")
        try phone.sync()
        try phone.insert("Note", ["title": "A"])
        world.clock.advance(by: 10)
        try phone.insert("Note", ["title": "B"])
        try phone.store.purgeHistory(.olderThan(5))
        #expect {
            try phone.sync()
        } throws: { error in
            guard case SyncError.historyExpired = error else { return false }
            return true
        }
    }

    @Test func aUUIDInsertedAgainAfterItsDeleteStaysDeleted() throws {
        let world = try SyncWorld()
        let phone = try world.peer("phone")
        let watch = try world.peer("watch")
        let uid = UUID()
        try phone.insert("Note", ["title": "A", "uid": .uuid(uid)])
        try phone.sync()
        try watch.sync()
        try watch.delete(try #require(try watch.objects("Note").first))
        try watch.sync()
        try phone.sync()
        #expect(try phone.count("Note") == 0)

        let again = try phone.insert("Note", ["title": "again", "uid": .uuid(uid)])
        let result = try phone.sync()
        #expect(result.changes.deleted == [again])
        #expect(result.exportedObjects == 0)
        #expect(try phone.count("Note") == 0)
    }
}
