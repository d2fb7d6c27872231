import Basics
import Checkers
import Foundation
import Runner
import Testing
import TestSupport
import Trace

/// `trigger: remote-change`: the store posts after every commit, whatever `notify` says, and only when
/// some process asks for it.
@Suite(.serialized, .spawnsProcesses) struct RemoteChangeTests {
    static let yaml = """
        summary: The share extension saves without posting anything itself; the app merges history on the remote change.
        store: { group: group.t, name: Notes, model: { Note: { title: string } } }
        processes:
          app: { role: host, refresh: history, trigger: remote-change }
          share: { role: share, notify: false }
        steps:
          - app: launch
          - app: { fetch: Note }
          - share: launch
          - share: { insert: Note, id: n1, set: { title: From the share sheet } }
          - share: save
          - share: { batch-insert: Note, count: 2, set: { title: Imported } }
          - app: { read: n1, expect: { title: From the share sheet }, within: 1s }
          - app: { count: Note, expect: 3, within: 1s }
        variants:
          remote-change: { expect: pass }
          darwin:        { app: { trigger: darwin }, expect: [missed-insert] }
        """

    private func posts(_ outcome: RunOutcome) -> [String] {
        outcome.trace.events.compactMap { event in
            if case .notificationPosted(let note) = event.kind { "\(event.process):\(note.name)" } else { nil }
        }
    }

    @Test(arguments: RunMode.allCases)
    func everyCommitPostsTheRemoteChangeAndTheAppRefreshesOnIt(mode: RunMode) throws {
        let outcome = try RunHarness.single(Self.yaml, variant: "remote-change", mode: mode)
        let result = TraceChecker.check(outcome.trace)
        #expect(result.verdict.matched, "\(result.anomalies.map(\.explanation))")
        #expect(posts(outcome) == ["share:store-remote-change", "share:store-remote-change"], "the save and the batch insert")
        let reasons = outcome.trace.events.compactMap { event -> RefreshReason? in
            if case .refreshStarted(let refresh) = event.kind, event.process == "app" { refresh.reason } else { nil }
        }
        #expect(reasons.contains(.remoteChange))
    }

    @Test func withoutAProcessThatAsksTheStorePostsNothing() throws {
        let outcome = try RunHarness.single(Self.yaml, variant: "darwin", mode: .deterministic)
        #expect(posts(outcome).isEmpty, "notify: false and no remote-change trigger: nothing is posted")
        #expect(TraceChecker.check(outcome.trace).verdict.matched)
    }
}
