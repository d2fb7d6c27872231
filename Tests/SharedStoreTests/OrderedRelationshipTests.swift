import Basics
import Foundation
import SharedStore
import Testing
import TestSupport

/// Ordered to-many relationships (`isOrdered`, an `NSOrderedSet`): the order a context gives, kept in Core
/// Data's `Z_FOK_` columns and read back in it by another process.
@Suite struct OrderedRelationshipTests {
    /// A folder's ordered notes (one-to-many, order keys in `ZNOTE.Z_FOK_FOLDER`) and a playlist's ordered
    /// songs (many-to-many, order keys in the join table).
    static func model() throws -> Model {
        try Model(ModelDescription(entities: [
            EntityDescription(name: "Folder", relationships: [
                RelationshipDescription(name: "notes", destination: "Note", isToMany: true, isOrdered: true),
            ]),
            EntityDescription(name: "Note", attributes: [AttributeDescription(name: "title", type: .string)], relationships: [
                RelationshipDescription(name: "folder", destination: "Folder", isToMany: false),
            ]),
            EntityDescription(name: "Playlist", relationships: [
                RelationshipDescription(name: "songs", destination: "Song", isToMany: true, isOrdered: true),
            ]),
            EntityDescription(name: "Song", relationships: [
                RelationshipDescription(name: "playlists", destination: "Playlist", isToMany: true),
            ]),
        ]))
    }

    struct Stores {
        let directory: TemporaryDirectory
        let url: URL
        let model: Model
        init() throws {
            directory = try TemporaryDirectory(prefix: "ordered")
            url = directory.url.appendingPathComponent("Lists.sqlite")
            model = try OrderedRelationshipTests.model()
        }
        func open() throws -> StoreCoordinator { try StoreCoordinator(url: url, model: model) }
    }

    private func titles(_ context: ObjectContext, _ ids: [ObjectID]) throws -> [String] {
        try ids.map { try context.value("title", of: $0).stringValue ?? "?" }
    }

    @Test func aFoldersOrderIsWrittenAndReadBackByAnotherProcess() throws {
        let stores = try Stores()
        let app = try stores.open()
        let view = app.viewContext
        let folder = try view.insert("Folder", values: [:])
        var notes: [ObjectID] = []
        for title in ["a", "b", "c"] {
            let note = try view.insert("Note", values: ["title": .string(title)])
            try view.relate(folder, to: note, via: "notes")
            notes.append(note)
        }
        try view.relate(folder, to: notes[2], via: "notes", at: 0)
        #expect(try titles(view, view.relatedObjects(of: folder, via: "notes")) == ["c", "a", "b"], "moved before the save")
        let late = try view.insert("Note", values: ["title": .string("d")])
        try view.relate(late, to: folder, via: "folder")
        #expect(try titles(view, view.relatedObjects(of: folder, via: "notes")) == ["c", "a", "b", "d"], "a note given the folder goes last")
        let saved = try view.save()
        let folderID = saved.permanentIDs[folder]!

        let share = try stores.open()
        let other = share.viewContext
        #expect(try titles(other, other.relatedObjects(of: folderID, via: "notes")) == ["c", "a", "b", "d"])
        let b = try other.relatedObjects(of: folderID, via: "notes")[2]
        try other.relate(folderID, to: b, via: "notes", at: 0)
        try other.unrelate(folderID, from: try other.relatedObjects(of: folderID, via: "notes")[1], via: "notes")
        try other.save()

        let third = try stores.open().viewContext
        #expect(try titles(third, third.relatedObjects(of: folderID, via: "notes")) == ["b", "a", "d"], "moved, removed, the rest in order")
        let keys = try SQLiteConnection(path: stores.url.path, readOnly: true)
        defer { keys.close() }
        #expect(try keys.scalarInt("SELECT count(*) FROM ZNOTE WHERE Z_FOK_FOLDER IS NOT NULL") == 3, "Core Data's column for the order")
        let inspected = try StoreInspector.inspect(stores.url).entities.first { $0.name == "Note" }
        #expect(inspected?.attributes.map(\.name) == ["title"], "an order key is no attribute of the note")
        #expect(throws: StoreError.self, "an unordered relationship has no positions") {
            try third.relate(b, to: folderID, via: "folder", at: 0)
        }
    }

    /// A process whose list still holds a note another process moved to another folder saves the list (the
    /// store-trump policy lets the save through): the order keys it writes reach only the notes still in its
    /// folder, so the other folder keeps the order its own save gave it.
    @Test func aSaveOfAStaleListLeavesTheOrderOfNotesMovedAway() throws {
        let stores = try Stores()
        let app = try stores.open()
        let view = app.viewContext
        view.mergePolicy = .storeTrump
        let first = try view.insert("Folder", values: [:]), second = try view.insert("Folder", values: [:])
        let notes = try ["a", "b", "c", "x"].map { try view.insert("Note", values: ["title": .string($0)]) }
        for note in notes.prefix(3) { try view.relate(first, to: note, via: "notes") }
        try view.relate(second, to: notes[3], via: "notes")
        let saved = try view.save()
        let (l1, l2) = (saved.permanentIDs[first]!, saved.permanentIDs[second]!)
        _ = try view.relatedObjects(of: l1, via: "notes")

        let share = try stores.open().viewContext
        let c = saved.permanentIDs[notes[2]]!
        try share.relate(l2, to: c, via: "notes", at: 0)
        try share.save()

        try view.relate(l1, to: try view.insert("Note", values: ["title": "f"]), via: "notes")
        try view.save()
        let fresh = try stores.open().viewContext
        #expect(try titles(fresh, fresh.relatedObjects(of: l2, via: "notes")) == ["c", "x"], "the share extension's order stands")
        #expect(try titles(fresh, fresh.relatedObjects(of: l1, via: "notes")) == ["a", "b", "f"])
    }

    @Test func aPlaylistsOrderLivesInItsJoinTableAndAChildPushesIt() throws {
        let stores = try Stores()
        let app = try stores.open()
        let view = app.viewContext
        let playlist = try view.insert("Playlist", values: [:])
        let songs = try (0..<3).map { _ in try view.insert("Song", values: [:]) }
        for song in songs { try view.relate(playlist, to: song, via: "songs") }
        let saved = try view.save()
        let list = saved.permanentIDs[playlist]!
        let keys = songs.map { saved.permanentIDs[$0]! }

        let editor = view.newChildContext(name: "editor")
        try editor.relate(list, to: keys[2], via: "songs", at: 1)
        try editor.save()
        #expect(try view.relatedObjects(of: list, via: "songs") == [keys[0], keys[2], keys[1]], "the child's order reaches its parent")
        try view.save()

        let other = try stores.open().viewContext
        #expect(try other.relatedObjects(of: list, via: "songs") == [keys[0], keys[2], keys[1]])
        let db = try SQLiteConnection(path: stores.url.path, readOnly: true)
        defer { db.close() }
        // Playlist 3 `songs` <-> Song 4 `playlists`: Core Data's Z_3SONGS (Z_3PLAYLISTS, Z_4SONGS), with the
        // songs' order beside their column, as Photos' Z_26ASSETS holds Z_FOK_34ASSETS.
        #expect(try db.columns(of: "Z_3SONGS") == ["Z_3PLAYLISTS", "Z_4SONGS", "Z_FOK_4SONGS"])
        // Read off the schema (as a store from a device is): the order key says which side is ordered.
        let inferred = try StoreInspector.inspect(stores.url).inferredModel()
        #expect(inferred.entity(named: "Playlist")?.relationship(named: "songs")?.isOrdered == true)
        #expect(inferred.entity(named: "Song")?.relationship(named: "playlists")?.isOrdered == false)
    }
}
