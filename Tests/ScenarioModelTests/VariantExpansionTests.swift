import Basics
@testable import ScenarioModel
import Testing

@Suite struct VariantExpansionTests {
    private func scenario(after: String) throws -> Scenario {
        try Fixture.scenario(Fixture.yaml(steps: "  - app: launch", after: after))
    }

    /// Variant names are kebab-case by house style; underscores and capitals are accepted too (they are
    /// folder names and `--variant` arguments), anything else is an error at the name.
    @Test func variantNamesMayHoldLettersDigitsDashesAndUnderscores() throws {
        let runs = try scenario(after: "variants:\n  fresh_cache: { expect: pass }\n  staleCache2: { expect: pass }\n").runs()
        #expect(runs.map(\.variant) == ["fresh_cache", "staleCache2"])
        Fixture.expectOneError(Fixture.yaml(steps: "  - app: launch", after: "variants:\n  \"fresh cache\": { expect: pass }"),
                               line: Fixture.firstStepLine + 2, column: 3, containing: "may hold only letters, digits, '-' and '_'")
    }

    @Test func scenarioWithoutVariantsHasOneDefaultRunExpectingPass() throws {
        let runs = try scenario(after: "").runs()
        #expect(runs.map(\.variant) == ["default"])
        #expect(runs[0].expectation == .pass)
        #expect(runs[0].staleTolerance == .milliseconds(250))
        #expect(runs[0].latencyBudget == nil)
        #expect(runs[0].processes.map(\.name) == ["app", "share"])
    }

    @Test func topLevelExpectAppliesToTheDefaultRun() throws {
        let runs = try scenario(after: "expect: [missed-insert, busy]\nlatency: { p99: 50ms }\nstale-tolerance: 1s").runs()
        #expect(runs[0].expectation == .anomalies([.missedInsert, .busy]))
        #expect(runs[0].latencyBudget == LatencyBudget(p99: 50_000_000))
        #expect(runs[0].staleTolerance == .seconds(1))
    }

    @Test func singleAnomalyNameIsAListOfOne() throws {
        #expect(try scenario(after: "expect: stale-read").expectation == .anomalies([.staleRead]))
    }

    @Test func variantsOverrideOnlyWhatTheyNameAndInheritTheRest() throws {
        let scenario = try scenario(after: """
            expect: [stale-read]
            latency: { p50: 5ms, p99: 50ms }
            variants:
              buggy: { app: { staleness: -1, trigger: activation } }
              fixed: { app: { refresh: history }, share: { author: none }, expect: pass, latency: { p99: 20ms }, stale-tolerance: 0 }
              empty:
            """)
        let runs = scenario.runs()
        #expect(runs.map(\.variant) == ["buggy", "fixed", "empty"])
        #expect(runs.map(\.expectation) == [.anomalies([.staleRead]), .pass, .anomalies([.staleRead])])
        #expect(runs[0].latencyBudget == LatencyBudget(p50: 5_000_000, p99: 50_000_000))
        #expect(runs[1].latencyBudget == LatencyBudget(p50: 5_000_000, p99: 20_000_000))
        #expect(runs[1].staleTolerance == .zero)
        #expect(runs[2].staleTolerance == .milliseconds(250))

        var buggyApp = ProcessSettings(role: .host)
        buggyApp.trigger = .activation
        #expect(runs[0].process(named: "app")?.settings == buggyApp)
        var fixedApp = ProcessSettings(role: .host)
        fixedApp.refresh = .history
        #expect(runs[1].process(named: "app")?.settings == fixedApp)
        #expect(runs[1].process(named: "share")?.settings.author == TransactionAuthor.none)
        #expect(runs[2].processes.map(\.settings) == scenario.processes.map(\.settings))
    }

    @Test func variantOverridesApplyOnTopOfTheProcessesOwnSettings() throws {
        let yaml = Fixture.yaml(steps: "  - app: launch", after: "variants:\n  v: { app: { trigger: poll } }")
            .replacingOccurrences(of: "    role: host", with: "    role: host\n    refresh: staleness\n    trigger: darwin")
        let run = try Fixture.scenario(yaml).runs()[0]
        #expect(run.process(named: "app")?.settings.refresh == .staleness)
        #expect(run.process(named: "app")?.settings.trigger == .poll)
    }

    @Test func runCanBeSelectedByVariantName() throws {
        let scenario = try scenario(after: "variants:\n  a: {}\n  b: { expect: [busy] }")
        #expect(scenario.run(variant: "b")?.expectation == .anomalies([.busy]))
        #expect(scenario.run(variant: "default") == nil)
        #expect(try self.scenario(after: "").run(variant: "default")?.variant == "default")
    }
}
