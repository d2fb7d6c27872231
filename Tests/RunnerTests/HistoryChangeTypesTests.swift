import Basics
import Checkers
import Foundation
import Runner
import ScenarioModel
import Testing
import TestSupport
import Trace

/// `history-change-types`: a history merge that keeps only some kinds of change (a history fetch request
/// with a predicate on `changeType`, as an app that looks for new items does) misses the others: an edit
/// the share extension made stays stale in the app, though the token moved past it.
@Suite(.serialized, .spawnsProcesses) struct HistoryChangeTypesTests {
    static let yaml = """
        summary: The app merges only inserts from history; the share extension adds a note and renames another.
        store:
          group: group.example.notes
          name: Notes
          model:
            Note: { title: string }
        processes:
          app: { role: host, refresh: history, history-change-types: [insert] }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - app: { fetch: Note }
          - share: launch
          - share: { insert: Note, id: n2, set: { title: New } }
          - share: { update: n1, set: { title: B } }
          - share: save
          - app: { count: Note, expect: 2, within: 2s }
          - app: { read: n1, now: true }
        variants:
          inserts-only: { expect: [stale-read] }
          every-change:
            app: { history-change-types: [insert, update, delete] }
            expect: pass
        """

    @Test func theSettingDecodesWritesBackAndRefusesWhatIsNoKind() throws {
        let scenario = try ScenarioLoader.parse(yaml: Self.yaml, file: "h.yaml")
        #expect(scenario.processes[0].settings.historyChangeTypes == [.insert])
        #expect(try ScenarioWriter.file(name: "w", summary: "W.", comment: [], storeSource: Self.yaml,
                                        processes: [RunProcess(name: "app", settings: scenario.processes[0].settings, seed: 1)],
                                        steps: [], expectation: .pass, seed: 1).contains("history-change-types: [insert]"))
        for (given, message) in [
            ("[insert, updat]", "h.yaml:8:71: error: unknown change type 'updat'; did you mean 'update'?"),
            ("[insert, insert]", "h.yaml:8:71: error: history-change-types names insert twice."),
            ("[]", "h.yaml:8:62: error: history-change-types: [] would merge no change at all"),
        ] {
            let wrong = Self.yaml.replacingOccurrences(of: "history-change-types: [insert] }", with: "history-change-types: \(given) }")
            do {
                _ = try ScenarioLoader.parse(yaml: wrong, file: "h.yaml")
                Issue.record("\(given) must be refused")
            } catch {
                #expect("\(error)".contains(message), "\(error)")
            }
        }
    }

    @Test(arguments: RunMode.allCases)
    func aMergeOfInsertsOnlyMissesTheRename(mode: RunMode) throws {
        for variant in ["inserts-only", "every-change"] {
            let outcome = try RunHarness.single(Self.yaml, variant: variant, mode: mode)
            #expect(outcome.harnessError == nil)
            let result = TraceChecker.check(outcome.trace)
            #expect(result.verdict.matched, "\(variant): \(result.anomalies.map(\.explanation))")
            if variant == "inserts-only" {
                #expect(result.anomalies.allSatisfy { $0.object == "n1" }, "the new note arrives, the rename does not: \(result.anomalies.map(\.explanation))")
            }
        }
    }
}
