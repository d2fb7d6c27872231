import Basics
@testable import ScenarioModel
import Testing

/// Seeds derive from the root seed with fixed functions, so these numbers hold on every run and machine.
@Suite struct SeedDerivationTests {
    @Test func stableHashesHaveTheirKnownValues() {
        #expect(StableHash.fnv1a64("") == 0xcbf2_9ce4_8422_2325)
        #expect(StableHash.fnv1a64("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(StableHash.splitMix64(0) == 0xe220_a839_7b1d_cdaf)
    }

    @Test func processAndWorkloadSeedsAreFixedNumbers() {
        // Computed independently (Python, from the definitions in SeedDerivation's documentation).
        #expect(SeedDerivation.processSeed(root: 1, process: "app") == 2_784_729_275_453_811_647)
        #expect(SeedDerivation.processSeed(root: 1, process: "share") == 12_384_742_332_980_870_802)
        #expect(SeedDerivation.processSeed(root: 7, process: "app") == 13_180_826_119_283_094_202)
        #expect(SeedDerivation.workloadSeed(root: 1, ordinal: 1) == 16_143_074_210_845_618_394)
        #expect(SeedDerivation.workloadSeed(root: 1, ordinal: 2) == 10_344_740_157_162_839_850)
    }

    @Test func rootSeedIsTheCLIsThenTheFilesThenOne() {
        #expect(SeedDerivation.rootSeed(cli: 9, file: 7) == 9)
        #expect(SeedDerivation.rootSeed(cli: nil, file: 7) == 7)
        #expect(SeedDerivation.rootSeed(cli: nil, file: nil) == 1)
    }

    @Test func runsCarryDerivedProcessAndWorkloadSeeds() throws {
        let steps = """
              - workload: { processes: [app], entity: Note, duration: 1s }
              - parallel: [ { workload: { processes: [share], entity: Note, duration: 1s } }, { app: save } ]
            """
        let scenario = try Fixture.scenario(Fixture.yaml(steps: steps, after: "seed: 7\nvariants:\n  a: {}\n  b: {}"))
        guard case let .workload(parsed) = scenario.steps[0].step else {
            Issue.record("the first step is not a workload: \(scenario.steps[0].step)")
            return
        }
        #expect(parsed.seed == nil)

        for run in scenario.runs() {
            #expect(run.rootSeed == 7)
            #expect(run.processes.map(\.seed) == [SeedDerivation.processSeed(root: 7, process: "app"),
                                                  SeedDerivation.processSeed(root: 7, process: "share")])
            #expect(workloadSeeds(run.steps) == [SeedDerivation.workloadSeed(root: 7, ordinal: 1),
                                                 SeedDerivation.workloadSeed(root: 7, ordinal: 2)])
        }
        let overridden = scenario.runs(seed: 42)[0]
        #expect(overridden.rootSeed == 42)
        #expect(overridden.processes[0].seed == SeedDerivation.processSeed(root: 42, process: "app"))
    }

    private func workloadSeeds(_ steps: [ScenarioStep]) -> [UInt64?] {
        steps.flatMap { step -> [UInt64?] in
            switch step.step {
            case let .workload(workload): [workload.seed]
            case let .parallel(children): workloadSeeds(children)
            default: []
            }
        }
    }
}
