import Basics
import Checkers
import Foundation
import Runner
import Testing
import TestSupport
import Trace

/// A batch request records the author of the context it runs on, as Core Data does (Apple's "Loading and
/// Displaying a Large Data Feed" sets `taskContext.transactionAuthor` before its `NSBatchInsertRequest` and
/// filters history by it): a history merge that leaves out the process's own author still brings in an
/// importer context's batch. Found by a held-out scenario, where the merge brought nothing.
@Suite(.serialized, .spawnsProcesses) struct BatchAuthorTests {
    static let yaml = """
        summary: Batch requests on a background context with its own author.
        store:
          group: group.example.batch
          name: Notes
          model:
            Note:
              title: string
              rank: int
        processes:
          app:
            role: host
            refresh: history
            trigger: manual
            contexts:
              importer: { author: importer }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A, rank: 1 } }
          - app: { insert: Note, id: n2, set: { title: B, rank: 2 } }
          - app: save
          - app: { fetch: Note }
          - app: { batch-delete: Note, where: "rank == 1", context: importer }
          - app: { batch-update: Note, where: "rank == 2", set: { title: C }, context: importer }
          - app: { batch-insert: Note, count: 3, set: { title: X, rank: 9 }, context: importer }
          - app: run-refresh
          - app: { count: Note, expect: 4, now: true }
          - app: { read: n1, expect: absent, now: true }
          - app: { read: n2, expect: { title: C }, now: true }
        """

    @Test(arguments: RunMode.allCases)
    func aBatchOnAContextRecordsThatContextsAuthorAndAnAllButOwnMergeBringsItIn(mode: RunMode) throws {
        let outcome = try RunHarness.single(Self.yaml, mode: mode)
        #expect(outcome.harnessError == nil)
        let result = TraceChecker.check(outcome.trace)
        #expect(result.verdict.matched, "\(result.anomalies.map(\.explanation))")
        // The three batches are the importer's, not the app's own: the merge takes all three.
        let merged = outcome.events(of: "app").compactMap { event -> Int? in
            if case .historyFetched(let fetch) = event.kind { fetch.merged } else { nil }
        }
        #expect(merged.reduce(0, +) == 3, "\(merged)")
    }
}
