import Basics
import Checkers
import Foundation
@testable import Runner
import Testing
import TestSupport
import Trace

/// Runs that exercise the store-level actions end to end: the simulated clock, history purges by
/// age, copies, batch operations, `where:` fetches and one id inserted twice in one store.
@Suite(.serialized, .spawnsProcesses) struct EndToEndStoreTests {
    static let header = EndToEndTests.header

    func anomalies(_ outcome: RunOutcome) -> [Anomaly] { TraceChecker.check(outcome.trace).anomalies }

    @Test func aProcessLaunchedAfterTheClockMovedPurgesByAgeOnThatClock() throws {
        let yaml = """
        \(Self.header)
        processes:
          app: { role: host, refresh: history, trigger: manual }
          share: { role: share, purge: { older-than: 7d } }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - app: merge-history
          - clock: { advance: 8d }
          - share: launch
          - share: { update: n1, set: { title: B } }
          - share: save
          - share: purge-history
          - app: merge-history
          - app: { read: n1, expect: { title: B }, now: true }
        """
        let outcome = try RunHarness.single(yaml)
        #expect(outcome.harnessError == nil, "\(outcome.harnessError.map { "\($0)" } ?? "")")
        let purges = outcome.trace.events.compactMap { event -> PurgeRecord? in
            if case .purged(let purge) = event.kind { purge } else { nil }
        }
        #expect(purges.map(\.deleted) == [1], "the week-old insert is purged, the fresh update kept")
        #expect(anomalies(outcome).isEmpty)
    }

    /// Every form the validator accepts in `where:` runs in fetches, counts and batch operations: constants,
    /// the text operators, `YES`/`NO`, `&&`/`NOT`, and a date compared with an ISO 8601 string (a date set
    /// as a whole number of seconds once came back from JSON as an integer and was refused).
    @Test func everyPredicateFormRunsInFetchesCountsAndBatches() throws {
        let yaml = """
        summary: FetchPredicate forms.
        store:
          group: group.test
          name: Notes
          model:
            Note:
              title: string
              rank: int = 0
              pinned: bool = false
              due: date?
        processes:
          app: { role: host, refresh: none }
        steps:
          - app: launch
          - app: { insert: Note, id: a, set: { title: Groceries, rank: 1, pinned: true, due: "2024-05-01T12:00:00Z" } }
          - app: { insert: Note, id: b, set: { title: Taxes, rank: 5 } }
          - app: save
          - app: { fetch: Note, where: "TRUEPREDICATE" }
          - app: { count: Note, where: "TRUEPREDICATE", expect: 2, now: true }
          - app: { count: Note, where: "FALSEPREDICATE OR rank > 4", expect: 1, now: true }
          - app: { count: Note, where: "title CONTAINS 'roc'", expect: 1, now: true }
          - app: { count: Note, where: "title BEGINSWITH 'Tax' OR pinned == YES", expect: 2, now: true }
          - app: { count: Note, where: "due < '2025-01-01T00:00:00Z'", expect: 1, now: true }
          - app: { read: a, expect: { due: "2024-05-01T12:00:00Z" }, now: true }
          - app: { batch-update: Note, where: "NOT (rank <= 2) && title ENDSWITH 'es'", set: { rank: 9 } }
          - app: { batch-delete: Note, where: "FALSEPREDICATE" }
          - app: reset
          - app: { fetch: Note, where: "title ENDSWITH 'es' AND TRUEPREDICATE" }
          - app: { count: Note, where: "rank == 9", expect: 1, now: true }
        """
        let outcome = try RunHarness.single(yaml)
        #expect(outcome.harnessError == nil, "\(outcome.harnessError.map { "\($0)" } ?? "")")
        #expect(anomalies(outcome).isEmpty, "\(anomalies(outcome))")
    }

    @Test func oneIdInsertedTwiceInOneStoreIsADuplicate() throws {
        let yaml = """
        \(Self.header)
        processes:
          app: { role: host }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - share: launch
          - share: { insert: Note, id: n1, set: { title: A } }
          - share: save
          - share: { update: n1, set: { title: B } }
          - share: save
        """
        let outcome = try RunHarness.single(yaml)
        #expect(outcome.harnessError == nil)
        let found = anomalies(outcome)
        #expect(found.contains { $0.kind == .duplicate && $0.object == "n1" })
        #expect(!found.contains { $0.kind == .dataLoss }, "\(found.map(\.explanation))")
    }

    @Test func aFilteredListIsNotExpectedToHoldWhatItsFetchExcludes() throws {
        let yaml = """
        \(Self.header)
        processes:
          app: { role: host, refresh: history }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Note, id: low, set: { title: L, rank: 1 } }
          - app: { insert: Note, id: high, set: { title: H, rank: 5 } }
          - app: save
          - app: { fetch: Note, where: "rank > 2" }
          - share: launch
          - share: { insert: Note, id: other, set: { title: O, rank: 0 } }
          - share: save
          - share: exit
          - app: { read: high, expect: { title: H }, now: true }
        """
        let outcome = try RunHarness.single(yaml)
        let found = anomalies(outcome)
        #expect(!found.contains { $0.kind == .notConverged }, "\(found.map(\.explanation))")
    }

    @Test func anUpdateReachesAnObjectByIdAndPutsItInTheView() throws {
        let yaml = """
        \(Self.header)
        processes:
          app: { role: host }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A, rank: 1 } }
          - app: save
          - app: exit
          - share: launch
          - share: { fetch: Note, where: "rank > 2" }
          - share: { update: n1, set: { title: B } }
          - share: save
          - share: { read: n1, expect: { title: B }, now: true }
        """
        let outcome = try RunHarness.single(yaml)
        #expect(outcome.checks.allSatisfy { $0.passed })
        #expect(anomalies(outcome).isEmpty)
    }

    @Test func aCopyWithoutItsWALIsMissingTheLatestSaveAndReadsFromItAreNotJudgedAsStale() throws {
        let yaml = """
        \(Self.header)
        processes:
          app: { role: host }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - app: checkpoint
          - app: { insert: Note, id: n2, set: { title: B } }
          - app: save
          - app: { copy-store: backup, with-wal: false }
          - app: { open-copy: backup }
          - app: { fetch: Note }
          - app: { count: Note, expect: 1, now: true }
        """
        let outcome = try RunHarness.single(yaml)
        #expect(outcome.harnessError == nil)
        let found = anomalies(outcome)
        #expect(found.map(\.kind) == [.dataLoss], "\(found.map(\.explanation))")
        #expect(found.first?.object == "n2")
    }

    @Test func aBatchDeleteLeavesTheRowsInTheListUntilHistoryIsMerged() throws {
        let yaml = """
        \(Self.header)
        processes:
          app: { role: host, refresh: history, trigger: manual }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - app: { fetch: Note }
          - share: launch
          - share: { batch-delete: Note }
          - app: { count: Note, expect: 0, now: true }
          - app: merge-history
          - app: { count: Note, expect: 0, now: true }
        """
        let outcome = try RunHarness.single(yaml)
        #expect(outcome.harnessError == nil)
        #expect(outcome.checks.map(\.passed) == [false, true])
        #expect(anomalies(outcome).contains { $0.kind == .missedDelete })
    }
}

extension EndToEndStoreTests {
    @Test func anUnsavedDeleteIsTheProcesssOwnEditNotAMissedInsert() throws {
        let yaml = """
        \(Self.header)
        processes:
          app: { role: host }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: { insert: Note, id: n2, set: { title: B } }
          - app: save
          - app: { fetch: Note }
          - app: { delete: n1 }
          - app: { count: Note, expect: 1, now: true }
          - app: { read: n1, expect: absent, now: true }
          - app: rollback
        """
        let outcome = try RunHarness.single(yaml)
        #expect(outcome.checks.allSatisfy { $0.passed })
        #expect(anomalies(outcome).isEmpty, "\(anomalies(outcome).map(\.explanation))")
    }
}
