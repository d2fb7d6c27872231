import Basics
@testable import ScenarioModel
import Testing

/// `schedule:`, `explore: { late-notifications: }` and `fault: { hold-notifications: }`: decoded, carried
/// to every run, and refused with a position when misused.
@Suite struct ScheduleDecodingTests {
    let after = Fixture.firstStepLine + 1

    @Test func scheduleIsSeededUnlessTheFileSaysAsWritten() throws {
        #expect(try Fixture.scenario(Fixture.yaml(steps: "  - app: launch")).schedule == .seeded)
        let written = try Fixture.scenario(Fixture.yaml(steps: "  - app: launch", after: "schedule: as-written"))
        #expect(written.schedule == .asWritten)
        #expect(written.runs().allSatisfy { $0.schedule == .asWritten }, "every run carries it")
    }

    @Test func anUnknownScheduleIsAnErrorAtItsValue() {
        Fixture.expectOneError(Fixture.yaml(steps: "  - app: launch", after: "schedule: random"),
                               line: after, column: 11, containing: "as-written")
    }

    @Test func lateNotificationsDefaultsToTwoAndTakesZeroToSixteen() throws {
        #expect(try Fixture.scenario(Fixture.yaml(steps: "  - app: launch")).explore.lateNotifications == 2)
        let zero = try Fixture.scenario(Fixture.yaml(steps: "  - app: launch", after: "explore: { late-notifications: 0 }"))
        #expect(zero.explore.lateNotifications == 0)
        #expect(zero.explore.isEmpty, "a bound inserts no step")
        for bad in ["17", "-1", "two", "1.5", "99999999999999999999999"] {
            Fixture.expectOneError(Fixture.yaml(steps: "  - app: launch", after: "explore: { late-notifications: \(bad) }"),
                                   line: after, column: 32, containing: "late-notifications")
        }
    }

    @Test func holdNotificationsNamesADeclaredProcessAndTakesNothingElse() {
        Fixture.expectOneError(Fixture.yaml(steps: "  - fault: { hold-notifications: ap }"),
                               line: Fixture.firstStepLine, column: 34, containing: "ap")
        Fixture.expectOneError(Fixture.yaml(steps: "  - fault: { hold-notifications: app, for: 1s }"),
                               line: Fixture.firstStepLine, column: 39, containing: "for")
    }
}

/// `widget-button:` names a declared widget, on an App Intent only (issue 29).
@Suite struct WidgetButtonDecodingTests {
    static func yaml(_ intent: String, extra: String = "") -> String {
        """
        summary: Widget button.
        store:
          group: group.example.notes
          name: Notes
          model:
            Note:
              title: string
        processes:
          app: { role: host }
          widget: { role: widget }
          toggle: { role: intent, \(intent) }
        \(extra)
        steps:
          - app: launch
        """
    }

    @Test func anIntentNamesAWidgetOrNone() throws {
        let named = try Fixture.scenario(Self.yaml("widget-button: widget"))
        #expect(named.process(named: "toggle")?.settings.widgetButton == "widget")
        let none = try Fixture.scenario(Self.yaml("widget-button: none"))
        #expect(none.process(named: "toggle")?.settings.widgetButton == nil)
    }

    @Test func anUnknownWidgetOrAnotherRoleIsAnErrorAtItsPlace() {
        Fixture.expectOneError(Self.yaml("widget-button: widgt"), line: 11, column: 42, containing: "did you mean 'widget'")
        Fixture.expectOneError(Self.yaml("widget-button: app"), line: 11, column: 42, containing: "'app', an app")
        Fixture.expectOneError(Self.yaml("widget-button: widget").replacingOccurrences(of: "app: { role: host }", with: "app: { role: host, widget-button: widget }"),
                               line: 9, column: 22, containing: "an App Intent's setting")
    }
}
