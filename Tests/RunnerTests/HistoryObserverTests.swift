import Basics
import Checkers
import Foundation
import Runner
import ScenarioModel
import Testing
import TestSupport
import Trace

/// `refresh: history-observer` (SwiftData's `HistoryObserver`): on the remote-change notification the
/// history after the token is read, never merged; only a change of an observed model (`history-entities`)
/// has the screen fetch again, in a new context. In both modes.
@Suite(.serialized, .spawnsProcesses) struct HistoryObserverTests {
    private func yaml(observes entities: String) -> String {
        """
        summary: An observer.
        store: { group: group.example.notes, name: Notes, model: { Note: { title: string }, Tag: { name: string } } }
        processes:
          app: { role: host, framework: swiftdata, refresh: history-observer, history-entities: \(entities) }
          share: { role: share, framework: swiftdata }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: Before } }
          - app: save
          - app: { fetch: Note }
          - share: launch
          - share: { update: n1, set: { title: After } }
          - share: save
          - share: exit
          - app: { read: n1, within: 1s, expect: { title: After } }
        """
    }

    @Test(arguments: RunMode.allCases)
    func aChangeOfAnObservedModelHasTheScreenFetchAgain(mode: RunMode) throws {
        let outcome = try RunHarness.single(yaml(observes: "[Note]"), mode: mode)
        #expect(outcome.harnessError == nil)
        let result = TraceChecker.check(outcome.trace)
        #expect(result.anomalies.isEmpty, "\(result.anomalies.map(\.explanation))")
        // It read the history (and moved its token) without merging it.
        let fetches = outcome.events(of: "app").compactMap { if case .historyFetched(let fetch) = $0.kind { fetch } else { nil } }
        #expect(!fetches.isEmpty && fetches.allSatisfy { $0.merged == 0 }, "\(fetches)")
        #expect(fetches.last?.tokenAfter != nil)
    }

    @Test(arguments: RunMode.allCases)
    func aChangeOfAModelItDoesNotObserveChangesNothingOnScreen(mode: RunMode) throws {
        let outcome = try RunHarness.single(yaml(observes: "[Tag]"), mode: mode)
        #expect(outcome.harnessError == nil)
        let kinds = Set(TraceChecker.check(outcome.trace).anomalies.map(\.kind))
        #expect(kinds.contains(.staleRead), "\(kinds)")
    }

    @Test func aCoreDataProcessCannotUseIt() {
        let errors = (try? ScenarioLoader.parse(yaml: yaml(observes: "[Note]").replacingOccurrences(
            of: "framework: swiftdata, refresh: history-observer", with: "refresh: history-observer"), file: "x.yaml")) == nil
        #expect(errors)
    }
}
