import Basics
import Checkers
import Foundation
import Runner
import Testing
import TestSupport
import Trace

/// What a `purge-history` step deleted: noted in the trace, and checked by `expect: { deleted: n }`.
@Suite(.serialized, .spawnsProcesses) struct PurgeObservationTests {
    static let yaml = """
        summary: The app merged two of the share's three saves; a purge by consumed-by-all deletes what it read.
        store: { group: group.t, name: Notes, model: { Note: { title: string } } }
        processes:
          app: { role: host, refresh: history, trigger: manual }
          share: { role: share }
        steps:
          - app: launch
          - share: launch
          - share: { insert: Note, id: n1, set: { title: A } }
          - share: save
          - share: { update: n1, set: { title: B } }
          - share: save
          - app: merge-history
          - share: { update: n1, set: { title: C } }
          - share: save
          - share: { purge-history: consumed-by-all, expect: { deleted: 1 } }
          - share: { purge-history: consumed-by-all, expect: { deleted: 0 }, only-in: [right] }
          - share: { purge-history: true, expect: { deleted: 3 }, only-in: [wrong] }
        variants:
          right: { expect: pass }
          wrong: { share: { purge: own-token }, expect: { unmet-expectation: 1 } }
        """

    @Test(arguments: RunMode.allCases)
    func aPurgeSaysWhatItDeletedAndIsChecked(mode: RunMode) throws {
        for variant in ["right", "wrong"] {
            let outcome = try RunHarness.single(Self.yaml, variant: variant, mode: mode)
            #expect(outcome.harnessError == nil, "\(String(describing: outcome.harnessError))")
            let result = TraceChecker.check(outcome.trace)
            #expect(result.verdict.matched, "\(variant): \(result.anomalies.map(\.explanation))")
            let notes = outcome.events(of: "share").compactMap { if case .note(let text) = $0.kind { text } else { nil } }
            #expect(notes.contains("share purged 1 history transaction (consumed-by-all)"), "\(notes)")
            if variant == "wrong" {
                // own-token: everything before the share's last save, its third: two transactions, though
                // the first purge took one of them already.
                #expect(result.anomalies.first?.explanation.contains("deleted 1 history transaction where 3 were expected") == true,
                        "\(result.anomalies.map(\.explanation))")
            }
        }
    }
}
