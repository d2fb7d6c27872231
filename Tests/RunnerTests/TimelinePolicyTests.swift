import Basics
import Checkers
import Foundation
import Runner
import ScenarioModel
import Testing
import TestSupport
import Trace

/// A widget whose timeline has a reload policy (`timeline-policy`, WidgetKit's `TimelineReloadPolicy`)
/// is reloaded by the system after each reload, on the simulated clock and within its budget (issue 29).
@Suite(.serialized, .spawnsProcesses) struct TimelinePolicyTests {
    private func yaml(policy: String, budget: Int = 40, steps: String) -> String {
        """
        summary: Timeline policy.
        store:
          group: group.example.notes
          name: Notes
          model:
            Note:
              title: string
        processes:
          app:
            role: host
          widget:
            role: widget
            timeline-policy: \(policy)
            reload-budget: \(budget)
            on-reload:
              - { fetch: Note }
        steps:
          - app: launch
          - app: background
        \(steps)
        """
    }

    private func plan(_ yaml: String) throws -> [String] { try RunHarness.plannedSteps(yaml) }

    @Test func theSystemReloadsAsTheTimelineAsksAndOnlyOnceForAJumpOfTheClock() throws {
        let steps = try plan(yaml(policy: "{ after: 15m }", steps: """
              - app: { reload-timelines: widget }
              - clock: { advance: 10m }
              - clock: { advance: 5m }
              - clock: { advance: 2h }
            """))
        #expect(steps == [
            "app: launch", "app: background", "app: reload-timelines of widget", "widget: reload (requested at step 2)",
            "clock advance 10m", "clock advance 5m", "widget: reload (its timeline's reload policy asked for it)",
            "clock advance 2h", "widget: reload (its timeline's reload policy asked for it)",
        ])
    }

    @Test func neverReloadsOnlyWhenAsked() throws {
        let steps = try plan(yaml(policy: "never", steps: "  - app: { reload-timelines: widget }\n  - clock: { advance: 1d }"))
        #expect(steps.filter { $0.hasPrefix("widget: reload") } == ["widget: reload (requested at step 2)"])
    }

    @Test func aPolicyReloadPastTheBudgetWaitsForTheNextDay() throws {
        let steps = try plan(yaml(policy: "{ at-end: 1h }", budget: 2, steps: """
              - app: { reload-timelines: widget }
              - clock: { advance: 1h }
              - clock: { advance: 1h }
              - clock: { advance: 1h }
              - clock: { advance: 21h }
            """))
        #expect(steps.filter { $0.hasPrefix("widget: reload") } == [
            "widget: reload (requested at step 2)", "widget: reload (its timeline's reload policy asked for it)",
            "widget: reload (its timeline's reload policy asked for it)",
        ], "\(steps)")
        #expect(steps.last == "widget: reload (its timeline's reload policy asked for it)", "the third ran on day two")
        #expect(!steps.contains { $0.contains("ignored") || $0.contains("never ran") }, "a policy's reload is no request: \(steps)")
    }

    @Test func anAppsRequestBeforeThePolicysReloadTakesItsPlace() throws {
        let steps = try plan(yaml(policy: "{ after: 1h }", steps: """
              - app: { reload-timelines: widget }
              - clock: { advance: 10m }
              - app: { reload-timelines: widget }
              - clock: { advance: 55m }
              - clock: { advance: 10m }
            """))
        #expect(steps.filter { $0.hasPrefix("widget: reload") } == [
            "widget: reload (requested at step 2)", "widget: reload (requested at step 6)",
            "widget: reload (its timeline's reload policy asked for it)",
        ], "\(steps)")
        #expect(steps.last == "widget: reload (its timeline's reload policy asked for it)", "an hour after the second reload, not the first")
    }

    /// The app saves after the widget's reload and asks for none: only a timeline that asks for a reload
    /// brings the change to the widget before the run ends.
    @Test(arguments: RunMode.allCases)
    func aTimelineThatAsksForAReloadBringsTheChangeAndNeverDoesNot(mode: RunMode) throws {
        let text = yaml(policy: "never", steps: """
              - app: { reload-timelines: widget }
              - app: foreground
              - app: { insert: Note, id: n1, set: { title: A } }
              - app: save
              - app: background
              - clock: { advance: 20m }
            variants:
              never: { expect: [not-converged] }
              after: { widget: { timeline-policy: { after: 15m } }, expect: pass }
            """)
        for variant in ["never", "after"] {
            let outcome = try RunHarness.single(text, variant: variant, mode: mode)
            #expect(outcome.harnessError == nil)
            let result = TraceChecker.check(outcome.trace)
            #expect(result.verdict.matched, "\(variant): \(result.anomalies.map(\.explanation))")
        }
    }
}
