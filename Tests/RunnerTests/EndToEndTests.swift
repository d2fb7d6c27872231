import Basics
import Checkers
import Foundation
@testable import Runner
import Testing
import TestSupport
import Trace

/// Scenarios run by the real runner, one real agent process per scenario process.
@Suite(.serialized, .spawnsProcesses) struct EndToEndTests {
    static let header = """
    summary: A test scenario.
    store:
      group: group.test
      name: Notes
      model:
        Note:
          title: string
          rank: int = 0
    """

    /// App shows n1 (title A); share sets B and saves; app then reads n1.
    static func staleTitle(app: String, finalRead: String = "{ read: n1, expect: { title: B }, within: 1s }") -> String {
        """
        \(header)
        processes:
          app: { role: host, \(app) }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - app: { fetch: Note }
          - app: { read: n1, expect: { title: A }, now: true }
          - share: launch
          - share: { update: n1, set: { title: B } }
          - share: save
          - share: exit
          - app: \(finalRead)
        """
    }

    @Test func refreshAtInfiniteStalenessKeepsTheOldTitle() throws {
        let outcome = try RunHarness.single(Self.staleTitle(app: "refresh: staleness, staleness: -1"))
        #expect(outcome.harnessError == nil)
        #expect(outcome.reads(of: "n1", by: "app").last?.values["title"] == .string("A"))
        #expect(outcome.checks.last?.passed == false)
        #expect(outcome.leftNoProcess)
    }

    @Test func refreshAtZeroStalenessShowsTheNewTitle() throws {
        let outcome = try RunHarness.single(Self.staleTitle(app: "refresh: staleness, staleness: 0"))
        #expect(outcome.harnessError == nil)
        #expect(outcome.reads(of: "n1", by: "app").last?.values["title"] == .string("B"))
        #expect(outcome.reads(of: "n1", by: "app").last?.source == .sql)
        #expect(outcome.checks.allSatisfy { $0.passed })
        #expect(outcome.leftNoProcess)
    }

    @Test func refetchKeepsRegisteredObjectsUnlessReset() throws {
        let keep = try RunHarness.single(Self.staleTitle(app: "refresh: refetch, refetch: keep-registered"))
        #expect(keep.reads(of: "n1", by: "app").last?.values["title"] == .string("A"))
        let refreshed = try RunHarness.single(Self.staleTitle(app: "refresh: refetch, refetch: refresh-refetched"))
        #expect(refreshed.reads(of: "n1", by: "app").last?.values["title"] == .string("B"))
        let reset = try RunHarness.single(Self.staleTitle(app: "refresh: refetch, refetch: reset"))
        #expect(reset.reads(of: "n1", by: "app").last?.values["title"] == .string("B"))
    }

    @Test func manualTriggerRefreshesOnlyAtRunRefresh() throws {
        let before = try RunHarness.single(Self.staleTitle(
            app: "refresh: staleness, staleness: 0, trigger: manual",
            finalRead: "{ read: n1, expect: { title: B }, now: true }"))
        #expect(before.reads(of: "n1", by: "app").last?.values["title"] == .string("A"))
        let yaml = Self.staleTitle(app: "refresh: staleness, staleness: 0, trigger: manual", finalRead: "run-refresh")
            + "\n  - app: { read: n1, expect: { title: B }, now: true }"
        let after = try RunHarness.single(yaml)
        #expect(after.reads(of: "n1", by: "app").last?.values["title"] == .string("B"))
    }

    @Test func pollTriggerRefreshesWithoutNotifications() throws {
        let outcome = try RunHarness.single(Self.staleTitle(
            app: "refresh: staleness, staleness: 0, trigger: poll, poll-interval: 20ms, observe: lazy",
            finalRead: "{ read: n1, expect: { title: B }, within: 2s }"))
        #expect(outcome.reads(of: "n1", by: "app").last?.values["title"] == .string("B"))
        let reasons = outcome.events(of: "app").compactMap { event -> RefreshReason? in
            if case .refreshStarted(let refresh) = event.kind { refresh.reason } else { nil }
        }
        #expect(reasons.contains(.poll))
        #expect(!reasons.contains(.darwin))
    }

    @Test func activationTriggerRefreshesWhenTheAppComesBack() throws {
        let yaml = Self.staleTitle(app: "refresh: staleness, staleness: 0, trigger: activation", finalRead: "background")
            + "\n  - app: { read: n1, expect: { title: B }, now: true }"
            + "\n  - app: foreground"
            + "\n  - app: { read: n1, expect: { title: B }, now: true }"
        let outcome = try RunHarness.single(yaml)
        let titles = outcome.reads(of: "n1", by: "app").map { $0.values["title"] }
        #expect(titles == [.string("A"), .string("A"), .string("B")])
    }

    /// App suspended with `delivery`; share saves; app resumes and reads once.
    static func suspended(delivery: String) -> String {
        """
        \(header)
        processes:
          app: { role: host, refresh: staleness, staleness: 0, delivery: \(delivery) }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - app: { fetch: Note }
          - app: { read: n1, expect: { title: A }, now: true }
          - app: background
          - app: suspend
          - share: launch
          - share: { update: n1, set: { title: B } }
          - share: save
          - share: { update: n1, set: { title: C } }
          - share: save
          - share: exit
          - app: resume
          - app: { read: n1, expect: { title: C }, within: 1s }
        """
    }

    @Test func notificationsPostedWhileSuspendedAreDroppedWithDrop() throws {
        let outcome = try RunHarness.single(Self.suspended(delivery: "drop"))
        #expect(outcome.harnessError == nil)
        #expect(outcome.reads(of: "n1", by: "app").last?.values["title"] == .string("A"))
        let suspended = outcome.events(of: "app").contains { event in
            if case .lifecycle(let change) = event.kind { change.state == .suspended && change.holdsLock == false } else { false }
        }
        #expect(suspended)
        #expect(outcome.leftNoProcess)
    }

    @Test func notificationsPostedWhileSuspendedAreCoalescedIntoOne() throws {
        let outcome = try RunHarness.single(Self.suspended(delivery: "coalesce"))
        #expect(outcome.reads(of: "n1", by: "app").last?.values["title"] == .string("C"))
        // Notifications carry no sender: count what app received after it was suspended (share's two
        // saves, coalesced into one delivery on resume).
        let events = outcome.events(of: "app")
        let suspendedAt = try #require(events.first { event in
            if case .lifecycle(let change) = event.kind { change.state == .suspended } else { false }
        }?.t)
        let received = events.filter { event in
            if case .notificationReceived = event.kind { event.t > suspendedAt } else { false }
        }
        #expect(received.count == 1)
    }
}
