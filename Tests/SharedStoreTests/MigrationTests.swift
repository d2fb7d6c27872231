import Basics
import Foundation
import SharedStore
import Testing
import TestSupport

/// Opening a store made with a previous model version: Core Data's lightweight migration, in place.
@Suite struct MigrationTests {
    static func model(_ entities: [(name: String, properties: [(name: String, type: String)])]) throws -> Model {
        try Model(ModelDescription.parse(entities))
    }

    static let v1 = try! model([("Note", [("title", "string"), ("color", "string?")])])
    static let v2 = try! model([("Note", [("title", "string"), ("pinned", "bool = false")])])

    final class Files {
        let directory: TemporaryDirectory
        let url: URL
        init() throws {
            directory = try TemporaryDirectory(prefix: "migration")
            url = directory.url.appendingPathComponent("Notes.sqlite")
        }

        func open(_ model: Model, previous: [Model] = [], migrate: Bool = true, history: Bool = true,
                  busyTimeout: Duration = .seconds(5)) throws -> StoreCoordinator {
            var options = StoreOptions(historyTracking: history, busyTimeout: busyTimeout)
            options.previousModels = previous
            options.migratesAutomatically = migrate
            return try StoreCoordinator(url: url, model: model, options: options, clock: ManualClock())
        }
    }

    @Test func addedAndRemovedAttributesMigrateInPlace() throws {
        let files = try Files()
        let old = try files.open(Self.v1)
        let id = try old.viewContext.insert("Note", values: ["title": "Groceries", "color": "green"])
        let saved = try old.viewContext.save().permanentIDs[id]!
        let identifier = old.storeIdentifier
        let new = try files.open(Self.v2, previous: [Self.v1])
        #expect(new.storeIdentifier == identifier, "migrated in place: the same store")
        #expect(try StoreCoordinator.modelHash(ofStoreAt: files.url) == Self.v2.versionHash)
        let note = try #require(try new.viewContext.fetch(FetchRequest(entity: "Note")).first)
        #expect(note.primaryKey == saved.primaryKey)
        #expect(try new.viewContext.values(of: note) == ["title": "Groceries", "pinned": .bool(false)])
        // The process that opened it with v1 still has it open: its statements name a column that is gone.
        #expect(try old.currentModelHash() == Self.v2.versionHash)
        #expect(throws: StoreError.self) {
            _ = try old.newBackgroundContext().fetch(FetchRequest(entity: "Note"))
        }
        // History written before the migration is still read.
        #expect(try new.fetchHistory(after: nil).transactions.flatMap(\.changes).count == 1)
    }

    @Test func anAddedEntityRenumbersTheOthersAndTheirJoinTables() throws {
        let v1 = try Self.model([("Note", [("title", "string"), ("tags", "[Tag]")]),
                                 ("Tag", [("name", "string"), ("notes", "[Note]")])])
        let v2 = try Self.model([("Note", [("title", "string"), ("tags", "[Tag]")]),
                                 ("Tag", [("name", "string"), ("notes", "[Note]")]),
                                 ("Attachment", [("name", "string")])])
        let files = try Files()
        let old = try files.open(v1)
        let context = old.viewContext
        let note = try context.insert("Note", values: ["title": "Trip"])
        let tag = try context.insert("Tag", values: ["name": "travel"])
        try context.relate(note, to: tag, via: "tags")
        let keys = try context.save().permanentIDs
        let new = try files.open(v2, previous: [v1])
        let view = new.viewContext
        let notes = try view.fetch(FetchRequest(entity: "Note"))
        #expect(notes.count == 1)
        let tags = try view.relatedObjects(of: notes[0], via: "tags")
        #expect(tags.map(\.primaryKey) == [keys[tag]!.primaryKey])
        #expect(try view.value("name", of: tags[0]) == "travel")
        // Keys go on from where they were; history still names the entities.
        let second = try view.insert("Note", values: ["title": "Second"])
        #expect(try view.save().permanentIDs[second]!.primaryKey == keys[note]!.primaryKey + 1)
        #expect(Set(try new.fetchHistory(after: nil).transactions.flatMap(\.changes).map(\.object.entity)) == ["Note", "Tag"])
        _ = try view.insert("Attachment", values: ["name": "map.pdf"])
        try view.save()
    }

    @Test func anAttributeMadeRequiredTakesItsDefaultWhereItWasNull() throws {
        let v1 = try Self.model([("Note", [("title", "string"), ("color", "string?")])])
        let v2 = try Self.model([("Note", [("title", "string"), ("color", "string = none")])])
        let files = try Files()
        let old = try files.open(v1)
        _ = try old.viewContext.insert("Note", values: ["title": "A"])
        try old.viewContext.save()
        let new = try files.open(v2, previous: [v1])
        let id = try #require(try new.viewContext.fetch(FetchRequest(entity: "Note")).first)
        #expect(try new.viewContext.value("color", of: id) == "none")
    }

    @Test func aStoreOfANewerModelFailsToLoad() throws {
        let files = try Files()
        _ = try files.open(Self.v2)
        #expect {
            _ = try files.open(Self.v1)
        } throws: { error in
            guard (error as? StoreError)?.code == .modelMismatch else { return false }
            return ErrorKind(error) == .storeLoadFailed
        }
    }

    @Test func aProcessThatDoesNotMigrateFailsToLoadAnOlderStoreAndLeavesIt() throws {
        let files = try Files()
        _ = try files.open(Self.v1)
        #expect {
            _ = try files.open(Self.v2, previous: [Self.v1], migrate: false)
        } throws: { error in
            guard (error as? StoreError)?.code == .migrationRequired else { return false }
            return ErrorKind(error) == .storeLoadFailed
        }
        #expect(try StoreCoordinator.modelHash(ofStoreAt: files.url) == Self.v1.versionHash)
    }

    @Test func aMigrationWaitsForTheWriteLockAndFailsBusyPastTheTimeout() throws {
        let files = try Files()
        let old = try files.open(Self.v1)
        try old.beginWrite()
        #expect {
            _ = try files.open(Self.v2, previous: [Self.v1], busyTimeout: .milliseconds(20))
        } throws: { ErrorKind($0) == .busy }
        #expect(try StoreCoordinator.modelHash(ofStoreAt: files.url) == Self.v1.versionHash)
        try old.endWrite()
        _ = try files.open(Self.v2, previous: [Self.v1])
        #expect(try StoreCoordinator.modelHash(ofStoreAt: files.url) == Self.v2.versionHash)
    }

    @Test func aChangeALightweightMigrationCannotInferLeavesTheStoreAsItWas() throws {
        let v2 = try Self.model([("Note", [("title", "int"), ("color", "string?")])])
        let files = try Files()
        let old = try files.open(Self.v1)
        _ = try old.viewContext.insert("Note", values: ["title": "A"])
        try old.viewContext.save()
        #expect {
            _ = try files.open(v2, previous: [Self.v1])
        } throws: { error in
            guard let error = error as? StoreError, error.code == .migrationFailed, let reason = error.reason else { return false }
            return reason.contains("Note.title was a string and is a int")
        }
        #expect(try files.open(Self.v1).viewContext.fetch(FetchRequest(entity: "Note")).count == 1)
    }

    /// The related objects' names of every note, by title.
    private func tags(_ store: StoreCoordinator, via relationship: String = "tags") throws -> [String: [String]] {
        let view = store.viewContext
        var result: [String: [String]] = [:]
        for note in try view.fetch(FetchRequest(entity: "Note")) {
            let title = try view.value("title", of: note).stringValue ?? "?"
            result[title] = try view.relatedObjects(of: note, via: relationship).map { try view.value("name", of: $0).stringValue ?? "?" }.sorted()
        }
        return result
    }

    private func seedTags(_ store: StoreCoordinator) throws {
        let view = store.viewContext
        let a = try view.insert("Note", values: ["title": "A"])
        let b = try view.insert("Note", values: ["title": "B"])
        let x = try view.insert("Tag", values: ["name": "x"])
        let y = try view.insert("Tag", values: ["name": "y"])
        try view.relate(a, to: x, via: "tags")
        try view.relate(b, to: y, via: "tags")
        try view.save()
    }

    @Test func aRelationshipKeepsItsObjectsWhenItsInverseIsRemovedOrAdded() throws {
        // With the to-one inverse, Note.tags is kept in Tag's ZNOTE column; without it, in a join table.
        let withInverse = try Self.model([("Note", [("title", "string"), ("tags", "[Tag]")]), ("Tag", [("name", "string"), ("note", "Note?")])])
        let without = try Self.model([("Note", [("title", "string"), ("tags", "[Tag]")]), ("Tag", [("name", "string")])])
        for (from, to) in [(withInverse, without), (without, withInverse)] {
            let files = try Files()
            try seedTags(try files.open(from))
            let migrated = try files.open(to, previous: [from])
            #expect(try tags(migrated) == ["A": ["x"], "B": ["y"]])
        }
    }

    @Test func aToOneMadeToManyKeepsItsObject() throws {
        let v1 = try Self.model([("Note", [("title", "string"), ("folder", "Folder?")]), ("Folder", [("name", "string")])])
        let v2 = try Self.model([("Note", [("title", "string"), ("folder", "[Folder]")]), ("Folder", [("name", "string")])])
        let files = try Files()
        let old = try files.open(v1)
        let note = try old.viewContext.insert("Note", values: ["title": "A"])
        let folder = try old.viewContext.insert("Folder", values: ["name": "Work"])
        try old.viewContext.relate(note, to: folder, via: "folder")
        try old.viewContext.save()
        #expect(try tags(try files.open(v2, previous: [v1]), via: "folder") == ["A": ["Work"]])
        // The other way is no lightweight migration.
        let back = try Files()
        _ = try back.open(v2)
        #expect(throws: StoreError.self) { _ = try back.open(v1, previous: [v2]) }
    }

    /// A to-many made ordered (one-to-many and many-to-many) gains its order keys: its members read in
    /// their old key order until a save orders them.
    @Test func aToManyMadeOrderedGainsItsOrderColumns() throws {
        func model(ordered: Bool) throws -> Model {
            try Model(ModelDescription(entities: [
                EntityDescription(name: "Folder", relationships: [
                    RelationshipDescription(name: "notes", destination: "Note", isToMany: true, isOrdered: ordered),
                    RelationshipDescription(name: "tags", destination: "Tag", isToMany: true, isOrdered: ordered),
                ]),
                EntityDescription(name: "Note", relationships: [RelationshipDescription(name: "folder", destination: "Folder", isToMany: false)]),
                EntityDescription(name: "Tag", relationships: [RelationshipDescription(name: "folders", destination: "Folder", isToMany: true)]),
            ]))
        }
        let v1 = try model(ordered: false), v2 = try model(ordered: true)
        #expect(v1.versionHash != v2.versionHash, "the order is part of the version")
        let files = try Files()
        let old = try files.open(v1)
        let folder = try old.viewContext.insert("Folder", values: [:])
        for _ in 0..<2 {
            try old.viewContext.relate(folder, to: try old.viewContext.insert("Note", values: [:]), via: "notes")
            try old.viewContext.relate(folder, to: try old.viewContext.insert("Tag", values: [:]), via: "tags")
        }
        let saved = try old.viewContext.save()
        let id = saved.permanentIDs[folder]!
        let migrated = try files.open(v2, previous: [v1]).viewContext
        #expect(try migrated.relatedObjects(of: id, via: "notes").map(\.primaryKey) == [1, 2])
        let tags = try migrated.relatedObjects(of: id, via: "tags")
        try migrated.relate(id, to: tags[1], via: "tags", at: 0)
        try migrated.save()
        #expect(try files.open(v2).viewContext.relatedObjects(of: id, via: "tags").map(\.primaryKey) == [2, 1])
    }

    @Test func joinTablesThatTradeNamesWhenEntitiesAreRenumberedKeepTheirRows() throws {
        // Note.tags and Photo.tags (no inverses) are Z_1TAGS and Z_2TAGS; Album sorts first in v2 and
        // pushes them to Z_2TAGS and Z_3TAGS: Note's new table has Photo's old name.
        let v1 = try Self.model([("Note", [("title", "string"), ("tags", "[Tag]")]), ("Photo", [("title", "string"), ("tags", "[Tag]")]),
                                 ("Tag", [("name", "string")])])
        let v2 = try Self.model([("Note", [("title", "string"), ("tags", "[Tag]")]), ("Photo", [("title", "string"), ("tags", "[Tag]")]),
                                 ("Tag", [("name", "string")]), ("Album", [("name", "string")])])
        let files = try Files()
        let old = try files.open(v1)
        let view = old.viewContext
        let note = try view.insert("Note", values: ["title": "N"])
        let photo = try view.insert("Photo", values: ["title": "P"])
        let x = try view.insert("Tag", values: ["name": "x"])
        let y = try view.insert("Tag", values: ["name": "y"])
        try view.relate(note, to: x, via: "tags")
        try view.relate(photo, to: y, via: "tags")
        try view.relate(photo, to: x, via: "tags")
        try view.save()
        let migrated = try files.open(v2, previous: [v1])
        #expect(try tags(migrated) == ["N": ["x"]])
        let context = migrated.viewContext
        let photos = try context.fetch(FetchRequest(entity: "Photo"))
        #expect(try context.relatedObjects(of: photos[0], via: "tags").map { try context.value("name", of: $0).stringValue ?? "" }.sorted() == ["x", "y"])
    }
}
