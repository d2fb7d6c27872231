@testable import ScenarioModel
import Testing

/// `only-in:` limits a step to some variants, for fixes that change what a process does rather than
/// how it is configured (end a write before suspending).
@Suite struct OnlyInTests {
    @Test func aStepRunsOnlyInTheVariantsItNames() throws {
        let scenario = try Fixture.scenario(Fixture.yaml(steps: """
              - app: launch
              - app: { begin-write: true }
              - app: { end-write: true, only-in: [fixed] }
              - app: suspend
            """, after: """
            variants:
              buggy: { expect: [lock-held-while-suspended] }
              fixed: { expect: pass }
            """))
        let runs = scenario.runs()
        #expect(runs[0].steps.map(\.step) == [.launch, .beginWrite, .suspend])
        #expect(runs[1].steps.map(\.step) == [.launch, .beginWrite, .endWrite, .suspend])
    }

    @Test func aSingleNameIsAccepted() throws {
        let scenario = try Fixture.scenario(Fixture.yaml(steps: """
              - app: launch
              - app: { save: true, only-in: fixed }
            """, after: "variants:\n  fixed: { expect: pass }\n  other: { expect: pass }"))
        #expect(scenario.runs().map(\.steps.count) == [2, 1])
    }

    @Test func anUnknownVariantIsAnErrorAtTheStep() throws {
        let errors = Fixture.errors(Fixture.yaml(steps: """
              - app: launch
              - app: { save: true, only-in: [fixd] }
            """, after: "variants:\n  fixed: { expect: pass }"))
        #expect(errors.count == 1)
        #expect(errors.first?.line == Fixture.firstStepLine + 1)
        #expect(errors.first?.message.contains("did you mean 'fixed'?") == true)
    }
}
