import Basics
import Checkers
import Testing
import TestSupport
import Trace

/// `where:` as the scenario writes it, validated once and run by the agents as a tree: exponents,
/// quotes inside text and IN lists in fetch, count and batch steps, through real processes.
@Suite(.serialized, .spawnsProcesses) struct PredicateEndToEndTests {
    @Test func predicatesRunTheSameInFetchCountAndBatchSteps() throws {
        let yaml = """
        summary: Predicates end to end.
        store:
          group: group.test
          name: Notes
          model:
            Note:
              title: string
              rank: int = 0
              score: double = 0
        processes:
          app: { role: host, refresh: history, trigger: manual }
          share: { role: share }
        steps:
          - app: launch
          - share: launch
          - share: { insert: Note, id: n1, set: { title: 'a"b', rank: 1, score: 0.000001 } }
          - share: { insert: Note, id: n2, set: { title: plain, rank: 2, score: 0.5 } }
          - share: { insert: Note, id: n3, set: { title: other, rank: 3, score: 2 } }
          - share: save
          - app: { fetch: Note, where: "score < 0.00001" }
          - app: { fetch: Note }
          - app: { count: Note, where: "score < 0.00001", expect: 1, now: true }
          - app: { count: Note, where: "title == 'a\\"b'", expect: 1, now: true }
          - app: { count: Note, where: "rank IN {2, 3}", expect: 2, now: true }
          - share: { batch-update: Note, where: "rank IN {1, 2}", set: { score: 9 } }
          - app: merge-history
          - app: { count: Note, where: "score == 9", expect: 2, now: true }
          - share: { batch-delete: Note, where: "title == 'a\\"b' OR score < 1e-5" }
          # Batch operations bypass the share's own context too; it leaves before its view is judged.
          - share: exit
          - app: merge-history
          - app: { count: Note, expect: 2, now: true }
        """
        let outcome = try RunHarness.single(yaml)
        #expect(outcome.harnessError == nil, "\(outcome.harnessError.map { "\($0)" } ?? "")")
        #expect(outcome.checks.map(\.passed) == [true, true, true, true, true])
        let anomalies = TraceChecker.check(outcome.trace).anomalies
        #expect(anomalies.isEmpty, "\(anomalies.map(\.explanation))")
        #expect(outcome.leftNoProcess)
    }
}
