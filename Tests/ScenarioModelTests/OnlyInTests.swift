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

/// A control step (sleep, fault, parallel, workload...) takes `only-in:` beside its word.
@Suite struct ControlOnlyInTests {
    @Test func aControlStepRunsOnlyInTheVariantsItNames() throws {
        let scenario = try Fixture.scenario(Fixture.yaml(steps: """
              - app: launch
              - { sleep: 100ms, only-in: slow }
              - fault: { drop-notifications: app, for: 1s }
                only-in: [slow]
              - { only-in: slow, sleep: 5ms }
              - app: save
            """, after: "variants:\n  slow: { expect: pass }\n  fast: { expect: pass }"))
        let runs = scenario.runs()
        #expect(runs.map(\.variant) == ["slow", "fast"])
        #expect(runs[0].steps.count == 5 && runs[1].steps.count == 2)
    }

    @Test func anUnknownVariantOrAnotherKeyIsAnErrorAtIt() {
        Fixture.expectOneError(Fixture.yaml(steps: "  - { sleep: 100ms, only-in: slw }", after: "variants:\n  slow: { expect: pass }"),
                               line: Fixture.firstStepLine, column: 7, containing: "unknown variant 'slw'; did you mean 'slow'?")
        let errors = Fixture.errors(Fixture.yaml(steps: "  - { sleep: 100ms, expect: pass }"))
        #expect(errors.count == 1 && errors[0].message.contains("a control step may take only-in: beside its word"), "\(errors)")
    }
}
