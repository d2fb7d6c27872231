@testable import ScenarioModel
import Testing

/// Errors in the scenario's declarations (top level, store, model, processes, variants) and in its YAML
/// syntax, each at its exact position.
@Suite struct DeclarationValidationTests {
    /// A scenario whose `processes:` section is `processes` and whose variants are `variants`.
    private func yaml(processes: String = "  app:\n    role: host\n  share:\n    role: share",
                      variants: String = "") -> String {
        """
        summary: A test.
        store:
          group: group.example.notes
          name: Notes
          model:
            Note:
              title: string
        processes:
        \(processes)
        steps:
          - app: launch
        \(variants)
        """
    }

    @Test func yamlSyntaxErrorKeepsTheParsersPosition() {
        let found = Fixture.errors("summary: A\nsteps: [ { app: launch }\nstore: {}\n")
        #expect(found.count == 1)
        #expect(found.first?.line == 3 && found.first?.column == 1, "\(found)")
        #expect(found.first?.message.hasPrefix("the YAML does not parse: ") == true)
        #expect(found.first?.message.hasSuffix("check the indentation, quoting and brackets here.") == true)
    }

    @Test func duplicateKeyIsAnError() {
        let found = Fixture.errors("summary: A\nsummary: B\n")
        #expect(found.count == 1)
        #expect(found.first?.message == "the key 'summary' appears more than once in one mapping; keep only one of them.")
        #expect(found.first?.line == 1 && found.first?.column == 1)
    }

    @Test func emptyFileIsAnError() {
        Fixture.expectOneError("", line: 1, column: 1, containing: "the file is empty")
    }

    @Test func unknownTopLevelKeySuggestsTheNearest() {
        Fixture.expectOneError(yaml() + "\nvariant: {}\n", line: 16, column: 1,
                               containing: "unknown key 'variant' in the scenario; did you mean 'variants'?")
    }

    @Test func missingSummaryIsAnErrorAtTheRoot() {
        let text = yaml().replacingOccurrences(of: "summary: A test.\n", with: "")
        Fixture.expectOneError(text, line: 1, column: 1, containing: "the scenario needs 'summary'; add it, for example")
    }

    @Test func scenarioNameMustBeKebabCase() {
        Fixture.expectOneError("name: My_Scenario\n" + yaml(), line: 1, column: 7,
                               containing: "the scenario name 'My_Scenario' is not kebab-case; write it like my-scenario")
    }

    @Test func fileNameThatIsNotKebabCaseNeedsAName() {
        let found = Fixture.errors(yaml(), file: "Scenarios/MyScenario.yaml")
        #expect(found.map(\.description) == [
            "Scenarios/MyScenario.yaml:1:1: error: the file name 'MyScenario' is not a kebab-case scenario name; "
                + "add name: my-scenario or rename the file.",
        ])
    }

    @Test func unknownSettingSuggestsTheNearest() {
        Fixture.expectOneError(yaml(processes: "  app:\n    role: host\n    stalness: 0"), line: 11, column: 5,
                               containing: "unknown setting 'stalness' for process 'app'; did you mean 'staleness'?")
    }

    @Test func camelCaseSettingSuggestsKebabCase() {
        Fixture.expectOneError(yaml(processes: "  app:\n    role: host\n    pollInterval: 1s"), line: 11, column: 5,
                               containing: "did you mean 'poll-interval'?")
    }

    @Test func unknownSettingValueSuggestsTheNearest() {
        Fixture.expectOneError(yaml(processes: "  app:\n    role: host\n    refresh: histroy"), line: 11, column: 14,
                               containing: "unknown refresh strategy 'histroy'; did you mean 'history'?")
    }

    @Test func missingRoleIsAnError() {
        Fixture.expectOneError(yaml(processes: "  app:\n    refresh: history"), line: 10, column: 5,
                               containing: "process 'app' needs 'role'")
    }

    @Test func processNameMustNotBeAControlKeyword() {
        Fixture.expectOneError(yaml(processes: "  app:\n    role: host\n  sleep:\n    role: share"), line: 11, column: 3,
                               containing: "'sleep' cannot name a process because it starts a control step")
    }

    /// `limits` is a variant key GroupSim added after the contract, which names processes freely: a process
    /// of that name keeps it, and a variant's `limits:` then overrides its settings.
    @Test func aProcessNamedLimitsKeepsItsName() throws {
        let scenario = try Fixture.scenario(yaml(processes: "  app:\n    role: host\n  limits:\n    role: share",
                                                 variants: "variants:\n  slow: { limits: { busy-timeout: 1s } }"))
        let run = try #require(scenario.runs().first)
        #expect(run.processes.first { $0.name == "limits" }?.settings.busyTimeout == .seconds(1))
        #expect(run.growthLimits == nil)
    }

    @Test func historyAuthorsMustBeWrittenBySomeProcess() {
        let processes = "  app:\n    role: host\n    history-authors: [app, shar]\n  share:\n    role: share"
        Fixture.expectOneError(yaml(processes: processes), line: 11, column: 28,
                               containing: "no process writes the author 'shar'; did you mean 'share'?")
    }

    @Test func namedAuthorsCountForHistoryAuthors() throws {
        let processes = "  app:\n    role: host\n    history-authors: [writer]\n  share:\n    role: share\n    author: writer"
        let scenario = try Fixture.scenario(yaml(processes: processes))
        #expect(scenario.processes[0].settings.historyAuthors == .only(["writer"]))
        #expect(scenario.processes[1].settings.author == .named("writer"))
    }

    @Test func unknownAttributeTypeSuggestsTheNearest() {
        let text = yaml().replacingOccurrences(of: "title: string", with: "title: strng")
        Fixture.expectOneError(text, line: 7, column: 14, containing: "unknown type 'strng'; did you mean 'string'?")
    }

    @Test func defaultOfTheWrongTypeIsAnError() {
        let text = yaml().replacingOccurrences(of: "title: string", with: "rank: int = high")
        Fixture.expectOneError(text, line: 7, column: 13, containing: "'rank' is int, so expected a whole number")
    }

    @Test func toManyRelationshipToAnUnknownEntityIsAnError() {
        let text = yaml().replacingOccurrences(of: "title: string", with: "tags: [Tags]")
        Fixture.expectOneError(text, line: 7, column: 13, containing: "unknown entity 'Tags' in a to-many relationship")
    }

    @Test func entityNameMustStartUppercase() {
        let text = yaml().replacingOccurrences(of: "    Note:", with: "    note:")
        let found = Fixture.errors(text)
        #expect(found.first?.line == 6 && found.first?.column == 5)
        #expect(found.first?.message.contains("must start with an uppercase letter") == true)
    }

    @Test func variantOverridingAnUnknownSettingSuggestsTheNearest() {
        Fixture.expectOneError(yaml(variants: "variants:\n  fresh: { app: { stalenes: 0 } }"), line: 16, column: 19,
                               containing: "unknown setting 'stalenes' for process 'app'; did you mean 'staleness'?")
    }

    @Test func variantOverridingAnUnknownProcessSuggestsTheNearest() {
        Fixture.expectOneError(yaml(variants: "variants:\n  fresh: { ap: { staleness: 0 } }"), line: 16, column: 12,
                               containing: "unknown process or key 'ap' in variant 'fresh'; did you mean 'app'?")
    }

    @Test func variantCannotChangeARole() {
        Fixture.expectOneError(yaml(variants: "variants:\n  v: { app: { role: share } }"), line: 16, column: 15,
                               containing: "a variant cannot change the role of 'app'")
    }

    @Test func expectNamingAnUnknownAnomalySuggestsTheNearest() {
        Fixture.expectOneError(yaml(variants: "variants:\n  v: { expect: [stale-reed] }"), line: 16, column: 17,
                               containing: "unknown anomaly 'stale-reed'; did you mean 'stale-read'?")
    }

    @Test func emptyExpectListIsAnError() {
        Fixture.expectOneError(yaml() + "\nexpect: []\n", line: 16, column: 9, containing: "write expect: pass")
    }

    @Test func unknownLatencyKeySuggestsTheNearest() {
        Fixture.expectOneError(yaml() + "\nlatency: { p95: 5ms, p99: 50ms }\n", line: 16, column: 12,
                               containing: "unknown key 'p95' in the latency budget; did you mean 'p90'?")
    }

    @Test func everyErrorInTheFileIsReportedSortedByPosition() {
        let text = """
            summary: A test.
            store:
              group: group.example.notes
              name: Notes
              model:
                Note:
                  title: strin
            processes:
              app:
                role: hots
            steps:
              - app: { insert: Note, id: n1, set: { rank: 1 } }
              - sleep: soon
            variants:
              v: { expect: [bogus] }
            """
        let found = Fixture.errors(text)
        #expect(found.map { "\($0.line):\($0.column)" } == ["7:14", "10:11", "12:41", "13:12", "15:17"])
        #expect(found.map(\.description).first == "Scenarios/fixture.yaml:7:14: error: unknown type 'strin'; "
            + "did you mean 'string'?")
    }
}
