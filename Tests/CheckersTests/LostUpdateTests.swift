import Checkers
import Testing
import Trace

/// Bug 14: the app and the share extension edit the same object.
@Suite("lost-update")
struct LostUpdateTests {
    /// n1 v1 {title: A, body: x}; share sets title B (v2); then app saves based on v1.
    func sharedEdit() -> TraceScript {
        var script = hostAndShare()
        script.at(ms: 10)
        script.insert("app", "n1", ["title": .string("A"), "body": .string("x")])
        script.at(ms: 100)
        script.step("share", "share: update n1 set {title: B}; save", line: 20)
        script.update("share", "n1", ["title": .string("B")], version: 2, baseVersion: 1)
        script.at(ms: 200)
        script.step("app", "app: update n1 set {body: y}; save", line: 21)
        return script
    }

    @Test func overwriteRevertingAPropertyThisProcessNeverSetIsLost() throws {
        var script = sharedEdit()
        script.record("app", .conflict(ConflictRecord(object: "n1", cachedVersion: 1, storeVersion: 2, policy: .overwrite, outcome: .overwritten)))
        script.update("app", "n1", ["title": .string("A"), "body": .string("y")], version: 3, baseVersion: 1, changed: ["body"], conflictResolved: true)
        let result = check(script)
        #expect(kinds(result) == [.lostUpdate])
        let anomaly = try #require(result.anomalies.first)
        #expect(anomaly.property == "title")
        #expect(anomaly.explanation == "app saved n1.title = \"A\" at 200 ms, reverting \"B\" that share committed at 100 ms (version 2): app never set title; its change was based on version 1.")
    }

    @Test func objectTrumpKeepingBothFieldsIsNotLost() {
        var script = sharedEdit()
        script.record("app", .conflict(ConflictRecord(object: "n1", cachedVersion: 1, storeVersion: 2, policy: .objectTrump, outcome: .merged)))
        script.update("app", "n1", ["title": .string("B"), "body": .string("y")], version: 3, baseVersion: 1, changed: ["body"], conflictResolved: true)
        #expect(check(script).anomalies.isEmpty)
    }

    @Test func objectTrumpResolutionOfTheSamePropertyIsNotLost() {
        var script = sharedEdit()
        script.record("app", .conflict(ConflictRecord(object: "n1", cachedVersion: 1, storeVersion: 2, policy: .objectTrump, outcome: .merged)))
        script.update("app", "n1", ["title": .string("C")], version: 3, baseVersion: 1, changed: ["title"], conflictResolved: true)
        #expect(check(script).anomalies.isEmpty)
    }

    @Test func blindOverwriteWithoutConflictDetectedIsLost() throws {
        var script = sharedEdit()
        script.update("app", "n1", ["title": .string("C")], version: 3, baseVersion: 1, changed: ["title"])
        let result = check(script)
        #expect(kinds(result) == [.lostUpdate])
        #expect(result.anomalies.first?.explanation == "app saved n1.title = \"C\" at 200 ms over \"B\" that share committed at 100 ms (version 2), though its change was based on version 1 and no conflict was detected.")
    }

    @Test func saveBasedOnTheLatestVersionIsNotLost() {
        var script = sharedEdit()
        script.update("app", "n1", ["title": .string("C")], version: 3, baseVersion: 2, changed: ["title"])
        #expect(check(script).anomalies.isEmpty)
    }

    @Test func conflictOfAFailedSaveDoesNotExcuseALaterBlindSave() {
        var script = sharedEdit()
        script.record("app", .conflict(ConflictRecord(object: "n1", cachedVersion: 1, storeVersion: 2, policy: .error, outcome: .failed)))
        script.record("app", .saveFailed(ErrorRecord(kind: .conflict, message: "n1 changed", expected: true)))
        script.at(ms: 300)
        script.update("app", "n1", ["title": .string("C")], version: 3, baseVersion: 1, changed: ["title"])
        #expect(kinds(check(script)) == [.lostUpdate])
    }
}
