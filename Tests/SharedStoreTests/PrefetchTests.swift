import Basics
import Foundation
import SharedStore
import Testing

/// `relationshipKeyPathsForPrefetching`: the related rows are read at the fetch, so the related objects'
/// faults fire from what the store held then, at the default staleness of -1.
@Suite struct PrefetchTests {
    /// A note with two tags saved by one process; the tags' ids.
    private func noteWithTags(_ share: StoreCoordinator) throws -> (note: ObjectID, tags: [ObjectID]) {
        let context = share.newBackgroundContext(name: "setup")
        let note = try context.insert("Note", values: ["title": "N", "rank": 1])
        var tags: [ObjectID] = []
        for name in ["red", "blue"] {
            let tag = try context.insert("Tag", values: ["name": .string(name)])
            try context.relate(note, to: tag, via: "tags")
            tags.append(tag)
        }
        let saved = try context.save().permanentIDs
        return (saved[note]!, tags.map { saved[$0]! })
    }

    @Test(arguments: [false, true])
    func aPrefetchedObjectFiresFromTheRowItsFetchRead(prefetch: Bool) throws {
        let fixture = try StoreFixture()
        let share = try fixture.open()
        let app = try fixture.open().viewContext
        let (_, tags) = try noteWithTags(share)
        _ = try app.fetch(FetchRequest(entity: "Note", relationshipKeyPathsForPrefetching: prefetch ? ["tags"] : []))
        #expect(app.view.contains(tags[0]) == prefetch, "prefetched objects join the view as reached ones")
        try share.update(tags[0], ["name": "green"])
        // Reached by ID now: a prefetched tag is registered and its row cached at the fetch; the other was
        // never read and is read from the store.
        let id = try app.existingObject(with: tags[0])
        #expect(try app.value("name", of: id) == .string(prefetch ? "red" : "green"))
    }

    @Test func aKeyPathPrefetchesEveryLevel() throws {
        let fixture = try StoreFixture()
        let share = try fixture.open()
        let app = try fixture.open().viewContext
        let (note, tags) = try noteWithTags(share)
        // Tag.note is a to-one back to the note: tags.note walks two levels.
        _ = try app.fetch(FetchRequest(entity: "Tag", predicate: "name == 'red'", relationshipKeyPathsForPrefetching: ["note.tags"]))
        #expect(app.view.contains(note))
        #expect(app.view.contains(tags[1]), "the second level (the note's other tag) is prefetched too")
        try share.update(tags[1], ["name": "green"])
        #expect(try app.value("name", of: tags[1]) == .string("blue"))
    }

    @Test func aFilledObjectKeepsItsValuesAndAChildTakesItsParentsObjects() throws {
        let fixture = try StoreFixture()
        let share = try fixture.open()
        let app = try fixture.open().viewContext
        let (_, tags) = try noteWithTags(share)
        _ = try app.fetch(FetchRequest(entity: "Tag"))
        #expect(try app.value("name", of: tags[0]) == .string("red"))
        try share.update(tags[0], ["name": "green"])
        _ = try app.fetch(FetchRequest(entity: "Note", relationshipKeyPathsForPrefetching: ["tags"]))
        #expect(try app.value("name", of: tags[0]) == .string("red"), "a filled object keeps its values, as a refetch's do")
        let child = app.newChildContext(name: "editor")
        _ = try child.fetch(FetchRequest(entity: "Note", relationshipKeyPathsForPrefetching: ["tags"]))
        #expect(child.view.contains(tags[1]), "a child registers and shows what it prefetched")
        #expect(try child.value("name", of: tags[0]) == .string("red"), "a child takes its parent's object")
    }
}
