import Checkers
import Testing
import Trace

@Suite("phantom-read")
struct PhantomReadTests {
    @Test func valueNoProcessCommittedIsPhantom() throws {
        var script = hostShowingN1()
        script.at(ms: 100)
        script.step("share", "share: update n1 set {title: Z}; crash during save", line: 30)
        script.at(ms: 200)
        script.step("app", "app: read n1", line: 31)
        script.read("app", "n1", ["title": .string("Z")], version: 2, source: .sql)
        let result = check(script)
        #expect(kinds(result) == [.phantomRead])
        let anomaly = try #require(result.anomalies.first)
        #expect(anomaly.property == "title")
        #expect(anomaly.explanation == "app read n1.title = \"Z\" at 200 ms, a value no process committed to group:group.example.notes (the latest committed is \"A\", by app at 10 ms).")
    }

    @Test func objectNobodyCommittedIsPhantomUnlessItIsTheReadersOwnInsert() {
        var script = hostAndShare()
        script.at(ms: 10)
        script.read("app", "n9", ["title": .string("X")], version: 1)
        script.at(ms: 20)
        script.read("share", "n8", ["title": .string("mine")], dirty: ["title"])
        let result = check(script)
        #expect(kinds(result) == [.phantomRead])
        #expect(result.anomalies.first?.object == "n9")
    }

    @Test func readersOwnInsertReadBeforeItsSaveIsFine() {
        var script = hostAndShare()
        script.at(ms: 10)
        script.read("app", "n1", ["title": .string("A")])
        script.at(ms: 20)
        script.insert("app", "n1", ["title": .string("A")])
        #expect(check(script).anomalies.isEmpty)
    }

    @Test func valueWhoseCommitBeganBeforeTheReadEndedIsNotPhantom() {
        // The read ran from 99.8 ms to 100 ms; share's COMMIT began at 99.9 ms and was recorded at 100.3 ms.
        var script = hostShowingN1()
        script.at(ms: 100)
        script.read("app", "n1", ["title": .string("B")], version: 2, source: .sql, sinceMs: 99.8)
        script.at(ms: 100.3)
        script.update("share", "n1", ["title": .string("B")], version: 2, sinceMs: 99.9)
        #expect(check(script).anomalies.isEmpty)
    }

    @Test func valueWhoseCommitBeganAfterTheReadEndedIsPhantom() {
        var script = hostShowingN1()
        script.at(ms: 100)
        script.read("app", "n1", ["title": .string("B")], version: 2, source: .sql, sinceMs: 99.8)
        script.at(ms: 100.3)
        script.update("share", "n1", ["title": .string("B")], version: 2, sinceMs: 100.1)
        #expect(kinds(check(script)) == [.phantomRead])
    }
}
