import Basics
@testable import ScenarioModel
import Testing

/// Widgets and notification service extensions: their work (`on-reload:`, `on-push:`), their settings
/// and the steps that start them, each mistake reported where it is written.
@Suite struct SystemWorkDecodingTests {
    /// A host, a widget and a notification service extension, with `extra` lines under the widget.
    private func yaml(widget extra: String = "", steps: String = "  - app: launch", after: String = "") -> String {
        """
        summary: A test.
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
        \(extra)
          service:
            role: notification-service
            on-push:
              - { insert: Note, id: m1, set: { title: Pushed } }
              - save
        steps:
        \(steps)
        \(after)
        """
    }

    @Test func workIsDecodedAsTheProcesssStepsWithTheirPositions() throws {
        let scenario = try ScenarioLoader.parse(yaml: yaml(widget: """
                reload-delay: 5s
                reload-budget: 2
                between-reloads: exit
                read-only: true
                on-reload:
                  - { fetch: Note }
                  - { read: m1, only-in: [b] }
            """, steps: "  - app: launch\n  - app: { reload-timelines: widget }\n  - service: push\n  - app: { read: m1 }",
            after: "variants:\n  a: {}\n  b: {}"), file: "w.yaml")
        let widget = try #require(scenario.process(named: "widget"))
        #expect(widget.settings.trigger == .manual, "a widget refreshes at its reloads, not on notifications")
        #expect(widget.settings.reloadDelay == .seconds(5) && widget.settings.reloadBudget == 2)
        #expect(widget.settings.betweenReloads == .exit && widget.settings.readOnly)
        #expect(widget.work.map(\.step.keyword) == ["fetch", "read"])
        #expect(widget.work.map(\.location.line) == [18, 19])
        #expect(scenario.process(named: "service")?.work.map(\.step.keyword) == ["insert", "save"])
        let runs = scenario.runs()
        #expect(runs[0].process(named: "widget")?.work.count == 1 && runs[1].process(named: "widget")?.work.count == 2,
                "only-in selects a work step per variant")
        #expect(scenario.steps[1].step == .reloadTimelines(widget: "widget") && scenario.steps[2].step == .push(nil))
    }

    private func expectOneError(_ text: String, line: Int, column: Int, containing fragment: String,
                                sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        Fixture.expectOneError(text, line: line, column: column, containing: fragment, sourceLocation: sourceLocation)
    }

    /// `expect: [3, 2]` on a count in `on-reload:`: one count per reload; a list anywhere else is an error.
    @Test func aReloadsCountMayExpectOneValuePerReload() throws {
        let scenario = try ScenarioLoader.parse(yaml: yaml(widget: "    on-reload: [ { fetch: Note }, { count: Note, expect: [3, 2], now: true } ]"),
                                                file: "x.yaml")
        let count = try #require(scenario.processes.first { $0.name == "widget" }?.work.last)
        #expect(count.step == .count(entity: "Note", expected: 3, predicate: nil, timing: .now) && count.perReload == [3, 2])
        expectOneError(yaml(steps: "  - app: launch\n  - app: { count: Note, expect: [1, 2] }"), line: 21, column: 33,
                       containing: "a list of counts, one per reload or push, is for a count in a widget's on-reload: or an extension's on-push:")
        expectOneError(yaml(widget: "    on-reload: [ { count: Note, expect: [] } ]"), line: 13, column: 41,
                       containing: "name the count of each reload")
        expectOneError(yaml(widget: "    on-reload: [ { count: Note, expect: [1, x] } ]"), line: 13, column: 45,
                       containing: "the expected count")
    }

    @Test func pushOnlyStartsANotificationServiceExtension() {
        expectOneError(yaml(steps: "  - app: launch\n  - widget: push"), line: 21, column: 13,
                       containing: "push launches a notification service extension, and 'widget' is not one")
    }

    @Test func reloadTimelinesNamesAWidget() {
        expectOneError(yaml(steps: "  - app: launch\n  - app: { reload-timelines: service }"), line: 21, column: 30,
                       containing: "reload-timelines reloads a widget, and 'service' has role: notification-service")
        expectOneError(yaml(steps: "  - app: launch\n  - app: { reload-timelines: widgit }"), line: 21, column: 30,
                       containing: "unknown process 'widgit'; did you mean 'widget'?")
    }

    @Test func workBelongsToItsRoleAndWidgetSettingsToWidgets() {
        expectOneError(yaml().replacingOccurrences(of: "    role: host", with: "    role: host\n    on-reload: [save]"), line: 11, column: 5,
                       containing: "on-reload is what a widget or a control does when the system runs it, and 'app' is an app")
        expectOneError(yaml().replacingOccurrences(of: "    role: host", with: "    role: host\n    reload-budget: 5"), line: 11, column: 5,
                       containing: "reload-budget is a widget's setting, and 'app' is an app")
        expectOneError(yaml().replacingOccurrences(of: "    role: host", with: "    role: host\n    between-pushes: suspend"), line: 11, column: 5,
                       containing: "between-pushes is a notification service extension's setting, and 'app' is an app")
        // A variant's override of another role's setting is refused as a declaration's is.
        expectOneError(yaml(after: "variants:\n  v: { app: { between-pushes: suspend } }"), line: 22, column: 15,
                       containing: "between-pushes is a notification service extension's setting, and 'app' is an app")
        expectOneError(yaml(after: "variants:\n  v: { service: { reload-budget: 3 } }"), line: 22, column: 19,
                       containing: "reload-budget is a widget's setting, and 'service' is a notification service extension")
    }

    @Test func workCannotRunTheLifecycleTheSystemRuns() {
        expectOneError(yaml(widget: "    on-reload: [ { fetch: Note }, exit ]"), line: 13, column: 35,
                       containing: "exit cannot be part of on-reload: the system launches, suspends and ends 'widget'")
    }

    @Test func aVariantCannotReplaceWork() {
        expectOneError(yaml(after: "variants:\n  v: { widget: { on-reload: [save] } }"), line: 22, column: 18,
                       containing: "a variant cannot change the on-reload of 'widget'; give its steps only-in: instead.")
    }

    @Test func anIntentIsStartedByTheSystemNotByItsSteps() {
        let text = yaml(steps: "  - app: launch\n  - intent: launch").replacingOccurrences(
            of: "  service:\n", with: "  intent:\n    role: intent\n  service:\n")
        Fixture.expectOneError(text, line: 23, column: 13,
                               containing: "launch cannot be a step of 'intent': an App Intent runs in the process the system picks")
    }

    @Test func anActionMayRunThroughANamedContextAndAProcessActionMayNot() throws {
        let scenario = try ScenarioLoader.parse(yaml: yaml(steps: "  - app: launch\n  - app: { fetch: Note, context: bg }\n  - app: { save: true, context: bg }"), file: "c.yaml")
        #expect(scenario.steps[1].context == "bg" && scenario.steps[2].context == "bg" && scenario.steps[0].context == nil)
        #expect(try StepWriter.line(scenario.steps[2]) == "app: { save: true, context: bg }")
        expectOneError(yaml(steps: "  - app: launch\n  - app: { checkpoint: true, context: bg }"), line: 21, column: 30,
                       containing: "checkpoint acts on the process, not on one of its contexts; remove context:.")
        // `view` and `store` are parents' names, not contexts a step runs through.
        expectOneError(yaml(steps: "  - app: launch\n  - app: { save: true, context: view }"), line: 21, column: 33,
                       containing: "a step runs through the view context when it names no context; remove context: view.")
        expectOneError(yaml(steps: "  - app: launch\n  - app: { save: true, context: store }"), line: 21, column: 33,
                       containing: "'store' names no context")
    }

    @Test func aBudgetOrDelayOutOfRangeIsRefused() {
        expectOneError(yaml(widget: "    reload-budget: -1"), line: 13, column: 20, containing: "reload-budget (reloads per simulated day) must be between 0 and 1000000")
        expectOneError(yaml(widget: "    between-reloads: sleep"), line: 13, column: 22, containing: "between-reloads")
    }
}

/// `timeline-policy` on a widget: never, after or at-end a duration above zero.
@Suite struct TimelinePolicyDecodingTests {
    private func yaml(_ policy: String, role: String = "widget") -> String {
        """
        summary: Policy.
        store:
          group: group.example.notes
          name: Notes
          model:
            Note: { title: string }
        processes:
          app: { role: host }
          widget: { role: \(role), timeline-policy: \(policy) }
        steps:
          - app: launch
        """
    }

    @Test(arguments: [("never", TimelinePolicy.never), ("{ after: 15m }", .after(.minutes(15))), ("{ at-end: 1h }", .atEnd(.hours(1)))])
    func aPolicyDecodes(text: String, policy: TimelinePolicy) throws {
        let scenario = try Fixture.scenario(yaml(text))
        #expect(scenario.processes.first { $0.name == "widget" }?.settings.timelinePolicy == policy)
    }

    @Test(arguments: ["sometimes", "{ after: 0s }", "{ every: 1h }", "{ after: 1h, at-end: 2h }"])
    func aPolicyThatIsNoneOfTheFormsIsRefusedAtItsPlace(text: String) {
        let errors = Fixture.errors(yaml(text))
        #expect(errors.count == 1 && errors[0].line == 9, "\(errors)")
    }

    @Test func onlyAWidgetHasATimeline() {
        let errors = Fixture.errors(yaml("{ after: 1h }", role: "share"))
        #expect(errors.contains { $0.message.contains("timeline-policy") }, "\(errors)")
    }
}
