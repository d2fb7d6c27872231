import Basics
import Checkers
import Foundation
@testable import Runner
import Testing
import TestSupport
import Trace

/// The actions not covered elsewhere, each run once by a real agent: relationships, rollback and
/// reset, refresh without merging, batch insert and update, query generations, posts, leech and
/// terminate.
@Suite(.serialized, .spawnsProcesses) struct EndToEndActionTests {
    static let header = """
    summary: Every remaining action.
    store:
      group: group.test
      name: Notes
      model:
        Note:
          title: string
          rank: int = 0
          tags: [Tag]
        Tag:
          name: string
    """

    @Test func relationshipsRollbackResetAndRefreshWithoutMerging() throws {
        let yaml = """
        \(Self.header)
        processes:
          app: { role: host }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: { insert: Tag, id: t1, set: { name: home } }
          - app: { relate: n1, to: t1, via: tags }
          - app: save
          - app: { unrelate: n1, from: t1, via: tags }
          - app: save
          - app: { update: n1, set: { title: unsaved } }
          - app: rollback
          - app: { read: n1, expect: { title: A }, now: true }
          - app: { update: n1, set: { title: discarded } }
          - app: { refresh: n1, merge: false }
          - app: { read: n1, expect: { title: A }, now: true }
          - app: reset
          - app: { count: Note, expect: 0, now: true }
          - app: { fetch: Note }
          - app: { count: Note, expect: 1, now: true }
        """
        let outcome = try RunHarness.single(yaml)
        #expect(outcome.harnessError == nil, "\(outcome.harnessError.map { "\($0)" } ?? "")")
        #expect(outcome.checks.map(\.passed) == [true, true, true, true])
        let refreshes = outcome.trace.events.compactMap { event -> RefreshKind? in
            if case .refreshStarted(let refresh) = event.kind, refresh.reason == .step { refresh.strategy } else { nil }
        }
        #expect(refreshes == [.refreshObject], "the refresh step is in the trace, like every refresh")
        // After reset the view is empty and app has never fetched Note: its list holds nothing, so the
        // empty count is no missed insert (the list is what its fetches return, not the whole store).
        let anomalies = TraceChecker.check(outcome.trace).anomalies
        #expect(anomalies.isEmpty, "\(anomalies.map(\.explanation))")
    }

    @Test func batchInsertAndUpdateBypassEveryContext() throws {
        let yaml = """
        \(Self.header)
        processes:
          app: { role: host, refresh: history, trigger: manual }
          share: { role: share }
        steps:
          - app: launch
          - app: { fetch: Note }
          - share: launch
          - share: { batch-insert: Note, count: 3, set: { title: bulk } }
          - share: { batch-update: Note, where: "rank == 0", set: { rank: 7 } }
          - app: { count: Note, expect: 0, now: true }
          - app: merge-history
          - app: { count: Note, expect: 3, now: true }
          - app: { count: Note, where: "rank == 7", expect: 3, now: true }
        """
        let outcome = try RunHarness.single(yaml)
        #expect(outcome.harnessError == nil, "\(outcome.harnessError.map { "\($0)" } ?? "")")
        #expect(outcome.checks.map(\.passed) == [true, true, true])
        let sources = outcome.trace.events.compactMap { event -> CommitSource? in
            if case .saveCommitted(let commit) = event.kind { commit.source } else { nil }
        }
        #expect(sources == [.batchInsert, .batchUpdate])
    }

    @Test func aPinnedGenerationKeepsTheOldValueUntilUnpinned() throws {
        let yaml = """
        \(Self.header)
        processes:
          app: { role: host, refresh: staleness, staleness: 0, trigger: manual }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - app: { pin-generation: current }
          - app: { fetch: Note }
          - share: launch
          - share: { update: n1, set: { title: B } }
          - share: save
          - app: refresh
          - app: { read: n1, expect: { title: A }, now: true }
          - app: unpin-generation
          - app: refresh
          - app: { read: n1, expect: { title: B }, now: true }
        """
        let outcome = try RunHarness.single(yaml)
        #expect(outcome.harnessError == nil, "\(outcome.harnessError.map { "\($0)" } ?? "")")
        #expect(outcome.checks.map(\.passed) == [true, true])
    }

    @Test func postLeechAndTerminate() throws {
        let yaml = """
        \(Self.header)
        processes:
          app: { role: host }
          watch: { role: watch, sync: transfer }
        steps:
          - app: launch
          - watch: launch
          - app: { post: custom.name }
          - watch: leech
          - watch: { leech: true, expect-error: conflict }
          - app: background
          - app: suspend
          - app: terminate
          - app: launch
          - app: exit
        """
        let outcome = try RunHarness.single(yaml)
        #expect(outcome.harnessError == nil, "\(outcome.harnessError.map { "\($0)" } ?? "")")
        let posted = outcome.events(of: "app").contains { event in
            if case .notificationPosted(let record) = event.kind { record.name == "custom.name" } else { false }
        }
        #expect(posted)
        let states = outcome.events(of: "app").compactMap { event -> LifecycleState? in
            if case .lifecycle(let change) = event.kind { change.state } else { nil }
        }
        #expect(states == [.launching, .active, .background, .suspended, .terminated, .launching, .active, .exited])
        let leechAgain = outcome.trace.events.compactMap { event -> ErrorRecord? in
            if case .stepEnded(let error?) = event.kind { error } else { nil }
        }
        #expect(leechAgain.map(\.kind) == [.alreadyLeeched], "leeching twice is an error")
        #expect(outcome.leftNoProcess)
    }
}
