import Basics
import Foundation
import Runner
import ScenarioModel
import Testing
import TestSupport

/// The 1-hour bound on a run's waits on the real clock counts the reloads the system runs on its own,
/// which validation cannot see in the steps written: a timeline's policy, a widget's button. Such a run
/// waited about 75 minutes in real time.
@Suite struct OverlongWaitTests {
    static let header = """
    summary: Reloads the system runs on its own.
    store: { group: group.example.notes, name: Notes, model: { Note: { title: string } } }

    """

    /// A timeline reloaded by its policy every 30 minutes, three times, each reload checking for 25 minutes.
    static let policy = header + """
    processes:
      app: { role: host }
      widget:
        role: widget
        timeline-policy: { after: 30m }
        on-reload: [ { fetch: Note }, { count: Note, expect: 9, within: 25m } ]
    steps:
      - app: launch
      - app: { reload-timelines: widget }
      - clock: { advance: 31m }
      - clock: { advance: 31m }
      - clock: { advance: 31m }
    """

    static func plan(_ yaml: String) throws -> RunPlan {
        let scenario = try ScenarioLoader.parse(yaml: yaml, file: "reloads.yaml")
        return RunPlan(run: try #require(scenario.runs().first), summary: scenario.summary)
    }

    @Test func reloadsATimelinePolicyAsksForCountTowardsTheLimit() throws {
        let plan = try Self.plan(Self.policy)
        let (step, total) = try #require(plan.overlongWait)
        #expect(step.location.line == 13, "the third reload, which the second clock advance runs")
        #expect(total == .minutes(75))
        #expect(plan.overlongWaitMessage(total).contains("wait up to 75m"))
        // The request's reload and one the policy asks for: 50 minutes.
        let shorter = Self.policy.replacingOccurrences(of: "  - clock: { advance: 31m }\n  - clock: { advance: 31m }\n",
                                                       with: "")
        #expect(try Self.plan(shorter).overlongWait == nil)
    }

    @Test func reloadsAWidgetsButtonRunsCountTowardsTheLimit() throws {
        let yaml = Self.header + """
        processes:
          app: { role: host }
          widget: { role: widget, on-reload: [ { fetch: Note }, { count: Note, expect: 9, within: 25m } ] }
          tap: { role: intent, widget-button: widget }
        steps:
          - tap: { insert: Note, id: n1, set: { title: A } }
          - tap: save
          - tap: { update: n1, set: { title: B } }
          - tap: save
          - tap: { update: n1, set: { title: C } }
          - tap: save
        """
        let (step, total) = try #require(try Self.plan(yaml).overlongWait)
        #expect(step.location.line == 13 && total == .minutes(75), "\(step.location) \(total)")
    }

    /// A plan made without the command line (a test, `GroupSimTesting`) is refused by the runner, before
    /// any process starts.
    @Test func theRunnerRefusesSuchAPlanBeforeStartingAnything() throws {
        let outcome = ScenarioRunner.execute(try Self.plan(Self.policy), options: RunnerOptions(agentExecutable: "/nonexistent"))
        let error = try #require(outcome.harnessError)
        #expect(error.location == "reloads.yaml:13" && error.message.contains("75m"), "\(error)")
        #expect(outcome.trace.events.count == 1, "only the harness failure: \(outcome.trace.events.map(\.kind))")
    }
}
