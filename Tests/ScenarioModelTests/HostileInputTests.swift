import Foundation
@testable import ScenarioModel
import Testing

/// Inputs that once passed validation and then crashed the runner, hung the validator or printed an
/// error without its position: each is now refused at validation, with `file:line:column`.
@Suite struct HostileInputTests {
    let line = Fixture.firstStepLine

    @Test func aMixWeightBeyondTheLimitIsRefused() {
        let steps = "  - workload: { processes: [app], entity: Note, duration: 1s, mix: { insert: 9223372036854775807 } }"
        let errors = Fixture.errors(Fixture.yaml(steps: steps))
        #expect(errors.contains { $0.line == line && $0.message.contains("between 0 and 1000000") }, "\(errors)")
    }

    @Test(arguments: [
        "  - app: { read: n1, within: 106752d }",
        "  - sleep: 106752d",
        "  - fault: { drop-notifications: app, for: 2h }",
        "  - fault: { delay-notifications: app, by: 999999999d }",
        "  - workload: { processes: [app], entity: Note, duration: 2h }",
    ])
    func aRealTimeWaitLongerThanAnHourIsRefused(step: String) {
        let errors = Fixture.errors(Fixture.yaml(steps: "  - app: { insert: Note, id: n1 }\n" + step))
        #expect(errors.contains { $0.line == line + 1 && ($0.message.contains("is longer than 1h") || $0.message.contains("too long")) }, "\(errors)")
    }

    @Test(arguments: ["busy-timeout: 106752d", "poll-interval: 200d", "sync: { transfer: { latency: 106752d } }"])
    func aSettingLongerThanAnHourIsRefused(setting: String) {
        let yaml = Fixture.yaml(steps: "  - app: launch").replacingOccurrences(of: "    role: host\n", with: "    role: host\n    \(setting)\n")
        let errors = Fixture.errors(yaml)
        #expect(errors.contains { $0.message.contains("is longer than 1h") }, "\(errors)")
    }

    @Test(arguments: ["stale-tolerance: 106752d", "latency: { p99: 106752d }"])
    func aTopLevelDurationLongerThanAnHourIsRefused(key: String) {
        let errors = Fixture.errors(Fixture.yaml(steps: "  - app: launch", after: key))
        #expect(errors.contains { $0.message.contains("is longer than 1h") }, "\(errors)")
    }

    @Test func theSimulatedClockMovesUpToACentury() throws {
        _ = try Fixture.scenario(Fixture.yaml(steps: "  - clock: { advance: 36500d }"))
        let errors = Fixture.errors(Fixture.yaml(steps: "  - clock: { advance: 36501d }"))
        #expect(errors.first?.message.contains("longer than 36500d") == true, "\(errors)")
    }

    @Test(arguments: ["1e300/s", "100001/s", "1/1us"])
    func aRateBeyondTheLimitIsRefused(rate: String) {
        let steps = "  - workload: { processes: [app], entity: Note, duration: 1s, rate: \(rate) }"
        let errors = Fixture.errors(Fixture.yaml(steps: steps))
        #expect(errors.contains { $0.line == line && $0.message.contains("more than 100000 operations a second") }, "\(errors)")
    }

    @Test func aWorkloadOfMoreThanAMillionOperationsIsRefused() {
        let steps = "  - workload: { processes: [app], entity: Note, duration: 1h, rate: 1000/s }"
        let errors = Fixture.errors(Fixture.yaml(steps: steps))
        #expect(errors.contains { $0.message.contains("3600000 operations") }, "\(errors)")
    }

    @Test func aBatchOrCountBeyondAMillionIsRefused() {
        let errors = Fixture.errors(Fixture.yaml(steps: "  - app: { batch-insert: Note, count: 1000001 }\n  - app: { count: Note, expect: 9223372036854775807 }"))
        #expect(errors.count == 2, "\(errors)")
    }

    @Test func aPredicateLiteralNoNumberCanHoldIsRefused() {
        let errors = Fixture.errors(Fixture.yaml(steps: "  - app: { fetch: Note, where: \"rank > 1e309\" }"))
        #expect(errors.contains { $0.line == line && $0.message.contains("1e309") }, "\(errors)")
    }

    /// 400 bytes that expand to 10^8 nodes, as values or as mapping keys: refused in milliseconds.
    @Test(arguments: [false, true])
    func anAliasBombIsRefusedBeforeItExpands(asKeys: Bool) {
        var lines = ["summary: x", "a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        for level in 1..<8 {
            lines.append("a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]")
        }
        lines.append(asKeys ? "k: { ? *a7 : 1 }" : "k: *a7")
        let start = ContinuousClock.now
        let errors = Fixture.errors(lines.joined(separator: "\n"))
        #expect(ContinuousClock.now - start < .seconds(5), "refused without expanding")
        #expect(errors.count == 1 && errors[0].message.contains("aliases"), "\(errors)")
    }

    /// Many nodes written out, no alias: the limit is named as the file's size in nodes, not blamed on aliases.
    @Test func aFileOfMoreNodesThanTheLimitSaysSoWithoutBlamingAliases() {
        let variants = (0..<40_000).map { "v\($0): {expect: pass}" }.joined(separator: ", ")
        let errors = Fixture.errors(Fixture.yaml(steps: "  - app: launch") + "variants: {\(variants)}\n")
        #expect(errors.count == 1 && errors[0].message.contains("more than \(Limits.expandedNodes) YAML nodes")
                && !errors[0].message.contains("alias"), "\(errors)")
    }

    @Test func aValueLongerThan64KiBIsRefused() {
        let errors = Fixture.errors("summary: \"" + String(repeating: "x", count: 70_000) + "\"\n")
        #expect(errors.map(\.line) == [1] && errors[0].message.contains("70000 bytes"), "\(errors)")
    }

    @Test func aFileLargerThanAMebibyteIsRefused() {
        let errors = Fixture.errors(String(repeating: "# padding\n", count: 110_000))
        #expect(errors.count == 1 && errors[0].message.contains("more than the 1048576"), "\(errors)")
    }

    @Test(arguments: ["group: ..", "group: .hidden", "name: ..", "name: \"a/b\""])
    func aStoreNameThatIsNoPlainNameIsRefused(field: String) {
        let key = field.split(separator: ":")[0]
        let yaml = Fixture.yaml(steps: "  - app: launch").replacingOccurrences(
            of: key == "group" ? "  group: group.example.notes" : "  name: Notes", with: "  \(field)")
        let errors = Fixture.errors(yaml)
        #expect(errors.count == 1, "\(errors)")
    }

    @Test func aCopyNamedDotDotIsRefused() {
        let errors = Fixture.errors(Fixture.yaml(steps: "  - app: { copy-store: \"..\" }"))
        #expect(errors.first?.line == line, "\(errors)")
    }

    /// An echoed value with a line break stays on the error's one line, and a U+0085 (a line break to
    /// libyaml, not to an editor) does not shift the reported lines.
    @Test func echoedControlCharactersAreEscapedAndNELShiftsNoLine() {
        let errors = Fixture.errors(Fixture.yaml(steps: "  - app: { post: \"a\\u0085b\\nc\" }\n  - app: { reed: n1 }"))
        #expect(errors.count == 2, "\(errors)")
        #expect(errors.allSatisfy { !$0.description.contains("\n") && !$0.description.contains("\u{85}") }, "\(errors)")
        #expect(errors.map(\.line) == [line, line + 1])
        let nel = Fixture.errors("summary: \"x\u{85}y\"\nbogus: 1\n")
        #expect(nel.contains { $0.line == 2 && $0.column == 1 && $0.message.contains("bogus") }, "\(nel)")
    }
}

/// A file cannot ask for more OS processes than an app and its extensions have.
@Suite struct ProcessLimitTests {
    @Test func moreProcessesThanTheLimitAreRefusedAtTheFirstOneTooMany() {
        let processes = (1...(Limits.processes + 500)).map { "p\($0): { role: share }" }.joined(separator: ", ")
        let yaml = Fixture.yaml(model: "Note: { title: string }").replacingOccurrences(of: "processes: { app: { role: host } }",
                                                                          with: "processes: { app: { role: host }, \(processes) }")
        let errors = Fixture.errors(yaml)
        #expect(errors.count == 1 && errors[0].line == 7 && errors[0].message.contains("at most \(Limits.processes)"), "\(errors)")
    }
}

/// A model cannot have more entities than the language bounds, whether a file declares them or a store's
/// schema shows them: validation looks entities up by name, and real models have tens.
@Suite struct EntityLimitTests {
    @Test func moreEntitiesThanTheLimitAreRefusedAtTheFirstOneTooMany() throws {
        let entities = (1...(Limits.entities + 5)).map { "E\($0): { name: string }" }.joined(separator: ", ")
        let errors = Fixture.errors(Fixture.yaml(model: "{ Note: { title: string }, \(entities) }"))
        #expect(errors.count == 1 && errors[0].message.contains("at most \(Limits.entities)"), "\(errors)")
        let limit = (1..<Limits.entities).map { "E\($0): { name: string }" }.joined(separator: ", ")
        #expect(try Fixture.scenario(Fixture.yaml(model: "{ Note: { title: string }, \(limit) }")).store.model.entities.count == Limits.entities)
    }
}

/// Waits on the real clock are bounded together, not only one by one.
@Suite struct TotalWaitTests {
    @Test func waitsThatAddUpToMoreThanTheLimitAreRefusedAtTheStepThatPassesIt() {
        let steps = (0..<1_000).map { _ in "- sleep: 20m" }.joined(separator: "\n")
        let errors = Fixture.errors(Fixture.yaml(model: "Note: { title: string }", steps: steps))
        #expect(errors.count == 1 && errors[0].line == 13 && errors[0].message.contains("wait up to 80m"), "\(errors)")
    }

    @Test func aParallelWaitsForItsLongestBranchAndOnlyInCountsPerVariant() throws {
        // Two branches of 40 minutes wait 40 minutes; two variants of 40 minutes each wait 40 minutes each.
        let yaml = Fixture.yaml(model: "Note: { title: string }", steps: """
            - parallel: [ { sleep: 40m }, { sleep: 40m } ]
            - { sleep: 10m, only-in: a }
            - { sleep: 10m, only-in: b }
            """) + "\nvariants:\n  a: { expect: pass }\n  b: { expect: pass }\n"
        _ = try Fixture.scenario(yaml)
        let over = yaml.replacingOccurrences(of: "- { sleep: 10m, only-in: b }", with: "- { sleep: 10m, only-in: b }\n  - { sleep: 15m, only-in: b }")
        let errors = Fixture.errors(over)
        #expect(errors.count == 1 && errors[0].message.contains("in variant b"), "\(errors)")
    }

    /// A widget's reload waits for its `on-reload:` once per request: two requests of a work that checks
    /// `within: 40m` wait up to 80 minutes (they were not counted, and a real-time run waited that long).
    @Test func eachRequestedReloadWaitsForTheWidgetsWork() {
        let yaml = """
            summary: Reloads.
            store: { group: group.example.notes, name: Notes, model: { Note: { title: string } } }
            processes:
              app: { role: host }
              widget: { role: widget, on-reload: [ { fetch: Note }, { count: Note, expect: 9, within: 40m } ] }
            steps:
              - app: launch
              - app: { reload-timelines: widget }
              - app: { reload-timelines: true }
            """
        let errors = Fixture.errors(yaml)
        #expect(errors.count == 1 && errors.first?.line == 9 && errors.first?.message.contains("wait up to 80m") == true, "\(errors)")
    }
}
