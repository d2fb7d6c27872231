import Checkers
import Testing
import Trace

@Suite("unmet-expectation and check classification")
struct ExpectationTests {
    @Test func failedCheckExplainedByAStaleReadIsNotAlsoUnmet() {
        #expect(kinds(check(checkFailedOnAStaleRead())) == [.staleRead])
    }

    /// A read that found nothing records no values; its explanation says the object is not in the view,
    /// not that it "saw {}".
    @Test func aReadThatFoundNothingSaysTheObjectIsNotInTheView() throws {
        var script = hostShowingN1()
        script.at(ms: 300)
        script.step("app", "app: read n1 expect {title: Z}", line: 23)
        script.checkRead("app", "n1", expected: ["title": .string("Z")], actual: [:], withinMs: 0)
        let anomaly = try #require(check(script).anomalies.first)
        #expect(anomaly.kind == .unmetExpectation && anomaly.seen == "no n1")
        #expect(anomaly.explanation == "app read n1 at 300 ms expecting {title: \"Z\"} but n1 is not in its view, and no stale, missed or phantom read explains it.")
    }

    @Test func failedCheckNothingExplainsIsUnmetExpectation() throws {
        var script = hostShowingN1()
        script.at(ms: 300)
        script.step("app", "app: read n1 expect {title: Z}", line: 23)
        script.read("app", "n1", ["title": .string("A")], version: 1)
        script.checkRead("app", "n1", expected: ["title": .string("Z")], actual: ["title": .string("A")], withinMs: 1000)
        let result = check(script)
        #expect(kinds(result) == [.unmetExpectation])
        let anomaly = try #require(result.anomalies.first)
        #expect(anomaly.property == "title")
        #expect(anomaly.location == "Scenarios/sample.yaml:23")
        #expect(anomaly.explanation == "app read n1 at 300 ms expecting {title: \"Z\"} within 1 s but saw {title: \"A\"}, and no stale, missed or phantom read explains it.")
    }

    @Test func failedCountNothingExplainsIsUnmetExpectation() {
        var script = hostShowingN1()
        script.at(ms: 300)
        script.step("app", "app: count Note expect 3", line: 24)
        script.count("app", ids: ["n1"])
        script.checkCount("app", expected: 3, actual: 1)
        let result = check(script)
        #expect(kinds(result) == [.unmetExpectation])
        #expect(result.anomalies.first?.explanation == "app counted 1 Note at 300 ms where 3 were expected, and no missed insert or delete explains it.")
    }

    @Test func anExpectedErrorThatNeverHappenedIsUnmet() throws {
        var script = hostShowingN1()
        script.at(ms: 300)
        script.step("app", "app: save expect-error conflict", line: 25)
        script.record("app", .check(CheckRecord(kind: .expectError, subject: "conflict", passed: false, withinNanos: 0)))
        let result = check(script)
        #expect(kinds(result) == [.unmetExpectation])
        #expect(result.anomalies.first?.explanation == "app's step at 300 ms was expected to fail with conflict, but it succeeded.")
    }

    @Test func anObjectExpectedAbsentButStillShownIsUnmet() {
        var script = hostShowingN1()
        script.at(ms: 300)
        script.step("app", "app: read n1 expect absent", line: 26)
        script.read("app", "n1", ["title": .string("A")], version: 1)
        script.record("app", .check(CheckRecord(kind: .readAbsent, subject: "n1", actual: ["title": .string("A")], passed: false, withinNanos: 0)))
        let result = check(script)
        #expect(kinds(result) == [.unmetExpectation])
        #expect(result.anomalies.first?.explanation == "app expected n1 to be gone from its view at 300 ms, but it still shows {title: \"A\"}.")
    }
}
