import Basics
import ScenarioModel
import Testing
@testable import Agent

/// The deterministic mode asks a command again after a lock wait only when the lock wait left nothing
/// done, and holds a commit open among `parallel`'s children only for a write that commits at its end:
/// both read off `Step.effect`, one switch over every step.
@Suite struct StepEffectTests {
    private func command(_ step: Step) -> AgentCommand { .perform(step) }

    @Test func writesThatTakeTheLockFirstYieldOnALockWaitAndMayHoldTheirCommit() {
        let writes: [Step] = [
            .save, .autosave(changedAt: 0), .batchInsert(entity: "Note", count: 3, values: [:]),
            .batchUpdate(entity: "Note", predicate: nil, values: [:]), .batchDelete(entity: "Note", predicate: nil),
            .purgeHistory(policy: nil), .sync, .leech,
        ]
        for step in writes {
            #expect(command(step).yieldsOnLockWait, "\(step)")
            #expect(command(step).mayHoldItsCommit, "\(step)")
        }
    }

    @Test func aHeldLockAndACheckpointYieldButHoldNoCommit() {
        for step: Step in [.beginWrite, .checkpoint] {
            #expect(command(step).yieldsOnLockWait, "\(step)")
            #expect(!command(step).mayHoldItsCommit, "\(step)")
        }
    }

    @Test func readsEditsAndTheLocksReleaseNeitherYieldNorHold() {
        let others: [Step] = [.endWrite, .mergeHistory, .refreshAll, .rollback, .delete(id: "n1"), .post(name: "x")]
        for step in others {
            #expect(!command(step).yieldsOnLockWait, "\(step)")
            #expect(!command(step).mayHoldItsCommit, "\(step)")
        }
        #expect(!AgentCommand.finalView.yieldsOnLockWait)
    }
}
