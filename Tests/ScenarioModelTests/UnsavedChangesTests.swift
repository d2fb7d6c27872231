import Testing
@testable import ScenarioModel

/// Which steps leave edits unsaved, and which end them, is one switch (`Step.unsavedChanges`) that the
/// validator, the autosave schedule, the intent carrier, explore and the deterministic mode all read.
@Suite struct UnsavedChangesTests {
    @Test func editsAreMadeSavesAndRollbacksEndThemAndAProcessThatEndsLosesThem() {
        let made: [Step] = [.insert(entity: "Note", id: "n1", values: [:]), .update(id: "n1", values: [:]), .delete(id: "n1"),
                            .relate(id: "n1", to: "t1", via: "tags"), .unrelate(id: "n1", from: "t1", via: "tags")]
        for step in made { #expect(step.unsavedChanges == .made, "\(step)") }
        #expect(Step.save.unsavedChanges == .saved)
        #expect(Step.autosave(changedAt: 3).unsavedChanges == .saved)
        #expect(Step.rollback.unsavedChanges == .discarded)
        #expect(Step.reset.unsavedChanges == .discarded)
        for step: Step in [.launch, .exit, .crash, .terminate] { #expect(step.unsavedChanges == .lost, "\(step)") }
    }

    @Test func writesThatBypassTheContextAndLifecycleChangesKeepThem() {
        let kept: [Step] = [.batchUpdate(entity: "Note", predicate: nil, values: [:]), .sync, .suspend, .background,
                            .push(nil), .refreshAll, .mergeHistory, .endWrite]
        for step in kept {
            #expect(step.unsavedChanges == .kept, "\(step)")
            #expect(!step.unsavedChanges.endsThem, "\(step)")
        }
        #expect(UnsavedChanges.saved.endsThem && UnsavedChanges.discarded.endsThem && UnsavedChanges.lost.endsThem)
        #expect(!UnsavedChanges.made.endsThem)
    }
}
