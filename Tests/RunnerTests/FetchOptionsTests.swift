import Basics
import Checkers
import Foundation
import Runner
import ScenarioModel
import Testing
import TestSupport
import Trace

/// A fetch's `limit`, `includes-pending-changes` and `returns-objects-as-faults`, decoded and run.
@Suite(.serialized, .spawnsProcesses) struct FetchOptionsTests {
    private func yaml(_ steps: String) -> String {
        """
        summary: Fetch options.
        store:
          group: group.example.notes
          name: Notes
          model:
            Note:
              title: string
              rank: int
        processes:
          app: { role: host }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A, rank: 1 } }
          - app: { insert: Note, id: n2, set: { title: B, rank: 2 } }
          - app: { insert: Note, id: n3, set: { title: C, rank: 3 } }
          - app: save
          - app: reset
        \(steps)
        """
    }

    @Test func optionsDecodeAndWriteBack() throws {
        let scenario = try ScenarioLoader.parse(yaml: yaml(
            "  - app: { fetch: Note, sort: \"-rank\", limit: 2, includes-pending-changes: false, returns-objects-as-faults: false }"), file: "f.yaml")
        let step = scenario.steps.last!
        #expect(step.step == .fetch(entity: "Note", predicate: nil, sort: [SortKey(attribute: "rank", ascending: false)],
                                    options: FetchOptions(limit: 2, includesPendingChanges: false, returnsObjectsAsFaults: false)))
        #expect(try StepWriter.line(step) == "app: { fetch: Note, sort: \"-rank\", limit: 2, includes-pending-changes: false, returns-objects-as-faults: false }")
        #expect(throws: ScenarioErrors.self) { try ScenarioLoader.parse(yaml: yaml("  - app: { fetch: Note, limit: 0 }"), file: "f.yaml") }
    }

    @Test(arguments: RunMode.allCases)
    func aLimitedListHoldsItsFirstResultsAndMissesNothingBeyondThem(mode: RunMode) throws {
        let outcome = try RunHarness.single(yaml("""
              - app: { fetch: Note, sort: "-rank", limit: 2 }
              - app: { count: Note, expect: 2, now: true }
              - app: { read: n3, expect: { title: C }, now: true }
              - app: { read: n1, expect: absent, now: true }
            """), mode: mode)
        #expect(outcome.harnessError == nil)
        let result = TraceChecker.check(outcome.trace)
        #expect(result.anomalies.isEmpty, "\(result.anomalies.map(\.explanation))")
    }

    @Test func refreshesRefetchedObjectsDecodesAndWritesBack() throws {
        let scenario = try ScenarioLoader.parse(yaml: yaml("  - app: { fetch: Note, refreshes-refetched-objects: true }"), file: "f.yaml")
        let step = scenario.steps.last!
        #expect(step.step == .fetch(entity: "Note", predicate: nil, sort: [], options: FetchOptions(refreshesRefetchedObjects: true)))
        #expect(try StepWriter.line(step) == "app: { fetch: Note, refreshes-refetched-objects: true }")
    }

    /// A registered object keeps its values through a refetch unless the fetch refreshes refetched objects
    /// (NSFetchRequest.shouldRefreshRefetchedObjects); the other process's edit is what tells them apart.
    @Test(arguments: [false, true], RunMode.allCases)
    func aRefetchRefreshesRegisteredObjectsOnlyWhenAsked(refreshes: Bool, mode: RunMode) throws {
        let outcome = try RunHarness.single(yaml("""
              - app: { fetch: Note }
              - app: { read: n1, expect: { title: A }, now: true }
              - share: launch
              - share: { update: n1, set: { title: Z } }
              - share: save
              - app: { fetch: Note, refreshes-refetched-objects: \(refreshes) }
              - app: { read: n1, expect: { title: \(refreshes ? "Z" : "A") }, now: true }
            """), mode: mode)
        #expect(outcome.harnessError == nil)
        let reads = outcome.trace.events.compactMap { event -> String? in
            guard event.process == "app", case .observed(let read) = event.kind, read.object == "n1" else { return nil }
            return read.values["title"].map { "\($0)" }
        }
        #expect(reads.last?.contains(refreshes ? "Z" : "A") == true, "\(reads)")
        let stale = TraceChecker.check(outcome.trace).anomalies.filter { $0.kind == .staleRead }
        #expect(stale.isEmpty == refreshes, "\(stale.map(\.explanation))")
    }

    @Test func withoutPendingChangesAFetchShowsTheStoresRows() throws {
        let outcome = try RunHarness.single(yaml("""
              - app: { insert: Note, id: n4, set: { title: D, rank: 4 } }
              - app: { fetch: Note, includes-pending-changes: false }
              - app: { count: Note, expect: 4, now: true }
            """))
        // The unsaved insert is in the view (the context holds it); the fetch itself found the three rows.
        let counted = outcome.trace.events.compactMap { if case .counted(let count) = $0.kind { count.ids } else { nil } }
        #expect(counted.last == ["n1", "n2", "n3", "n4"])
        #expect(TraceChecker.check(outcome.trace).verdict.matched)
    }
}

/// `delete-inaccessible-faults`: Core Data's `shouldDeleteInaccessibleFaults`.
@Suite(.serialized, .spawnsProcesses) struct InaccessibleFaultSettingTests {
    private func yaml(_ setting: Bool, read: String = "{ read: n1, now: true }") -> String {
        """
        summary: A fault whose row another process deleted.
        store:
          group: group.example.notes
          name: Notes
          model:
            Note:
              title: string
        processes:
          app: { role: host, staleness: 0, delete-inaccessible-faults: \(setting) }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - app: reset
          - app: { fetch: Note }
          - share: launch
          - share: { delete: n1 }
          - share: save
          - app: \(read)
        """
    }

    private func errors(_ outcome: RunOutcome) -> [ErrorKind] {
        outcome.events(of: "app").compactMap { if case .error(let record) = $0.kind { record.kind } else { nil } }
    }

    @Test func falseMakesTheReadOfAGoneRowFailNotFoundAndTrueFiresItAsDeleted() throws {
        let strict = try RunHarness.single(yaml(false))
        #expect(strict.harnessError == nil)
        #expect(errors(strict) == [.notFound])
        // The object that could not fire is still on the list at the end, as with `true` (it was left out
        // of the final view, and no not-converged said so).
        let final = strict.events(of: "app").compactMap { if case .finalView(let view) = $0.kind { view } else { nil } }.last
        #expect(final?.objects.contains { $0.id == "n1" } == true)
        #expect(TraceChecker.check(strict.trace).anomalies.contains { $0.kind == .notConverged })
        let lenient = try RunHarness.single(yaml(true))
        #expect(errors(lenient).isEmpty)
        #expect(TraceChecker.check(lenient.trace).anomalies.contains { $0.kind == .missedDelete }, "the view still holds the deleted note")
    }

    /// The read of a gone row fails with `not-found`, as Core Data's accessor raises: a step that says so
    /// is met, in both modes (issue 29).
    @Test func expectErrorNotFoundIsMetOnTheReadOfAGoneRow() throws {
        let yaml = yaml(false, read: "{ read: n1, expect: { title: A }, now: true, expect-error: not-found }")
        for mode in RunMode.allCases {
            let outcome = try RunHarness.single(yaml, mode: mode)
            #expect(outcome.harnessError == nil)
            let result = TraceChecker.check(outcome.trace)
            // The note stays registered and on the list after the exception, as in Core Data: the run ends
            // with a view that shows a row the store no longer has, and nothing else is wrong.
            #expect(Set(result.anomalies.map(\.kind)) == [.notConverged], "\(mode): \(result.anomalies.map(\.explanation))")
            #expect(result.unexpectedErrors.isEmpty, "\(mode): \(result.unexpectedErrors)")
            #expect(!outcome.checks.contains { !$0.passed }, "\(mode): no check failed")
        }
    }
}
