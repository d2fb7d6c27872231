import Basics
@testable import ScenarioModel
import Testing

/// A push's payload (`push: { id: m2, text: Hello }`) fills the `$name` values of the extension's
/// `on-push:`, each push its own; each mistake is reported where it is written.
@Suite struct PushPayloadDecodingTests {
    /// A chat whose notification service extension saves the message each push carries.
    private func yaml(onPush: String = "      - { insert: Message, id: $id, set: { text: $text, seq: $seq } }\n      - save",
                      pushes: String = """
                          - service: { push: { id: m1, text: Hello, seq: 1 } }
                          - service: { push: { id: m2, text: "7", seq: 2 } }
                        """, after: String = "  - app: { read: m2 }") -> String {
        """
        summary: A test.
        store: { group: group.example.chat, name: Chat, model: { Message: { text: string, seq: int } } }
        processes:
          app: { role: host }
          service:
            role: notification-service
            on-push:
        \(onPush)
        steps:
          - app: launch
        \(pushes)
        \(after)
        """
    }

    @Test func eachPushRunsTheWorkWithItsOwnValues() throws {
        let scenario = try ScenarioLoader.parse(yaml: yaml(), file: "p.yaml")
        let service = try #require(scenario.process(named: "service"))
        #expect(service.work.isEmpty, "the work is kept per payload")
        let pushes = scenario.steps.compactMap { step -> PushPayload? in if case .push(let payload?) = step.step { payload } else { nil } }
        #expect(pushes.map { $0.fields.map(\.name) } == [["id", "text", "seq"], ["id", "text", "seq"]])
        let run = scenario.runs()[0]
        let process = try #require(run.process(named: "service"))
        let inserts = scenario.steps.filter { $0.process == "service" }.map { step in
            process.work(for: step.step).compactMap { work -> String? in
                guard case .insert(_, let id, let values) = work.step else { return nil }
                return "\(id) \(values["text"].map { "\($0)" } ?? "") \(values["seq"].map { "\($0)" } ?? "")"
            }
        }
        // A quoted "7" stays a string, as written in place; an unquoted 1 is the int attribute's number.
        #expect(inserts == [["m1 Hello 1"], ["m2 7 2"]], "\(inserts)")
        // The work keeps the position of the on-push: it is written at.
        #expect(process.work(for: scenario.steps[1].step).first?.location.line == 8)
    }

    @Test func aDoubleDollarIsALiteralDollarAndAFileWithoutPayloadsKeepsItsDollars() throws {
        let filled = try ScenarioLoader.parse(yaml: yaml(onPush: "      - { insert: Message, id: $id, set: { text: $$5, seq: $seq } }"
            + "\n      - save", pushes: "  - service: { push: { id: m1, seq: 1 } }\n  - service: { push: { id: m2, seq: 2 } }"), file: "p.yaml")
        let work = try #require(filled.runs()[0].process(named: "service")).work(for: filled.steps[1].step)
        #expect(work.first.map { if case .insert(_, _, let values) = $0.step { values["text"] == .string("$5") } else { false } } == true)
        // Without a payload anywhere, `$` is text, as it was before payloads existed.
        let plain = try ScenarioLoader.parse(yaml: yaml(onPush: "      - { insert: Message, id: m1, set: { text: $$5, seq: 1 } }",
                                                       pushes: "  - service: push", after: ""), file: "p.yaml")
        #expect(plain.process(named: "service")?.work.first.map {
            if case .insert(_, _, let values) = $0.step { values["text"] == .string("$$5") } else { false }
        } == true)
    }

    @Test func aFieldTheWorkNeverTakesIsReportedAtItsKey() {
        let errors = Fixture.errors(yaml(pushes: "  - service: { push: { id: m1, text: A, seq: 1, tag: x } }", after: ""))
        #expect(errors.map(\.column) == [49], "\(errors)")
    }

    @Test func onlyInCannotTakeAPayloadsValue() {
        let errors = Fixture.errors(yaml(onPush: "      - { insert: Message, id: $id, set: { text: $text, seq: $seq }, only-in: $v }\n      - save",
                                         pushes: "  - service: { push: { id: m1, text: A, seq: 1, v: a } }", after: "variants: { a: {} }"))
        #expect(errors.count == 1 && errors.first?.message.contains("it cannot take $v from a push's payload") == true, "\(errors)")
    }

    /// A push waits for its work: checks' `within:` in `on-push:` count toward the run's real-clock limit once per
    /// push, with the payload's values.
    @Test func thePushesWorkCountsTowardTheRealClockLimit() {
        let errors = Fixture.errors(yaml(onPush: "      - { insert: Message, id: $id, set: { text: A, seq: 1 } }\n      - save\n"
            + "      - { count: Message, expect: 9, within: $wait }", pushes: """
              - service: { push: { id: m1, wait: 40m } }
              - service: { push: { id: m2, wait: 40m } }
            """, after: ""))
        #expect(errors.count == 1 && errors.first?.message.contains("wait up to 80m") == true && errors.first?.line == 14, "\(errors)")
    }

    @Test func theStepsAfterAPushMayNameWhatItInsertsAndNotBefore() {
        let errors = Fixture.errors(yaml(pushes: "  - app: { read: m1 }\n  - service: { push: { id: m1, text: A, seq: 1 } }", after: ""))
        #expect(errors.map(\.line) == [12] && errors.first?.message.contains("no earlier step inserts an object with id 'm1'") == true,
                "\(errors)")
    }

    @Test(arguments: [
        // A push without a payload beside pushes with one, when the work takes values.
        ("  - service: push\n  - service: { push: { id: m2, text: B, seq: 2 } }", 12, "takes values from each push's payload ($id at line 8)"),
        ("  - service: { push: { id: m1, seq: 1 } }", 12, "gives no text, which the on-push: of 'service' takes as $text at line 8"),
        // An int the work takes, missing: one error, not also the work's '$seq' that is no number.
        ("  - service: { push: { id: m1, text: A } }", 12, "gives no seq"),
        ("  - service: { push: { text: A, seq: 1 } }", 12, "gives no id"),
        ("  - service: { push: { id: m1, text: A, seq: 1, tag: x } }", 12, "never takes $tag"),
        ("  - service: { push: { id: m1, text: A, seq: [1] } }", 12, "the payload's seq is one value"),
        ("  - service: { push: { 1d: m1, text: A, seq: 1 } }", 12, "a payload's names are letters"),
        ("  - service: { push: {} }", 12, "push: {} gives an empty payload"),
        ("  - service: { push: [m1] }", 12, "push takes a payload"),
        // A value the work cannot take is reported where the push gives it.
        ("  - service: { push: { id: m1, text: A, seq: many } }", 12, "'Message.seq' is int"),
        ("  - service: { push: { id: 'not an id', text: A, seq: 1 } }", 12, "expected an object id"),
    ])
    func mistakesAreReportedWhereTheyAreWritten(pushes: String, line: Int, message: String) {
        let errors = Fixture.errors(yaml(pushes: pushes, after: ""))
        #expect(errors.count == 1 && errors.first?.line == line && errors.first?.message.contains(message) == true, "\(errors)")
    }
}
