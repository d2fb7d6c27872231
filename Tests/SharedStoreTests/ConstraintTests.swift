import Basics
import Foundation
import SharedStore
import Testing

/// Uniqueness constraints, resolved by merge policy as `NSMergePolicy` documents for constraint
/// conflicts: `error` fails the save; object-trump and overwrite make the insert an update of the
/// existing row; store-trump and rollback keep the row and make the inserted object that row.
@Suite struct ConstraintTests {
    private let model = ModelDescription(entities: [
        EntityDescription(name: "Tag", attributes: [
            AttributeDescription(name: "name", type: .string, isUnique: true),
            AttributeDescription(name: "color", type: .string, isOptional: true),
        ]),
    ])

    /// The app has saved tag `Home` (red); another process inserts `Home` (blue) under `policy`.
    private func insertTwice(_ policy: MergePolicy) throws -> (fixture: StoreFixture, app: ObjectID, result: Result<SaveResult, SaveError>, inserted: ObjectID) {
        let fixture = try StoreFixture(model: Model(model))
        let app = try fixture.open().viewContext
        let first = try app.insert("Tag", values: ["name": "Home", "color": "red"])
        let appID = try app.save().permanentIDs[first]!
        let share = try fixture.open().viewContext
        share.mergePolicy = policy
        let second = try share.insert("Tag", values: ["name": "Home", "color": "blue"])
        let result = Result { () throws(SaveError) in try share.save() }
        return (fixture, appID, result, second)
    }

    private func rows(_ fixture: StoreFixture) throws -> [[String: Value]] {
        let reader = try fixture.open().newBackgroundContext(name: "check")
        return try reader.fetch(FetchRequest(entity: "Tag")).map { try reader.values(of: $0) }
    }

    @Test func underTheErrorPolicyTheSaveFailsWithAConstraintConflictAndWritesNothing() throws {
        let (fixture, appID, result, inserted) = try insertTwice(.error)
        guard case .failure(let error) = result, error.code == .conflicts else { Issue.record("expected a conflict, got \(result)"); return }
        let conflicts = error.conflicts
        #expect(conflicts.count == 1 && conflicts[0].constraint == "name" && conflicts[0].existingObject == appID)
        #expect(conflicts[0].object == inserted && conflicts[0].outcome == .failed)
        #expect(try rows(fixture).map { $0["color"] } == ["red"])
    }

    @Test(arguments: [MergePolicy.objectTrump, .overwrite])
    func objectTrumpAndOverwriteMakeTheInsertAnUpdateOfTheExistingRow(policy: MergePolicy) throws {
        let (fixture, appID, result, inserted) = try insertTwice(policy)
        let saved = try result.get()
        #expect(saved.permanentIDs[inserted] == appID, "the inserted object becomes the existing row")
        #expect(saved.changes.map(\.operation) == [.update] && saved.changes.first?.object == appID && saved.changes.first?.version == 2)
        #expect(try rows(fixture).map { $0["color"] } == ["blue"], "one row, with the inserted object's values")
    }

    @Test(arguments: [MergePolicy.storeTrump, .rollback])
    func storeTrumpAndRollbackKeepTheRowAndTheInsertBecomesIt(policy: MergePolicy) throws {
        let (fixture, appID, result, inserted) = try insertTwice(policy)
        let saved = try result.get()
        #expect(saved.permanentIDs[inserted] == appID)
        #expect(saved.changes.isEmpty, "nothing written")
        #expect(try rows(fixture).map { $0["color"] } == ["red"])
    }

    @Test func nilValuesAndDistinctValuesAreNoConflict() throws {
        let fixture = try StoreFixture(model: Model(model))
        let context = try fixture.open().viewContext
        _ = try context.insert("Tag", values: ["name": "Home"])
        try context.save()
        _ = try context.insert("Tag", values: ["name": "Work"])
        #expect(try context.save().changes.map(\.operation) == [.insert])
        #expect(try rows(fixture).count == 2)
    }
}
