import Basics
import Foundation
@testable import ScenarioModel
import Testing

/// `expect: { stale-read: 1, busy: 0, missed-insert: 1+ }`: exact, forbidding and open counts.
@Suite("expect with counts")
struct ExpectCountsTests {
    private func yaml(_ expect: String) -> String {
        Fixture.yaml(steps: "  - app: launch", after: "expect: \(expect)")
    }

    @Test func countsDecodeExactForbiddenAndOpen() throws {
        let scenario = try Fixture.scenario(yaml("{ stale-read: 1, busy: 0, missed-insert: 2+ }"))
        let expected = try #require(scenario.runs().first?.expectation)
        #expect(expected == .counts([
            AnomalyCount(kind: .staleRead, atLeast: 1, atMost: 1),
            AnomalyCount(kind: .busy, atLeast: 0, atMost: 0),
            AnomalyCount(kind: .missedInsert, atLeast: 2, atMost: nil),
        ]))
        #expect(expected.kinds == [.staleRead, .missedInsert], "busy: 0 is forbidden, not required")
        #expect(expected.text == "stale-read: 1, busy: 0, missed-insert: 2+")
    }

    @Test func aVariantMayCountToo() throws {
        let scenario = try Fixture.scenario(yaml("pass") + "variants:\n  one-busy: { expect: { busy: 1 } }\n")
        #expect(scenario.runs().first?.expectation == .counts([AnomalyCount(kind: .busy, atLeast: 1, atMost: 1)]))
    }

    @Test(arguments: [
        ("{ stale-read: -1 }", "must be a whole number from 0 to 1000000"),
        ("{ stale-read: 1.5 }", "must be a whole number"),
        ("{ stale-read: many }", "must be a whole number"),
        ("{ stale-read: 99999999999999999999 }", "must be a whole number"),
        ("{ stale-read: [1] }", "must be a whole number"),
        ("{ stale-reed: 1 }", "did you mean 'stale-read'"),
        ("{}", "empty counts would match any run"),
    ])
    func badCountsAreErrorsAtTheirPlace(_ expect: String, _ fragment: String) {
        let errors = Fixture.errors(yaml(expect))
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.message.contains(fragment) == true, "\(errors)")
        #expect(errors.first?.line == Fixture.firstStepLine + 1, "\(errors)")
    }

    /// `busy: { share: 1, app: 0 }`: a count per process.
    @Test func aCountMayNameItsProcesses() throws {
        let scenario = try Fixture.scenario(yaml("{ busy: { share: 1, app: 0 }, stale-read: 1+ }"))
        let expected = try #require(scenario.runs().first?.expectation)
        #expect(expected == .counts([
            AnomalyCount(kind: .busy, atLeast: 1, atMost: 1, process: "share"),
            AnomalyCount(kind: .busy, atLeast: 0, atMost: 0, process: "app"),
            AnomalyCount(kind: .staleRead, atLeast: 1, atMost: nil),
        ]))
        #expect(expected.kinds == [.busy, .staleRead])
        #expect(expected.text == "busy in share: 1, busy in app: 0, stale-read: 1+")
        let data = try JSONEncoder().encode(expected)
        #expect(String(decoding: data, as: UTF8.self).contains("\"busy in share\":\"1\""))
        guard case .counts(let back) = try JSONDecoder().decode(Expectation.self, from: data), case .counts(let original) = expected else {
            Issue.record("counts did not decode as counts")
            return
        }
        #expect(Set(back) == Set(original))
        let written = try ScenarioLoader.parse(yaml: Fixture.yaml(steps: "  - app: launch", after: "expect: { busy: { share: 1, app: 0 } }"),
                                              file: "x.yaml")
        #expect(written.expectation == .counts([AnomalyCount(kind: .busy, atLeast: 1, atMost: 1, process: "share"),
                                                AnomalyCount(kind: .busy, atLeast: 0, atMost: 0, process: "app")]))
        let errors = Fixture.errors(yaml("{ busy: { shar: 1 } }"))
        #expect(errors.count == 1 && errors.first?.message.contains("unknown process 'shar'") == true, "\(errors)")
        #expect(Fixture.errors(yaml("{ busy: { share: lots } }")).first?.message.contains("the count of busy in share must be") == true)
        #expect(Fixture.errors(yaml("{ busy: {} }")).first?.message.contains("name a process and its count") == true)
    }

    @Test func aKindCountedTwiceIsAnError() {
        let errors = Fixture.errors(yaml("{ busy: 0, busy: 1 }"))
        #expect(errors.contains { $0.message.contains("'busy' appears more than once") }, "\(errors.map(\.message))")
    }

    @Test func countsRoundTripThroughTheWriterAndJSON() throws {
        let counts = Expectation.counts([AnomalyCount(kind: .busy, atLeast: 0, atMost: 0), AnomalyCount(kind: .staleRead, atLeast: 1, atMost: nil)])
        let data = try JSONEncoder().encode(counts)
        #expect(String(decoding: data, as: UTF8.self).contains("\"stale-read\":\"1+\""))
        guard case .counts(let decoded) = try JSONDecoder().decode(Expectation.self, from: data), case .counts(let original) = counts else {
            Issue.record("counts did not decode as counts")
            return
        }
        #expect(Set(decoded) == Set(original), "the same counts, in the kinds' own order")
    }
}

/// An exact count of a workload's anomalies would flake with the machine's load: refused, with the fix.
@Suite struct WorkloadCountTests {
    private func yaml(_ expect: String) -> String {
        Fixture.yaml(steps: "  - app: launch\n  - workload: { processes: [app], entity: Note, duration: 100ms, rate: 100/s }",
                     after: "expect: \(expect)")
    }

    @Test func anExactCountOfAWorkloadsAnomaliesIsRefused() {
        let errors = Fixture.errors(yaml("{ stale-read: 9 }"))
        #expect(errors.count == 1 && errors[0].message.contains("write 9+"), "\(errors)")
    }

    @Test(arguments: ["{ stale-read: 9+ }", "{ busy: 0 }", "pass"])
    func openAndForbiddingCountsStayAllowed(expect: String) throws {
        _ = try Fixture.scenario(yaml(expect))
    }
}
