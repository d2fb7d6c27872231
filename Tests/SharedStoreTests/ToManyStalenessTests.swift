import Basics
import Foundation
import SharedStore
import Testing

/// A fired to-many relationship holds what it fetched until its object is refreshed; fired again, it
/// reloads "from the store or last cached state" by the staleness rules, like the object's attributes
/// (Apple's documentation of `refreshObject(_:mergeChanges:)`). Merges, own saves and moves of a
/// destination between owners keep it right.
@Suite struct ToManyStalenessTests {
    /// A note with tag `first`, saved; the app's view has fired the note's tags.
    private func noteWithATag(_ fixture: StoreFixture, app: StoreCoordinator) throws -> (note: ObjectID, tag: ObjectID) {
        let context = app.viewContext
        let note = try context.insert("Note", values: ["title": "A"])
        let tag = try context.insert("Tag", values: ["name": "first"])
        try context.relate(note, to: tag, via: "tags")
        let ids = try context.save().permanentIDs
        let noteID = ids[note]!, tagID = ids[tag]!
        #expect(try context.relatedObjects(of: noteID, via: "tags") == [tagID])
        return (noteID, tagID)
    }

    /// Another process adds a tag to `note`; returns the new tag.
    private func tagElsewhere(_ store: StoreCoordinator, _ note: ObjectID) throws -> ObjectID {
        let other = store.newBackgroundContext(name: "share")
        let tag = try other.insert("Tag", values: ["name": "second"])
        try other.relate(note, to: tag, via: "tags")
        return try other.save().permanentIDs[tag]!
    }

    @Test func aFiredToManyKeepsWhatItFetchedAndARefreshAtInfiniteStalenessRefillsItFromTheCache() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open(), share = try fixture.open()
        let (note, first) = try noteWithATag(fixture, app: app)
        _ = try tagElsewhere(share, note)
        let context = app.viewContext
        #expect(try context.relatedObjects(of: note, via: "tags") == [first], "a fired to-many is not fetched again")
        context.refreshAllObjects()
        #expect(try context.relatedObjects(of: note, via: "tags") == [first], "staleness -1: the cached state wins")
    }

    @Test func atZeroStalenessARefreshedToManyReadsTheStoreAgain() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open(), share = try fixture.open()
        app.viewContext.stalenessInterval = 0
        let (note, first) = try noteWithATag(fixture, app: app)
        let second = try tagElsewhere(share, note)
        let context = app.viewContext
        #expect(try context.relatedObjects(of: note, via: "tags") == [first], "not refreshed: still as fetched")
        context.refreshAllObjects()
        #expect(Set(try context.relatedObjects(of: note, via: "tags")) == [first, second])
    }

    @Test func aHistoryMergeOfTheRelateDropsTheCachedStateOfBothEnds() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open(history: true), share = try fixture.open(history: true)
        let (note, first) = try noteWithATag(fixture, app: app)
        let token = try app.latestHistoryToken()
        let second = try tagElsewhere(share, note)
        let history = try app.fetchHistory(after: token)
        #expect(history.remoteChanges.updated.contains(note), "the relate updates the note too, as Core Data marks both ends")
        app.viewContext.mergeChanges(fromRemoteContextSave: history.remoteChanges)
        #expect(Set(try app.viewContext.relatedObjects(of: note, via: "tags")) == [first, second])
    }

    @Test func movingATagUpdatesTheNoteItLeavesAndThatNoteReadsItsTagsAgain() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open(history: true)
        let (note, tag) = try noteWithATag(fixture, app: app)
        let context = app.viewContext
        let other = try context.insert("Note", values: ["title": "B"])
        try context.relate(tag, to: other, via: "note")
        let result = try context.save()
        let otherID = result.permanentIDs[other]!
        #expect(result.updated.contains(note), "inverse maintenance takes the tag out of the first note's tags")
        #expect(try context.relatedObjects(of: note, via: "tags").isEmpty, "the saving context reads its own change")
        #expect(try context.relatedObjects(of: otherID, via: "tags") == [tag])
        let fresh = try fixture.open().viewContext
        #expect(try fresh.relatedObjects(of: note, via: "tags").isEmpty)
    }

    @Test func deletingATagNullifiesItAndUpdatesItsNoteAsCoreDatasDefaultDeleteRuleDoes() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open(history: true), share = try fixture.open(history: true)
        let (note, tag) = try noteWithATag(fixture, app: app)
        let token = try app.latestHistoryToken()
        let other = share.newBackgroundContext(name: "share")
        try other.delete(tag)
        let result = try other.save()
        #expect(result.updated == [note] && result.deleted == [tag], "the note loses the tag: it is updated in the same save")
        app.viewContext.mergeChanges(fromRemoteContextSave: try app.fetchHistory(after: token).remoteChanges)
        #expect(try app.viewContext.relatedObjects(of: note, via: "tags").isEmpty)
    }

    @Test func aResetAndRefetchReadsToManyContentsAgainWhateverTheStaleness() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open(), share = try fixture.open()
        let (note, first) = try noteWithATag(fixture, app: app)
        let second = try tagElsewhere(share, note)
        let context = app.viewContext
        context.reset()
        _ = try context.fetch(FetchRequest(entity: "Note"))
        #expect(Set(try context.relatedObjects(of: note, via: "tags")) == [first, second], "a fetch reads the row, and its to-many, again")
    }

    @Test func aPendingRelateShowsOnTopOfTheFetchedContents() throws {
        let fixture = try StoreFixture()
        let app = try fixture.open()
        let (note, first) = try noteWithATag(fixture, app: app)
        let context = app.viewContext
        let extra = try context.insert("Tag", values: ["name": "extra"])
        try context.relate(note, to: extra, via: "tags")
        #expect(Set(try context.relatedObjects(of: note, via: "tags")) == [first, extra])
        context.rollback()
        #expect(try context.relatedObjects(of: note, via: "tags") == [first])
    }
}
