import Basics
import Checkers
import Foundation
import Runner
import ScenarioModel
import Testing
import TestSupport
import Trace

/// Reads of relationships end to end: what the view's relationship holds is recorded with what the
/// store held throughout the read, a view behind the store is a stale read, and an expectation the
/// store itself does not meet is an unmet expectation, not a stale read.
@Suite(.serialized, .spawnsProcesses) struct RelationshipReadTests {
    private func yaml(_ steps: String) -> String {
        """
        summary: Relationships.
        store:
          group: group.example.notes
          name: Notes
          model:
            Note:
              title: string
              tags: [Tag]
            Tag:
              name: string
              note: Note?
        processes:
          app: { role: host, refresh: staleness }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: { insert: Tag, id: t1, set: { name: x } }
          - app: { relate: n1, to: t1, via: tags }
          - app: save
        \(steps)
        """
    }

    @Test(arguments: RunMode.allCases)
    func aToManyBehindTheStoreIsAStaleReadAndAToOneIsReadToo(mode: RunMode) throws {
        let outcome = try RunHarness.single(yaml("""
              - app: { fetch: Note }
              - app: { read: n1, expect: { tags: [t1] }, now: true }
              - share: launch
              - share: { insert: Tag, id: t2, set: { name: y } }
              - share: { relate: t2, to: n1, via: note }
              - share: save
              - app: { read: n1, expect: { tags: [t1, t2] }, within: 300ms }
              - app: { fetch: Tag }
              - app: { read: t2, expect: { note: n1 }, now: true }
            """), mode: mode)
        #expect(outcome.harnessError == nil)
        let reads = outcome.reads(of: "n1", by: "app")
        #expect(reads.first?.related == ["tags": ["t1"]] && reads.first?.relatedInStore == ["tags": ["t1"]])
        #expect(reads.last?.related == ["tags": ["t1"]] && reads.last?.relatedInStore == ["tags": ["t1", "t2"]])
        #expect(outcome.reads(of: "t2", by: "app").last?.related == ["note": ["n1"]])
        let result = TraceChecker.check(outcome.trace)
        let stale = result.anomalies.filter { $0.kind == .staleRead }
        #expect(stale.count == 1 && stale.first?.property == "tags" && stale.first?.seen == "[t1]" && stale.first?.expected == "[t1, t2]")
        #expect(!result.anomalies.contains { $0.kind == .unmetExpectation }, "the stale read explains the failed check")
    }

    @Test func anExpectationTheStoreDoesNotMeetIsUnmetNotStale() throws {
        let outcome = try RunHarness.single(yaml("  - app: { read: n1, expect: { tags: [] }, now: true }"))
        let result = TraceChecker.check(outcome.trace)
        #expect(result.anomalies.map(\.kind) == [.unmetExpectation])
        #expect(result.anomalies.first?.explanation.contains("expecting {tags: []} but saw {title: \"A\", tags: [t1]}") == true,
                "\(result.anomalies.first?.explanation ?? "")")
    }

    @Test func aReaderWithEditsOfItsOwnIsNotJudged() throws {
        let outcome = try RunHarness.single(yaml("""
              - app: { insert: Tag, id: t3, set: { name: z } }
              - app: { relate: n1, to: t3, via: tags }
              - app: { read: n1, expect: { tags: [t1, t3] }, now: true }
            """))
        #expect(outcome.reads(of: "n1", by: "app").last?.relatedInStore == nil)
        #expect(TraceChecker.check(outcome.trace).anomalies.isEmpty)
    }
}
