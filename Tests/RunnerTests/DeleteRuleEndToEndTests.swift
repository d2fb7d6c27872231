import Basics
import Checkers
import Foundation
import Runner
import ScenarioModel
import Testing
import TestSupport
import Trace

/// Delete rules across processes: the app deletes a folder; what its notes become is what the share
/// extension reads, in both modes.
@Suite(.serialized, .spawnsProcesses) struct DeleteRuleEndToEndTests {
    private func yaml(_ rule: String, _ steps: String) -> String {
        """
        summary: A folder deleted with its notes.
        store:
          group: group.example.notes
          name: Notes
          model:
            Folder:
              name: string
              notes: { to: [Note], delete-rule: \(rule), inverse: folder }
            Note:
              title: string
              folder: Folder?
        processes:
          app: { role: host }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Folder, id: f1, set: { name: Work } }
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: { insert: Note, id: n2, set: { title: B } }
          - app: { relate: n1, to: f1, via: folder }
          - app: { relate: n2, to: f1, via: folder }
          - app: save
          - share: launch
          - share: { fetch: Note }
          - share: { count: Note, expect: 2, now: true }
        \(steps)
        """
    }

    @Test(arguments: RunMode.allCases)
    func aCascadeDeleteTakesTheNotesAndTheWidgetCountsNone(mode: RunMode) throws {
        let outcome = try RunHarness.single(yaml("cascade", """
              - app: { delete: f1 }
              - app: save
              - share: { fetch: Note }
              - share: { count: Note, expect: 0, now: true }
              - share: { read: n1, expect: absent, now: true }
            """), mode: mode)
        #expect(outcome.harnessError == nil)
        let result = TraceChecker.check(outcome.trace)
        #expect(result.anomalies.isEmpty, "\(result.anomalies.map(\.explanation))")
        #expect(result.verdict.matched, "\(result.anomalies.map(\.explanation))")
        let deleted = outcome.trace.events.compactMap { event -> [String]? in
            guard case .saveCommitted(let commit) = event.kind, event.process == "app" else { return nil }
            return commit.objects.filter { $0.operation == .delete }.map(\.id)
        }.last
        #expect(Set(deleted ?? []) == ["f1", "n1", "n2"], "one save deletes the folder and both notes")
    }

    @Test(arguments: RunMode.allCases)
    func aDeniedDeleteFailsTheSaveWithValidationAndKeepsEverything(mode: RunMode) throws {
        let outcome = try RunHarness.single(yaml("deny", """
              - app: { delete: f1 }
              - app: { save: true, expect-error: validation }
              - app: rollback
              - share: { fetch: Note }
              - share: { count: Note, expect: 2, now: true }
            """), mode: mode)
        #expect(outcome.harnessError == nil)
        let result = TraceChecker.check(outcome.trace)
        #expect(result.anomalies.isEmpty, "\(result.anomalies.map(\.explanation))")
        #expect(result.verdict.matched, "\(result.anomalies.map(\.explanation))")
    }

    /// Each batch-delete commit's rows as `operation entity id`.
    private func batchRows(_ trace: RunTrace) -> [String] {
        trace.events.flatMap { event -> [String] in
            guard case .saveCommitted(let commit) = event.kind, commit.source == .batchDelete else { return [] }
            return commit.objects.map { "\($0.operation.rawValue) \($0.entity) \($0.id)" }
        }
    }

    /// A batch delete applies the rules in its one transaction, and the trace records what it did to each
    /// row (the notes a cascade deleted as deletes, those a nullify changed as updates), so the checkers
    /// judge the final store without a false data loss. (The app exits after its batch: its own view
    /// would keep the rows, as Core Data's does.)
    @Test(arguments: RunMode.allCases, ["cascade", "nullify"])
    func aBatchDeleteAppliesTheRuleInItsCommit(mode: RunMode, rule: String) throws {
        let notes = rule == "cascade" ? 0 : 2
        let outcome = try RunHarness.single(yaml(rule, """
              - app: { batch-delete: Folder }
              - app: exit
              - share: { fetch: Note }
              - share: { count: Note, expect: \(notes), now: true }
            """), mode: mode)
        #expect(outcome.harnessError == nil)
        let result = TraceChecker.check(outcome.trace)
        #expect(result.anomalies.isEmpty, "\(result.anomalies.map(\.explanation))")
        let effect = rule == "cascade" ? "delete" : "update"
        #expect(batchRows(outcome.trace) == ["delete Folder f1", "\(effect) Note n1", "\(effect) Note n2"])
    }

    @Test func anUnexpectedDenyIsAnUnexpectedValidationError() throws {
        let outcome = try RunHarness.single(yaml("deny", """
              - app: { delete: f1 }
              - app: save
            """))
        let result = TraceChecker.check(outcome.trace)
        #expect(result.unexpectedErrors.map(\.kind) == [.validation])
    }
}
