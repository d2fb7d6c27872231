import Basics
@testable import ScenarioModel
import Testing

/// A step's `variants:` gives it other arguments in the variants it names.
@Suite("per-variant step arguments")
struct StepVariantsTests {
    private func yaml(_ step: String, variants: String = "variants:\n  changed: {}\n  same-title: {}\n") -> String {
        Fixture.yaml(steps: """
              - app: launch
              - app: { insert: Note, id: n1, set: { title: A } }
              - app: save
            \(step)
            """, after: variants)
    }

    private func updates(_ scenario: Scenario, _ variant: String) -> [String] {
        scenario.run(variant: variant)!.steps.compactMap { step in
            if case let .update(_, values) = step.step { values["title"].map { "\($0)" } } else { nil }
        }
    }

    @Test func eachVariantRunsItsOwnVersionOfTheStep() throws {
        let scenario = try Fixture.scenario(yaml("  - share: { update: n1, set: { title: B }, variants: { same-title: { set: { title: A } } } }"))
        #expect(updates(scenario, "changed") == ["\(Value.string("B"))"])
        #expect(updates(scenario, "same-title") == ["\(Value.string("A"))"])
        #expect(scenario.run(variant: "same-title")!.steps.count == scenario.run(variant: "changed")!.steps.count)
    }

    @Test func anOverrideMayAddAModifierTheStepDidNotHave() throws {
        let scenario = try Fixture.scenario(yaml("  - app: { read: n1, expect: { title: A }, variants: { changed: { within: 2s } } }"))
        let kinds = scenario.run(variant: "changed")!.steps.map(\.step)
        let plain = scenario.run(variant: "same-title")!.steps.map(\.step)
        #expect(kinds != plain, "the changed variant reads with its own within")
    }

    @Test func anUnknownVariantIsAnErrorWithASuggestion() {
        let errors = Fixture.errors(yaml("  - share: { update: n1, set: { title: B }, variants: { same-titel: { set: { title: A } } } }"))
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.message.contains("unknown variant 'same-titel'") == true)
        #expect(errors.first?.message.contains("did you mean 'same-title'") == true)
        #expect(errors.first?.line == Fixture.firstStepLine + 3)
    }

    @Test func aVariantTheStepDoesNotRunInCannotHaveAVersion() {
        let errors = Fixture.errors(yaml("  - share: { update: n1, set: { title: B }, only-in: [changed], variants: { same-title: { set: { title: A } } } }"))
        #expect(errors.contains { $0.message.contains("runs only in") && $0.message.contains("'same-title'") }, "\(errors)")
    }

    @Test func onlyInAndVariantsCannotBeOverridden() {
        let errors = Fixture.errors(yaml("  - share: { update: n1, set: { title: B }, variants: { same-title: { only-in: [changed] } } }"))
        #expect(errors.contains { $0.message.contains("'only-in' cannot be given per variant") }, "\(errors)")
    }

    @Test func aBadArgumentInAnOverrideIsAnErrorWhereItIsWritten() {
        let errors = Fixture.errors(yaml("  - share: { update: n1, set: { title: B }, variants: { same-title: { set: { rank: lots } } } }"))
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.line == Fixture.firstStepLine + 3 && errors.first?.message.contains("rank") == true, "\(errors)")
    }

    /// `context:` is one of the step's arguments: a variant may run the step through a context (the step's
    /// own is the view context's) or through another than the step's; it was read from the step alone.
    @Test func aVariantMayRunTheStepThroughAnotherContext() throws {
        let scenario = try Fixture.scenario(yaml("""
              - app: { update: n1, set: { title: B }, variants: { changed: { context: importer } } }
              - app: { save: true, context: importer, variants: { same-title: { context: editor } } }
            """))
        func contexts(_ variant: String) -> [String?] {
            scenario.run(variant: variant)!.steps.filter { $0.process == "app" }.suffix(2).map(\.context)
        }
        #expect(contexts("changed") == ["importer", "importer"])
        #expect(contexts("same-title") == [nil, "editor"])
    }

    @Test func aContextAnOverrideGivesIsCheckedWhereItIsWritten() {
        let errors = Fixture.errors(yaml("  - app: { update: n1, set: { title: B }, variants: { changed: { context: view } } }"))
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.line == Fixture.firstStepLine + 3 && errors.first?.message.contains("remove context: view") == true,
                "\(errors)")
    }
}
