import Basics
import Checkers
import Foundation
import Runner
import ScenarioModel
import Testing
import TestSupport
import Trace

/// A screen on `NSFetchedResultsController`: its controller follows what its context processes (its own
/// edits, merges, refreshes), sorted and in sections, and tells its delegate once per step that changed
/// it; what the context never processed (a save not merged, a batch request) never reaches it.
@Suite(.serialized, .spawnsProcesses) struct FetchedResultsControllerTests {
    static let yaml = """
        summary: The app's list is a fetched-results controller; the share extension adds a note and moves another.
        store:
          group: group.example.notes
          name: Notes
          model:
            Note: { title: string, folder: string }
        processes:
          app: { role: host, refresh: history }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: B, folder: Work } }
          - app: { insert: Note, id: n2, set: { title: D, folder: Home } }
          - app: save
          - app: { fetch: Note, sort: "folder, title", controller: inbox, sections: folder }
          - app: { results: inbox, expect: { Home: [n2], Work: [n1] }, changes: 0, now: true }
          - app: { update: n1, set: { title: E } }
          - app: { results: inbox, expect: [n2, n1], changes: 1, now: true }
          - app: save
          - share: launch
          - share: { insert: Note, id: n3, set: { title: A, folder: Work } }
          - share: { update: n2, set: { folder: Work } }
          - share: save
          - app: { results: inbox, expect: { Work: [n3, n2, n1] }, changes: 2, within: 2s }
          - share: { batch-update: Note, set: { folder: Archive } }
          - app: { results: inbox, expect: { Work: [n3, n2, n1] }, changes: 2, now: true }
        variants:
          history: { expect: [not-converged] }   # the batch update reached the store only
          no-refresh:
            app: { refresh: none }
            expect: [missed-insert, not-converged]
        """

    @Test(arguments: RunMode.allCases)
    func theControllerFollowsWhatItsContextProcessesAndNothingElse(mode: RunMode) throws {
        for variant in ["history", "no-refresh"] {
            let outcome = try RunHarness.single(Self.yaml, variant: variant, mode: mode)
            #expect(outcome.harnessError == nil)
            let result = TraceChecker.check(outcome.trace)
            #expect(result.verdict.matched, "\(variant): \(result.anomalies.map(\.explanation))")
            let checks = outcome.events(of: "app").compactMap { event -> CheckRecord? in
                if case .check(let check) = event.kind, check.kind == .results { check } else { nil }
            }
            #expect(checks.count == 4, "\(checks)")
            if variant == "history" {
                #expect(checks.allSatisfy { $0.passed }, "\(checks.map { $0.actual })")
                // The batch update reached the store, not the context: the controller still shows Work.
                #expect(checks.last?.actual["sections"] == .string("Work: n3, n2, n1"))
            } else {
                // Never merged: the share extension's insert and move never reached the list.
                #expect(checks[2].actual["sections"] == .string("Home: n2 | Work: n1"), "\(checks[2].actual)")
                #expect(checks[2].actual["changes"] == .int(1))
                #expect(result.anomalies.contains { $0.kind == .missedInsert && $0.object == "n3" }, "\(result.anomalies.map(\.explanation))")
            }
        }
    }

    /// A check that fails with nothing else to explain it names what the controller held.
    @Test func aWrongExpectationIsUnmetAndSaysWhatTheControllerHeld() throws {
        let yaml = Self.yaml.replacingOccurrences(of: "expect: [n2, n1], changes: 1, now: true", with: "expect: [n1, n2], now: true")
        let outcome = try RunHarness.single(yaml, variant: "history", mode: .deterministic)
        let result = TraceChecker.check(outcome.trace)
        let unmet = try #require(result.anomalies.first { $0.kind == .unmetExpectation })
        #expect(unmet.explanation.hasPrefix("app's fetched-results controller inbox held {changes: 1, objects: \"n2, n1\"} at "),
                "\(unmet.explanation)")
    }

    /// Unsaved work and the controller: an insert rolled back leaves the list (it stayed, under a name
    /// already forgotten), and an object the process deleted without saving is gone from it without being
    /// a missed insert (the store still holds it, as a count's list judges).
    @Test(arguments: RunMode.allCases)
    func unsavedInsertsAndDeletesComeAndGoWithoutAnomalies(mode: RunMode) throws {
        let outcome = try RunHarness.single("""
            summary: Unsaved work in a controller's list.
            store:
              group: group.example.notes
              name: Notes
              model:
                Note: { title: string }
            processes:
              app: { role: host }
            steps:
              - app: launch
              - app: { insert: Note, id: n1, set: { title: A } }
              - app: save
              - app: { fetch: Note, sort: title, controller: all }
              - app: { insert: Note, id: n2, set: { title: B } }
              - app: { results: all, expect: [n1, n2], changes: 1, now: true }
              - app: rollback
              - app: { results: all, expect: [n1], changes: 2, now: true }
              - app: { delete: n1 }
              - app: { results: all, expect: [], changes: 3, now: true }
              - app: rollback
              - app: { results: all, expect: [n1], changes: 4, now: true }
            """, mode: mode)
        #expect(outcome.harnessError == nil)
        let result = TraceChecker.check(outcome.trace)
        #expect(result.anomalies.isEmpty, "\(result.anomalies.map(\.explanation))")
    }
}
