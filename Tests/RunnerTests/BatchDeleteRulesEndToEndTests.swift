import Basics
import Checkers
import Runner
import Testing
import TestSupport
import Trace

/// A batch delete applies the relationships' delete rules in its one transaction, and the trace records
/// what it did to each row: the notes a cascade deleted as deletes, the notes a nullify changed as
/// updates. The checkers then judge the final store against it without a false data loss, in both modes.
@Suite(.serialized, .spawnsProcesses) struct BatchDeleteRulesEndToEndTests {
    private func yaml(rule: String, notes: Int) -> String {
        """
        summary: The app batch-deletes a folder; the share extension merges history and counts the notes.
        store:
          group: group.example.notes
          name: Notes
          model:
            Folder: { name: string, notes: "[Note] \(rule)" }
            Note: { title: string, folder: Folder? }
        processes:
          app: { role: host }
          share: { role: share, refresh: history, trigger: manual }
        expect: pass
        steps:
          - app: launch
          - app: { insert: Folder, id: f1, set: { name: Work } }
          - app: { insert: Note, id: n1, set: { title: a } }
          - app: { insert: Note, id: n2, set: { title: b } }
          - app: { relate: n1, to: f1, via: folder }
          - app: { relate: n2, to: f1, via: folder }
          - app: save
          - share: launch
          - share: { fetch: Note }
          - share: { count: Note, expect: 2, now: true }
          - app: { batch-delete: Folder }
          - app: exit
          - share: run-refresh
          - share: { count: Note, expect: \(notes) }
          - share: { count: Folder, expect: 0 }
        """
    }

    /// Each batch-delete commit's rows as `operation entity id`.
    private func batchRows(_ trace: RunTrace) -> [String] {
        trace.events.flatMap { event -> [String] in
            guard case .saveCommitted(let commit) = event.kind, commit.source == .batchDelete else { return [] }
            return commit.objects.map { "\($0.operation.rawValue) \($0.entity) \($0.id)" }
        }
    }

    @Test(arguments: RunMode.allCases)
    func aCascadeDeletesTheNotesInTheSameCommit(mode: RunMode) throws {
        let outcome = try RunHarness.single(yaml(rule: "cascade", notes: 0), mode: mode)
        #expect(outcome.harnessError == nil)
        let result = TraceChecker.check(outcome.trace)
        #expect(result.anomalies.isEmpty, "\(result.anomalies.map(\.explanation))")
        #expect(batchRows(outcome.trace) == ["delete Folder f1", "delete Note n1", "delete Note n2"])
    }

    @Test(arguments: RunMode.allCases)
    func aNullifyUpdatesTheNotesInTheSameCommit(mode: RunMode) throws {
        let outcome = try RunHarness.single(yaml(rule: "nullify", notes: 2), mode: mode)
        #expect(outcome.harnessError == nil)
        let result = TraceChecker.check(outcome.trace)
        #expect(result.anomalies.isEmpty, "\(result.anomalies.map(\.explanation))")
        #expect(batchRows(outcome.trace) == ["delete Folder f1", "update Note n1", "update Note n2"])
    }
}
