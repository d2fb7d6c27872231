import Basics
import Checkers
import Foundation
import Runner
import Testing
import TestSupport

/// `history-start`: where a history consumer without a token starts: every transaction kept (`all`, as
/// `fetchHistory(after: nil)`), or the newest one when it first opens the store (`now`).
@Suite(.serialized, .spawnsProcesses) struct HistoryStartTests {
    static let yaml = """
        summary: The share extension saves before the app's first launch; the app then merges history.
        store: { group: group.t, name: Notes, model: { Note: { title: string } } }
        processes:
          app: { role: host, refresh: history, trigger: manual }
          share: { role: share }
        steps:
          - share: launch
          - share: { insert: Note, id: n1, set: { title: Before the app } }
          - share: save
          - share: exit
          - app: launch
          - app: run-refresh
          - app: { read: n1, expect: { title: Before the app }, now: true }
        variants:
          from-all: { expect: pass }
          from-now: { app: { history-start: now }, expect: [missed-insert] }
        """

    @Test(arguments: RunMode.allCases)
    func aConsumerThatStartsNowNeverMergesWhatCameBeforeIt(mode: RunMode) throws {
        for variant in ["from-all", "from-now"] {
            let result = TraceChecker.check(try RunHarness.single(Self.yaml, variant: variant, mode: mode).trace)
            #expect(result.verdict.matched, "\(variant): \(result.anomalies.map(\.explanation))")
        }
    }

    @Test func aConsumerWithATokenKeepsItWhateverItsStart() throws {
        // Relaunched, the app resumes from the token it kept, not from "now" again.
        let yaml = Self.yaml.replacingOccurrences(of: "  - app: launch\n  - app: run-refresh\n", with: """
              - app: launch
              - app: exit
              - share: launch
              - share: { insert: Note, id: n2, set: { title: While the app was closed } }
              - share: save
              - share: exit
              - app: launch
              - app: run-refresh
              - app: { read: n2, expect: { title: While the app was closed }, now: true }

            """)
        #expect(yaml != Self.yaml)
        let result = TraceChecker.check(try RunHarness.single(yaml, variant: "from-now", mode: .deterministic).trace)
        #expect(!result.anomalies.contains { $0.object == "n2" }, "\(result.anomalies.map(\.explanation))")
        #expect(result.anomalies.contains { $0.object == "n1" && $0.kind == .missedInsert })
    }
}
