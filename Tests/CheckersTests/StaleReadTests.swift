import Checkers
import Testing
import Trace

@Suite("stale-read")
struct StaleReadTests {
    @Test func readKeepingOldValueAfterAnotherProcessCommittedIsStale() throws {
        var script = hostShowingN1()
        script.at(ms: 230)
        script.step("share", "share: update n1 set {title: B}; save", line: 20)
        script.update("share", "n1", ["title": .string("B")], version: 2)
        script.at(ms: 412)
        script.step("app", "app: read n1 expect {title: B} within 200ms", line: 22)
        script.read("app", "n1", ["title": .string("A"), "rank": .int(1)], version: 1, source: .cache)
        let result = check(script)
        #expect(kinds(result) == [.staleRead])
        let anomaly = try #require(result.anomalies.first)
        #expect(anomaly.process == "app")
        #expect(anomaly.step == 3)
        #expect(anomaly.location == "Scenarios/sample.yaml:22")
        #expect(anomaly.object == "n1")
        #expect(anomaly.property == "title")
        #expect(anomaly.seen == "\"A\" (version 1)")
        #expect(anomaly.expected == "\"B\" (version 2)")
        #expect(anomaly.cause == CommitReference(process: "share", t: script.start + 230_000_000, version: 2, step: 2))
        #expect(anomaly.explanation == "app read n1.title = \"A\" (version 1) at 412 ms, but share committed \"B\" at 230 ms (version 2); the view kept the old row snapshot: no refresh ran in app between that save and the read (trigger: darwin).")
    }

    /// "é" precomposed and "e" with a combining accent are two values to Core Data and SQLite (bytes
    /// differ), though Swift's `String ==` calls them equal: a read of the old one is stale.
    @Test func stringsAreComparedByTheirBytes() {
        #expect(TraceValue.string("\u{e9}") != .string("e\u{301}"))
        #expect(Set([TraceValue.string("\u{e9}"), .string("e\u{301}")]).count == 2)
        var script = hostAndShare()
        script.at(ms: 10)
        script.insert("app", "n1", ["title": .string("\u{e9}")])
        script.at(ms: 20)
        script.update("share", "n1", ["title": .string("e\u{301}")], version: 2)
        script.at(ms: 40)
        script.step("app", "app: read n1", line: 12)
        script.read("app", "n1", ["title": .string("\u{e9}")], version: 1)
        #expect(kinds(check(script)) == [.staleRead])
    }

    @Test func propertiesAreJudgedOneByOne() {
        var script = hostShowingN1()
        script.at(ms: 100)
        script.update("share", "n1", ["rank": .int(2)], version: 2)
        script.at(ms: 200)
        // title was never changed: "A" is still its latest value; rank is stale.
        script.read("app", "n1", ["title": .string("A"), "rank": .int(1)], version: 1, source: .cache)
        let result = check(script)
        #expect(result.anomalies.map(\.property) == ["rank"])
    }

    @Test func nonFinalReadInsideWithinWindowIsNeverStale() {
        var script = hostShowingN1()
        script.at(ms: 100)
        script.update("share", "n1", ["title": .string("B")], version: 2)
        script.at(ms: 110)
        script.step("app", "app: read n1 expect {title: B} within 200ms", line: 22)
        script.read("app", "n1", ["title": .string("A")], version: 1, final: false)
        script.at(ms: 150)
        script.read("app", "n1", ["title": .string("A")], version: 1, final: false)
        script.at(ms: 180)
        script.read("app", "n1", ["title": .string("B")], version: 2, source: .sql)
        script.checkRead("app", "n1", expected: ["title": .string("B")], actual: ["title": .string("B")], withinMs: 200)
        #expect(check(script).anomalies.isEmpty)
    }

    @Test func ownUnsavedEditsAreNeverStale() {
        var script = hostShowingN1()
        script.at(ms: 100)
        script.update("share", "n1", ["title": .string("B")], version: 2)
        script.at(ms: 200)
        // app edited title itself and has not saved: "C" was never committed, and that is fine.
        script.read("app", "n1", ["title": .string("C"), "rank": .int(1)], version: 2, dirty: ["title"])
        #expect(check(script).anomalies.isEmpty)
    }

    @Test func workloadReadWithinStaleToleranceIsFine() {
        var script = hostShowingN1()
        script.info.staleToleranceNanos = 250_000_000
        script.at(ms: 100)
        script.update("share", "n1", ["title": .string("B")], version: 2)
        script.at(ms: 300)
        script.read("app", "n1", ["title": .string("A")], version: 1, source: .cache, final: false, workload: true)
        #expect(check(script).anomalies.isEmpty)
    }

    @Test func workloadReadBeyondStaleToleranceIsStale() throws {
        var script = hostShowingN1()
        script.info.staleToleranceNanos = 250_000_000
        script.at(ms: 100)
        script.update("share", "n1", ["title": .string("B")], version: 2)
        script.at(ms: 400)
        script.read("app", "n1", ["title": .string("A")], version: 1, source: .memory, final: false, workload: true)
        let result = check(script)
        #expect(kinds(result) == [.staleRead])
        let explanation = try #require(result.anomalies.first?.explanation)
        #expect(explanation.contains("more than the 250 ms stale tolerance before the read"))
        #expect(explanation.hasSuffix("the object kept the values it already held in memory: no refresh ran in app between that save and the read (trigger: darwin)."))
    }

    @Test func readInvokedBeforeACommitCompletedMayShowTheOldValue() {
        // share's COMMIT ran from 100 ms to 100.3 ms; app's read began at 100.1 ms, inside it.
        var script = hostShowingN1()
        script.at(ms: 100.3)
        script.update("share", "n1", ["title": .string("B")], version: 2, sinceMs: 100)
        script.at(ms: 100.4)
        script.read("app", "n1", ["title": .string("A")], version: 1, source: .sql, sinceMs: 100.1)
        #expect(check(script).anomalies.isEmpty)
    }

    @Test func readInvokedANanosecondAfterACommitCompletedMustShowIt() {
        // No slack: the commit completed at 100.3 ms, the read began 1 ns later.
        var script = hostShowingN1()
        script.at(ms: 100.3)
        script.update("share", "n1", ["title": .string("B")], version: 2, sinceMs: 100)
        script.at(ms: 100.4)
        script.read("app", "n1", ["title": .string("A")], version: 1, source: .sql, sinceMs: 100.300001)
        #expect(kinds(check(script)) == [.staleRead])
    }

    @Test func commitsAreOrderedByWhenTheyHeldTheLockNotByWhenTheyWereRecorded() throws {
        // share committed B (lock held at 100 ms) but recorded it only at 130 ms, after app's commit of C
        // (lock held at 110 ms, recorded at 115 ms): C is the newer value, and a read after both must show it.
        var script = hostShowingN1()
        script.at(ms: 115)
        script.update("app", "n1", ["title": .string("C")], version: 3, baseVersion: 2, sinceMs: 110)
        script.at(ms: 130)
        script.update("share", "n1", ["title": .string("B")], version: 2, sinceMs: 100)
        script.at(ms: 140)
        script.read("app", "n1", ["title": .string("B")], version: 2, source: .sql, sinceMs: 135)
        let result = check(script)
        #expect(kinds(result) == [.staleRead])
        #expect(result.anomalies.first?.expected == "\"C\" (version 3)")
    }

    @Test func valueCommittedAgainLaterIsCurrentNotStale() {
        var script = hostShowingN1()
        script.at(ms: 100)
        script.update("share", "n1", ["title": .string("B")], version: 2)
        script.at(ms: 150)
        script.update("share", "n1", ["title": .string("A")], version: 3)
        script.at(ms: 200)
        script.read("app", "n1", ["title": .string("A")], version: 1, source: .cache)
        #expect(check(script).anomalies.isEmpty)
    }

    @Test func readerOfAnotherStoreIsJudgedAgainstItsOwnStore() {
        var script = TraceScript(processes: [("app", .host), ("watch", .watch)], stores: ["watch": "own:watch"])
        script.at(ms: 10)
        script.insert("app", "n1", ["title": .string("A")])
        script.at(ms: 20)
        script.update("app", "n1", ["title": .string("B")], version: 2)
        script.at(ms: 30)
        script.insert("watch", "n1", ["title": .string("A")])
        script.at(ms: 40)
        script.read("watch", "n1", ["title": .string("A")], version: 1)
        #expect(check(script).anomalies.isEmpty)
    }

    @Test func intAndDoubleOfTheSameNumberMatch() {
        var script = hostShowingN1()
        script.at(ms: 50)
        script.read("app", "n1", ["rank": .double(1.0)], version: 1)
        #expect(check(script).anomalies.isEmpty)
    }

    @Test func commitsOfOneHeldWriteShareOneCommitInterval() {
        // end-write committed two saves in one COMMIT (100 ms to 100.5 ms): a read begun at 100.2 ms,
        // during that COMMIT, may still show the old values of both.
        var script = hostShowingN1()
        script.at(ms: 50)
        script.insert("app", "n2", ["title": .string("X")])
        script.at(ms: 100.5)
        script.update("share", "n1", ["title": .string("B")], version: 2, sinceMs: 100)
        script.update("share", "n2", ["title": .string("Y")], version: 2, sinceMs: 100)
        script.at(ms: 100.6)
        script.read("app", "n1", ["title": .string("A")], version: 1, source: .sql, sinceMs: 100.2)
        script.read("app", "n2", ["title": .string("X")], version: 1, source: .sql, sinceMs: 100.2)
        #expect(check(script).anomalies.isEmpty)
    }
}
