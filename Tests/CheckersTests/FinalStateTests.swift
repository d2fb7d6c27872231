import Checkers
import Testing
import Trace

@Suite("duplicate, data-loss, not-converged")
struct FinalStateTests {
    let group = "group:group.example.notes"

    func note(_ id: String, _ title: String, version: Int64 = 1) -> ObjectState {
        ObjectState(id: id, entity: "Note", version: version, values: ["title": .string(title)])
    }

    /// A copy that holds no store (taken without its -wal before any checkpoint) lost what was committed
    /// before it was taken, and nothing when nothing was.
    @Test func anUnreadableCopyLosesOnlyWhatWasCommittedBeforeIt() {
        for committed in [false, true] {
            var script = TraceScript(processes: [("app", .host)])
            if committed {
                script.at(ms: 10)
                script.insert("app", "n1", ["title": .string("A")])
            }
            script.at(ms: 20)
            script.record("app", .verified(VerificationRecord(store: "copy:backup", source: group, reason: .copy, unreadable: "no such table: Z_METADATA")), sinceMs: 19)
            let kinds = TraceChecker.check(script.trace).anomalies.map(\.kind)
            #expect(kinds == (committed ? [.dataLoss] : []), "committed before the copy: \(committed)")
        }
    }

    @Test func idTwiceInAFinalStoreIsDuplicate() {
        var script = TraceScript(processes: [("app", .host), ("watch", .watch)])
        script.at(ms: 10)
        script.insert("app", "n1", ["title": .string("A")])
        script.at(ms: 20)
        script.insert("watch", "n1", ["title": .string("A")])
        script.at(ms: 90)
        script.record("runner", .finalStore(StateSnapshot(store: group, objects: [note("n1", "A"), note("n1", "A")])))
        let result = check(script)
        #expect(kinds(result) == [.duplicate])
        #expect(result.anomalies.first?.explanation == "n1 exists 2 times in the final store group:group.example.notes (inserted by app at 10 ms and watch at 20 ms).")
    }

    @Test func committedObjectOrValueMissingFromTheFinalStoreIsDataLoss() {
        var script = hostAndShare()
        script.at(ms: 10)
        script.insert("app", "n1", ["title": .string("A")])
        script.insert("app", "n2", ["title": .string("C")])
        script.at(ms: 20)
        script.update("share", "n1", ["title": .string("B")], version: 2)
        script.at(ms: 30)
        script.delete("share", "n3gone", version: 1)
        script.at(ms: 90)
        script.record("runner", .finalStore(StateSnapshot(store: group, objects: [note("n1", "A")])))
        let result = check(script)
        #expect(kinds(result) == [.dataLoss, .dataLoss])
        #expect(result.anomalies.map(\.object) == ["n1", "n2"])
        #expect(result.anomalies[0].explanation == "The final store group:group.example.notes has n1.title = \"A\", but the latest committed value is \"B\", by share at 20 ms (version 2).")
    }

    @Test func verificationMissingItemsAreDataLossReportedOnce() {
        var script = hostAndShare()
        script.at(ms: 10)
        script.insert("share", "n3", ["title": .string("B")])
        script.at(ms: 50)
        script.record("runner", .verified(VerificationRecord(store: group, reason: .crash, checked: 1, missing: ["n3 version 1 (title \"B\")"], objects: ["n3"])))
        script.at(ms: 90)
        script.record("runner", .finalStore(StateSnapshot(store: group, objects: [])))
        let result = check(script)
        #expect(kinds(result) == [.dataLoss])
        #expect(result.anomalies.first?.explanation == "After a crash, group:group.example.notes is missing a committed change: n3 version 1 (title \"B\").")
    }

    @Test func viewDifferingFromItsStoreAtTheEndIsNotConverged() {
        var script = TraceScript(processes: [("app", .host), ("share", .share), ("watch", .watch)], stores: ["watch": "own:watch"])
        script.at(ms: 10)
        script.insert("share", "n1", ["title": .string("B")])
        script.insert("share", "n2", ["title": .string("C")])
        script.at(ms: 20)
        script.insert("watch", "w1", ["title": .string("W")])
        script.at(ms: 90)
        script.record("runner", .finalStore(StateSnapshot(store: group, objects: [note("n1", "B"), note("n2", "C")])))
        script.record("runner", .finalStore(StateSnapshot(store: "own:watch", objects: [note("w1", "W")])))
        // n2 is what the app's own fetch returns now but its view lacks.
        script.record("app", .finalView(StateSnapshot(store: group, objects: [note("n1", "A"), note("gone", "G")], absent: ["n2"])))
        script.record("watch", .finalView(StateSnapshot(store: "own:watch", objects: [note("w1", "W")])))
        let result = check(script)
        #expect(kinds(result) == [.notConverged, .notConverged, .notConverged])
        #expect(Set(result.anomalies.map(\.explanation)) == [
            "At the end, app's view still shows gone, which is not in the store group:group.example.notes.",
            "At the end, app's view shows n1.title = \"A\" but the store has \"B\".",
            "At the end, app's view has no n2, which its own fetch returns from the store group:group.example.notes.",
        ])
    }

    /// A widget's view is what its last reload rendered: an object inserted after, of an entity it
    /// fetched whole, is missing from it at the end (a host's view says so itself, in `absent`). A
    /// widget that fetched only some of the entity's objects, or another entity, is not judged by it.
    @Test func aWidgetMissesWhatWasInsertedAfterItsLastReload() {
        for fetchedAll in [["Note"], ["Tag"], nil] {
            var script = TraceScript(processes: [("app", .host), ("widget", .widget)])
            script.at(ms: 10)
            script.insert("app", "n1", ["title": .string("A")])
            script.at(ms: 20)
            script.record("widget", .finalView(StateSnapshot(
                store: group, objects: [note("n1", "A")],
                fetchedAll: fetchedAll)))
            script.at(ms: 30)
            script.insert("app", "n2", ["title": .string("B")])
            script.at(ms: 90)
            script.record("runner", .finalStore(StateSnapshot(store: group, objects: [note("n1", "A"), note("n2", "B")])))
            let result = check(script)
            if fetchedAll == ["Note"] {
                #expect(kinds(result) == [.notConverged] && result.anomalies.first?.object == "n2")
                #expect(result.anomalies.first?.explanation.hasSuffix("(a widget shows what its last reload rendered, at 20 ms).") == true,
                        "\(result.anomalies.first?.explanation ?? "")")
            } else {
                #expect(kinds(result).isEmpty, "fetched whole: \(fetchedAll ?? []): \(result.anomalies.map(\.explanation))")
            }
        }
    }

    @Test func viewOfEntitiesItNeverFetchedIsNotJudgedMissing() {
        var script = hostAndShare()
        script.at(ms: 10)
        script.insert("share", "t1", entity: "Tag", ["name": .string("x")])
        script.at(ms: 90)
        script.record("runner", .finalStore(StateSnapshot(store: group, objects: [ObjectState(id: "t1", entity: "Tag", values: ["name": .string("x")])])))
        script.record("app", .finalView(StateSnapshot(store: group, objects: [])))
        #expect(check(script).anomalies.isEmpty)
    }
}
