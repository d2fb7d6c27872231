import Basics
import Checkers
import Runner
import Testing
import TestSupport
import Trace

/// A batch update and a batch delete of a parent entity reach every kind's rows (`includesSubentities`):
/// a process that merges history learns of each, one that does not keeps showing them, in both modes.
/// (The app exits after its batch: its own view would keep the rows too, as Core Data's does.)
@Suite(.serialized, .spawnsProcesses) struct BatchOnParentEndToEndTests {
    private func yaml(refresh: String, expect: String) -> String {
        """
        summary: The app clears every kind of item in one batch; the widget merges history or not.
        store:
          group: group.example.items
          name: Items
          model:
            Item: { abstract-entity: true, title: string }
            Note: { parent-entity: Item, body: string? }
            Task: { parent-entity: Item, done: bool = false }
        processes:
          app: { role: host }
          share: { role: share, refresh: \(refresh), trigger: manual }
        expect: \(expect)
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: { insert: Task, id: t1, set: { title: B } }
          - app: { insert: Task, id: t2, set: { title: keep } }
          - app: save
          - share: launch
          - share: { fetch: Item }
          - share: { count: Item, expect: 3, now: true }
          - app: { batch-update: Item, where: "title != 'keep'", set: { title: done } }
          - app: { batch-delete: Item, where: "title == 'done'" }
          - app: exit
          - share: run-refresh
          - share: { count: Item, expect: 1 }
          - share: { read: t2, expect: { title: keep }, now: true }
        """
    }

    @Test(arguments: RunMode.allCases)
    func historyCarriesEachKindsDeletes(mode: RunMode) throws {
        let outcome = try RunHarness.single(yaml(refresh: "history", expect: "pass"), mode: mode)
        #expect(outcome.harnessError == nil)
        let result = TraceChecker.check(outcome.trace)
        #expect(result.anomalies.isEmpty, "\(result.anomalies.map(\.explanation))")
        let batches = outcome.trace.events.compactMap { event -> [String]? in
            guard case .saveCommitted(let commit) = event.kind, commit.source == .batchDelete else { return nil }
            return commit.objects.map { "\($0.entity) \($0.id)" }
        }
        #expect(batches == [["Note n1", "Task t1"]])
    }

    @Test(arguments: RunMode.allCases)
    func withoutAMergeTheDeletedKindsStay(mode: RunMode) throws {
        let outcome = try RunHarness.single(yaml(refresh: "none", expect: "[missed-delete]"), mode: mode)
        #expect(outcome.harnessError == nil)
        let result = TraceChecker.check(outcome.trace)
        #expect(result.anomalies.map(\.kind).contains(.missedDelete), "\(result.anomalies.map(\.explanation))")
    }
}
