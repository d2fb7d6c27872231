import Basics
import Checkers
import Foundation
import Runner
import ScenarioModel
import Testing
import TestSupport
import Trace

/// A Control Center control: reloaded by `reload-controls` and after its action's intent saves, never by
/// `reload-timelines`; its tap hands the intent the opposite of what its last reload rendered, judged as
/// the control's read at the tap; `toggle` elsewhere negates what the context holds. In both modes.
@Suite(.serialized, .spawnsProcesses) struct ControlTests {
    private func yaml(steps: String) -> String {
        """
        summary: A control.
        store: { group: group.example.home, name: Home, model: { Light: { name: string, isOn: bool = false } } }
        processes:
          app: { role: host, refresh: history }
          board: { role: widget }
          power: { role: control, between-reloads: exit, on-reload: [ { fetch: Light }, { read: l1 } ] }
          tap: { role: intent, control: power }
        steps:
          - app: launch
          - app: { insert: Light, id: l1, set: { name: Porch } }
          - app: save
        \(steps)
        """
    }

    private func committed(_ outcome: RunOutcome, by process: String) -> [TraceValue?] {
        outcome.events(of: process).compactMap { event -> TraceValue?? in
            guard case .saveCommitted(let commit) = event.kind else { return nil }
            return commit.objects.first { $0.id == "l1" }?.values["isOn"]
        }
    }

    @Test func reloadControlsAndTheIntentsSaveReloadTheControlAndReloadTimelinesDoesNot() throws {
        let steps = try RunHarness.plannedSteps(yaml(steps: """
              - app: { reload-timelines: true }
              - app: { reload-controls: power }
              - tap: { toggle: l1, property: isOn }
              - tap: save
            """))
        #expect(steps.filter { $0.hasPrefix("power: reload") }.count == 2, "\(steps)")
        #expect(steps.filter { $0.hasPrefix("board: reload") }.count == 1, "\(steps)")
        #expect(steps.last?.hasPrefix("power: reload (requested at step") == true, "\(steps)")
    }

    @Test(arguments: RunMode.allCases)
    func aTapOnAStaleControlIsAStaleReadAndHandsTheIntentTheOppositeOfWhatItShows(mode: RunMode) throws {
        let outcome = try RunHarness.single(yaml(steps: """
              - app: { reload-controls: power }
              - app: { update: l1, set: { isOn: true } }
              - app: save
              - app: background
              - app: suspend
              - tap: { toggle: l1, property: isOn }
              - tap: save
            """), mode: mode)
        #expect(outcome.harnessError == nil)
        // It showed off (the reload before the app's change), so the intent set on: what the store held.
        #expect(committed(outcome, by: "power") == [.bool(true)])
        let tapped = try #require(outcome.reads(of: "l1", by: "power").first { $0.source == .rendered })
        #expect(tapped.values["isOn"] == .bool(false))
        let anomalies = TraceChecker.check(outcome.trace).anomalies
        #expect(anomalies.map(\.kind) == [.staleRead] && anomalies.first?.process == "power", "\(anomalies.map(\.explanation))")
        #expect(anomalies.first?.explanation.contains("no reload of power ran since that save") == true)
    }

    @Test(arguments: RunMode.allCases)
    func aControlReloadedAfterTheChangeHandsTheIntentTheCurrentValuesOpposite(mode: RunMode) throws {
        let outcome = try RunHarness.single(yaml(steps: """
              - app: { reload-controls: power }
              - app: { update: l1, set: { isOn: true } }
              - app: save
              - app: { reload-controls: power }
              - app: background
              - app: suspend
              - tap: { toggle: l1, property: isOn }
              - tap: save
            """), mode: mode)
        #expect(outcome.harnessError == nil)
        #expect(committed(outcome, by: "power") == [.bool(false)])
        let anomalies = TraceChecker.check(outcome.trace).anomalies
        #expect(anomalies.isEmpty, "\(anomalies.map(\.explanation))")
    }

    @Test(arguments: RunMode.allCases)
    func aToggleThroughAContextNegatesWhatThatContextHolds(mode: RunMode) throws {
        let outcome = try RunHarness.single(yaml(steps: """
              - app: { toggle: l1, property: isOn }
              - app: save
              - app: { toggle: l1, property: isOn }
              - app: save
              - tap: { toggle: l1, property: isOn, reads: context }
              - tap: save
            """), mode: mode)
        #expect(outcome.harnessError == nil)
        // The app's two toggles, then the intent's (run in the app's process, through a context of its own).
        #expect(committed(outcome, by: "app") == [.bool(false), .bool(true), .bool(false), .bool(true)])
    }

    @Test(arguments: RunMode.allCases)
    func aControlShowsOnlyWhatItsReloadReadsAndAStaleReloadIsTheTapsCause(mode: RunMode) throws {
        // The reused process keeps l1 as it fetched it; the app also changes l2, which the control fetches and never shows.
        let yaml = yaml(steps: """
              - app: { insert: Light, id: l2, set: { name: Hall } }
              - app: save
              - app: { reload-controls: power }
              - app: { update: l1, set: { isOn: true } }
              - app: { update: l2, set: { isOn: true } }
              - app: save
              - app: { reload-controls: power }
              - app: background
              - app: suspend
              - tap: { toggle: l1, property: isOn }
            """).replacingOccurrences(of: "between-reloads: exit, ", with: "")
        let outcome = try RunHarness.single(yaml, mode: mode)
        #expect(outcome.harnessError == nil)
        let anomalies = TraceChecker.check(outcome.trace).anomalies
        #expect(!anomalies.contains { $0.object == "l2" }, "\(anomalies.map(\.explanation))")
        let tap = try #require(anomalies.first { $0.kind == .staleRead && $0.explanation.contains("the tap hands on") },
                               "\(anomalies.map(\.explanation))")
        #expect(tap.explanation.contains("power's reload at"), "\(tap.explanation)")
    }
}
