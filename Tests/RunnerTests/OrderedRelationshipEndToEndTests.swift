import Basics
import Checkers
import Foundation
import Runner
import Testing
import TestSupport

/// An ordered to-many end to end: the app orders a list's items, the share extension reads the order the
/// store holds, and a reorder it never refreshed for is a stale read of the relationship; in both modes.
@Suite(.serialized, .spawnsProcesses) struct OrderedRelationshipEndToEndTests {
    static let yaml = """
        summary: The app reorders a checklist the share extension has on screen.
        store:
          group: group.t
          name: Lists
          model:
            Checklist: { items: "[Item] ordered" }
            Item: { title: string, checklist: Checklist? }
        processes:
          app: { role: host }
          share: { role: share, refresh: none }
        steps:
          - app: launch
          - app: { insert: Checklist, id: list }
          - app: { insert: Item, id: milk, set: { title: Milk } }
          - app: { insert: Item, id: eggs, set: { title: Eggs } }
          - app: { insert: Item, id: tea, set: { title: Tea } }
          - app: { relate: list, to: milk, via: items }
          - app: { relate: list, to: eggs, via: items }
          - app: { relate: tea, to: list, via: checklist }
          - app: save
          - share: launch
          - share: { fetch: Checklist }
          - share: { read: list, expect: { items: [milk, eggs, tea] }, now: true }
          - app: { relate: list, to: tea, via: items, at: 0 }
          - app: save
          - app: { read: list, expect: { items: [tea, milk, eggs] }, now: true }
          - share: { read: list, expect: { items: [milk, eggs, tea] }, now: true }
        expect: [stale-read]
        """

    @Test(arguments: RunMode.allCases)
    func aReorderReachesTheStoreAndAViewThatNeverRefreshedKeepsTheOldOrder(mode: RunMode) throws {
        let outcome = try RunHarness.single(Self.yaml, mode: mode)
        #expect(outcome.harnessError == nil, "\(String(describing: outcome.harnessError))")
        #expect(outcome.checks.map(\.passed) == [true, true, true])
        let result = TraceChecker.check(outcome.trace)
        #expect(result.verdict.matched, "\(result.anomalies.map(\.explanation))")
        let stale = result.anomalies.filter { $0.kind == .staleRead }
        #expect(stale.count == 1 && stale.first?.property == "items", "\(stale.map(\.explanation))")
        #expect(stale.first?.expected == "[tea, milk, eggs]", "the store's order, judged as an order: \(stale.map(\.explanation))")
    }
}
