import Basics
import Foundation
import SharedStore
import Testing

/// The sync engine (issue 7): leech, export, import, idempotence, transfer latency, identity.
@Suite struct SyncTests {
    @Test func leechExportsTheStoreContentsOnceAsABaseline() throws {
        let world = try SyncWorld()
        let phone = try world.peer("phone")
        try phone.insert("Note", ["title": "A"])
        try phone.insert("Note", ["title": "B"])

        let result = try phone.ensemble.leech()

        #expect(result.leeched)
        #expect(result.exportedObjects == 2)
        #expect(result.exportedFiles.count == 1)
        #expect(try world.transfer.list() == result.exportedFiles)
        #expect(phone.ensemble.isLeeched)
        #expect(phone.ensemble.storeIdentifier?.hasPrefix("phone-") == true)
        // The baseline is not exported again.
        #expect(try phone.sync().exportedObjects == 0)
    }

    @Test func leechingTwiceIsAnError() throws {
        let world = try SyncWorld()
        let phone = try world.peer("phone")
        try phone.ensemble.leech()
        #expect {
            try phone.ensemble.leech()
        } throws: { error in
            guard case SyncError.alreadyLeeched = error else { return false }
            return true
        }
        // The membership is in the store: a relaunched process is still leeched.
        try phone.relaunch()
        #expect(phone.ensemble.isLeeched)
        #expect(throws: SyncError.self) { try phone.ensemble.leech() }
    }

    @Test func firstSyncLeechesImplicitly() throws {
        let world = try SyncWorld()
        let watch = try world.peer("watch")
        try watch.insert("Note", ["title": "W"])

        let result = try watch.sync()

        #expect(result.leeched)
        #expect(result.exportedObjects == 1)
        #expect(watch.ensemble.isLeeched)
        #expect(try !watch.sync().leeched)
    }

    @Test func syncNeedsHistoryTracking() throws {
        let world = try SyncWorld()
        let watch = try world.peer("watch", history: false)
        #expect {
            try watch.sync()
        } throws: { error in
            guard case SyncError.historyTrackingRequired = error else { return false }
            return true
        }
    }

    @Test func exportCarriesTheChangesSinceTheLastExportWithTheirValues() throws {
        let world = try SyncWorld()
        let phone = try world.peer("phone")
        try phone.sync()
        world.clock.advance(by: 10)
        let note = try phone.insert("Note", ["title": "A", "rank": 3])
        world.clock.advance(by: 10)
        try phone.update(note, ["title": "B"])

        let result = try phone.sync()

        #expect(result.exportedObjects == 1)
        let name = try #require(result.exportedFiles.first)
        let json = try #require(try JSONSerialization.jsonObject(with: world.transfer.read(name)) as? [String: Any])
        #expect(json["store"] as? String == phone.ensemble.storeIdentifier)
        let changes = try #require(json["changes"] as? [[String: Any]])
        #expect(changes.count == 1)
        let change = changes[0]
        #expect(change["operation"] as? String == "insert")
        #expect(change["entity"] as? String == "Note")
        let properties = try #require(change["properties"] as? [String: [String: Any]])
        #expect((properties["title"]?["value"] as? [String: Any])?["value"] as? String == "B")
        #expect((properties["rank"]?["value"] as? [String: Any])?["value"] as? Int == 3)
        // Title was written 10 s after the insert: its own stamp.
        let insertTime = try #require(properties["rank"]?["time"] as? Double)
        #expect(properties["title"]?["time"] as? Double == insertTime + 10)
        #expect(try phone.sync().exportedObjects == 0)
    }

    @Test func importAppliesPeerChangesAndReportsThem() throws {
        let world = try SyncWorld()
        let phone = try world.peer("phone")
        let watch = try world.peer("watch")
        try watch.sync()
        let note = try phone.insert("Note", ["title": "A", "rank": 7])
        try phone.sync()

        let view = watch.context
        _ = try view.fetch(FetchRequest(entity: "Note"))
        #expect(view.viewObjects(entity: "Note").isEmpty)
        let result = try watch.ensemble.sync(mergingInto: view)

        #expect(result.importedFiles.count == 1)
        #expect(result.changes.inserted.count == 1)
        let imported = try #require(result.changes.inserted.first)
        #expect(imported.storeIdentifier == watch.store.storeIdentifier)
        #expect(view.viewObjects(entity: "Note") == [imported])
        #expect(try view.title(imported) == "A")
        #expect(try view.value("rank", of: imported) == .int(7))
        // Same global identifier on both sides.
        #expect(try watch.ensemble.globalIdentifier(of: imported) == phone.ensemble.globalIdentifier(of: note))
        #expect(try watch.ensemble.object(forGlobalIdentifier: phone.ensemble.globalIdentifier(of: note)) == imported)

        // An update travels too, and bumps the row version.
        world.clock.advance(by: 5)
        try phone.update(note, ["title": "B"])
        try phone.sync()
        let second = try watch.ensemble.sync(mergingInto: view)
        #expect(second.changes.updated == [imported])
        #expect(try view.title(imported) == "B")
        let db = try SQLiteConnection(path: watch.url.path)
        #expect(try db.scalarInt("SELECT Z_OPT FROM ZNOTE WHERE Z_PK = ?", [.int(imported.primaryKey)]) == 2)
    }

    @Test func importIsRecordedInHistoryAndNotExportedBack() throws {
        let world = try SyncWorld()
        let phone = try world.peer("phone")
        let watch = try world.peer("watch")
        try phone.insert("Note", ["title": "A"])
        try phone.sync()

        let result = try watch.sync()
        let token = try #require(result.historyToken)
        let history = try watch.store.fetchHistory(after: token - 1)
        #expect(history.transactions.map(\.author) == [SyncEnsemble.importAuthor])
        #expect(history.transactions.first?.changes.map(\.operation) == [.insert])

        // The watch does not send the phone's note back; the phone imports nothing.
        #expect(try watch.sync().exportedObjects == 0)
        #expect(try phone.sync().importedFiles.isEmpty)
        #expect(try phone.count("Note") == 1)
    }

    @Test func reimportIsIdempotent() throws {
        let world = try SyncWorld()
        let phone = try world.peer("phone")
        let watch = try world.peer("watch")
        try phone.insert("Note", ["title": "A"])
        try phone.sync()
        try watch.sync()

        // Applied files are recorded: nothing is applied twice.
        #expect(try watch.sync().importedFiles.isEmpty)
        #expect(try watch.count("Note") == 1)

        // Even with the record lost, applying a change set again changes nothing: identities and stamps.
        let db = try SQLiteConnection(path: watch.url.path)
        try db.execute("DELETE FROM GROUPSIM_SYNCAPPLIED")
        let again = try watch.sync()
        #expect(again.importedFiles.count == 1)
        #expect(again.changes.isEmpty)
        #expect(try watch.count("Note") == 1)
    }

    @Test func aFileIsInvisibleUntilTheLatencyPasses() throws {
        let world = try SyncWorld(latency: 5)
        let phone = try world.peer("phone")
        let watch = try world.peer("watch")
        try phone.insert("Note", ["title": "A"])
        let exported = try phone.sync().exportedFiles
        #expect(exported.count == 1)

        #expect(try world.transfer.list().isEmpty)
        #expect(try watch.sync().importedFiles.isEmpty)
        world.clock.advance(by: 4.9)
        #expect(try watch.sync().importedFiles.isEmpty)
        #expect(try watch.count("Note") == 0)
        world.clock.advance(by: 0.1)
        #expect(try world.transfer.list() == exported)
        #expect(try watch.sync().importedFiles == exported)
        #expect(try watch.count("Note") == 1)
    }

    @Test func toOneRelationshipsTravelAsGlobalIdentifiers() throws {
        let world = try SyncWorld()
        let phone = try world.peer("phone")
        let watch = try world.peer("watch")
        try watch.insert("Note", ["title": "local"])   // takes Z_PK 1 on the watch: keys differ
        try watch.sync()
        let context = phone.store.newBackgroundContext(name: "phone")
        let note = try context.insert("Note", values: ["title": "A"])
        let tag = try context.insert("Tag", values: ["name": "t"])
        try context.relate(tag, to: note, via: "note")
        let saved = try context.save()
        try phone.sync()

        try watch.sync()

        let watchNote = try #require(try watch.ensemble.object(
            forGlobalIdentifier: phone.ensemble.globalIdentifier(of: saved.permanentIDs[note]!), entity: "Note"))
        let watchTag = try #require(try watch.ensemble.object(
            forGlobalIdentifier: phone.ensemble.globalIdentifier(of: saved.permanentIDs[tag]!), entity: "Tag"))
        let reader = watch.store.newBackgroundContext(name: "check")
        #expect(try reader.relatedObjects(of: watchTag, via: "note") == [watchNote])
        #expect(try reader.relatedObjects(of: watchNote, via: "tags") == [watchTag])
        #expect(try reader.title(watchNote) == "A")
    }

    @Test func aRelationshipToAnObjectNotArrivedYetIsResolvedWhenItArrives() throws {
        let world = try SyncWorld()
        let phone = try world.peer("phone")
        let ipad = try world.peer("ipad")
        let watch = try world.peer("watch")
        try watch.sync()
        let note = try phone.insert("Note", ["title": "N"])
        try phone.sync()
        try ipad.sync()
        let ipadNote = try #require(try ipad.objects("Note").first)
        let context = ipad.store.newBackgroundContext(name: "ipad")
        let tag = try context.insert("Tag", values: ["name": "t"])
        try context.relate(tag, to: ipadNote, via: "note")
        let ipadTag = try context.save().permanentIDs[tag]!
        try ipad.sync()

        // The phone's file has not reached the watch yet; the iPad's has.
        let phoneStore = try #require(phone.ensemble.storeIdentifier)
        let delayed = DelayedTransfer(base: world.transfer) { $0.hasPrefix(phoneStore) }
        watch.use(delayed)
        try watch.sync()
        let watchTag = try #require(try watch.objects("Tag").first)
        let reader = watch.store.newBackgroundContext(name: "check")
        #expect(try reader.relatedObjects(of: watchTag, via: "note").isEmpty)
        #expect(try watch.count("Note") == 0)
        // Meanwhile the watch exports nothing that would drop the awaited target.
        #expect(try watch.sync().exportedObjects == 0)

        delayed.hidden = { _ in false }
        // Merging the result drops the process's stale row snapshots, as after any remote change.
        let arrived = try watch.ensemble.sync(mergingInto: watch.context)
        let watchNote = try #require(try watch.objects("Note").first)
        #expect(arrived.changes.inserted == [watchNote])
        #expect(arrived.changes.updated == [watchTag])
        #expect(try watch.store.newBackgroundContext(name: "check").relatedObjects(of: watchTag, via: "note") == [watchNote])
        #expect(try watch.ensemble.globalIdentifier(of: watchNote) == phone.ensemble.globalIdentifier(of: note))
        #expect(try watch.ensemble.globalIdentifier(of: watchTag) == ipad.ensemble.globalIdentifier(of: ipadTag))
    }

    @Test func manyToManyRelationshipsTravelAsSetsOfGlobalIdentifiers() throws {
        let model = try Model(ModelDescription.parse([
            ("Note", [("title", "string"), ("labels", "[Label]")]),
            ("Label", [("name", "string"), ("notes", "[Note]")]),
        ]))
        let world = try SyncWorld(model: model)
        let phone = try world.peer("phone")
        let watch = try world.peer("watch")
        let context = phone.store.newBackgroundContext(name: "phone")
        let note = try context.insert("Note", values: ["title": "A"])
        let red = try context.insert("Label", values: ["name": "red"])
        let blue = try context.insert("Label", values: ["name": "blue"])
        try context.relate(note, to: red, via: "labels")
        try context.relate(note, to: blue, via: "labels")
        let ids = try context.save().permanentIDs
        try phone.sync()
        try watch.sync()

        func watchLabels() throws -> [String] {
            let reader = watch.store.newBackgroundContext(name: "check")
            let watchNote = try #require(try watch.ensemble.object(
                forGlobalIdentifier: phone.ensemble.globalIdentifier(of: ids[note]!)))
            return try reader.relatedObjects(of: watchNote, via: "labels").map { try reader.value("name", of: $0).description }.sorted()
        }
        #expect(try watchLabels() == ["blue", "red"])

        // Unrelating alone (no attribute change) travels too.
        world.clock.advance(by: 1)
        let edit = phone.store.newBackgroundContext(name: "phone")
        try edit.unrelate(ids[note]!, from: ids[red]!, via: "labels")
        try edit.save()
        #expect(try phone.sync().exportedObjects == 1)
        try watch.sync()
        #expect(try watchLabels() == ["blue"])
    }

    @Test func globalIdentifiersComeFromUUIDAttributesOrAreAssignedOnce() throws {
        let world = try SyncWorld()
        let phone = try world.peer("phone")
        let uid = UUID()
        let note = try phone.insert("Note", ["title": "A", "uid": .uuid(uid)])
        let tag = try phone.insert("Tag", ["name": "t"])

        #expect(try phone.ensemble.globalIdentifier(of: note) == uid.uuidString)
        let assigned = try phone.ensemble.globalIdentifier(of: tag)
        #expect(UUID(uuidString: assigned) != nil)
        #expect(try phone.ensemble.globalIdentifier(of: tag) == assigned)
        #expect(try phone.ensemble.object(forGlobalIdentifier: assigned) == tag)
        #expect(try phone.ensemble.object(forGlobalIdentifier: uid.uuidString, entity: "Note") == note)
        #expect(try phone.ensemble.object(forGlobalIdentifier: UUID().uuidString) == nil)
        // The assigned identifier is the one exported.
        let result = try phone.sync()
        let data = try world.transfer.read(result.exportedFiles[0])
        #expect(String(decoding: data, as: UTF8.self).contains(assigned))
    }
}
