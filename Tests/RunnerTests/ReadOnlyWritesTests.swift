import Basics
import Checkers
import Runner
import Testing
import TestSupport

/// Writes a process may not make fail with `read-only`, in both modes: after `open-copy` (the copy is
/// opened read-only) and, for `begin-write`, on a tracked store opened without history tracking.
@Suite(.serialized, .spawnsProcesses) struct ReadOnlyWritesTests {
    static let yaml = """
        summary: Writes that must fail read-only.
        store: { group: group.t, name: Notes, model: { Note: { title: string } } }
        processes:
          app: { role: host }
          reader: { role: action }
          untracked: { role: share, history-tracking: false }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - app: { copy-store: backup }
          - reader: launch
          - reader: { open-copy: backup }
          - reader: { fetch: Note }
          - reader: { update: n1, set: { title: B } }
          - reader: { save: true, expect-error: read-only }
          - reader: exit
          - untracked: launch
          - untracked: { begin-write: true, expect-error: read-only }
          - untracked: exit
          - app: { update: n1, set: { title: C } }
          - app: save
        """

    @Test(arguments: RunMode.allCases)
    func theyFailReadOnlyAndTheLiveStoreKeepsItsValue(mode: RunMode) throws {
        let outcome = try RunHarness.single(Self.yaml, mode: mode)
        #expect(outcome.harnessError == nil)
        let result = TraceChecker.check(outcome.trace)
        #expect(result.verdict.matched && result.anomalies.isEmpty, "\(result.anomalies.map(\.explanation))")
        let committed = outcome.trace.events.compactMap { event -> String? in
            guard case .saveCommitted(let commit) = event.kind else { return nil }
            return "\(event.process) \(commit.store)"
        }
        #expect(committed == ["app group:group.t", "app group:group.t"], "nothing reached the live store from the copy: \(committed)")
    }
}
