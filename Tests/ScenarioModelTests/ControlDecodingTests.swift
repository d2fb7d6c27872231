import Basics
@testable import ScenarioModel
import Testing

/// `role: control`, `control:` on an App Intent, `reload-controls` and `toggle`: what decodes, and what is
/// refused with a position.
@Suite struct ControlDecodingTests {
    /// A file with an app, a control `power` whose reload reads `l1`, and the intent `tap` its tap runs.
    private func yaml(power: String = "", tap: String = "control: power", steps: String) -> String {
        """
        summary: A control.
        store: { group: group.example.home, name: Home, model: { Light: { name: string, isOn: bool = false, level: int? } } }
        processes:
          app: { role: host }
          power: { role: control, on-reload: [ { read: l1 } ]\(power) }
          tap: { role: intent, \(tap) }
        steps:
          - app: launch
          - app: { insert: Light, id: l1 }
          - app: save
        \(steps)
        """
    }

    @Test func aControlReloadsLikeAWidgetAndItsTapDefaultsToWhatItShows() throws {
        let scenario = try Fixture.scenario(yaml(steps: """
              - app: { reload-controls: power }
              - app: { reload-controls: true }
              - tap: { toggle: l1, property: isOn }
              - tap: { toggle: l1, property: isOn, reads: context }
            """))
        let power = try #require(scenario.processes.first { $0.name == "power" })
        #expect(power.settings.role == .control && power.settings.trigger == .manual)
        #expect(scenario.processes.first { $0.name == "tap" }?.settings.tappedIn == "power")
        #expect(scenario.steps.suffix(4).map(\.step) == [
            .reloadControls(control: "power"), .reloadControls(control: nil),
            .toggle(id: "l1", property: "isOn", reads: .control), .toggle(id: "l1", property: "isOn", reads: .context),
        ])
    }

    @Test func aToggleElsewhereNegatesWhatItsContextHolds() throws {
        let scenario = try Fixture.scenario(yaml(steps: "  - app: { toggle: l1, property: isOn }"))
        #expect(scenario.steps.last?.step == .toggle(id: "l1", property: "isOn", reads: .context))
    }

    @Test func aTimelineSettingOnAControlIsRefused() {
        Fixture.expectOneError(yaml(power: ", reload-budget: 5", steps: ""), line: 5, column: 56,
                               containing: "reload-budget is a widget's setting, and 'power' is a control, which has no timeline")
        Fixture.expectOneError(yaml(power: ", timeline-policy: never", steps: ""), line: 5, column: 56,
                               containing: "timeline-policy is a widget's setting, and 'power' is a control")
    }

    @Test func controlMustNameAControlAndNotBesideAWidgetButton() {
        Fixture.expectOneError(yaml(tap: "control: app", steps: ""), line: 6, column: 33,
                               containing: "control names 'app', an app; it names the control whose tap runs the intent")
        Fixture.expectOneError(yaml(tap: "control: powr", steps: ""), line: 6, column: 33,
                               containing: "control names an unknown control 'powr'; did you mean 'power'?")
        Fixture.expectOneError(yaml(tap: "control: power, widget-button: none, runs-in: extension", steps: "").replacingOccurrences(
            of: "  app: { role: host }", with: "  app: { role: host }\n  board: { role: widget }").replacingOccurrences(
            of: "widget-button: none", with: "widget-button: board"), line: 7, column: 33,
                               containing: "'tap' names both a widget (widget-button) and a control whose tap runs it")
    }

    @Test func aToggleOfSomethingButABoolIsRefused() {
        Fixture.expectOneError(yaml(steps: "  - app: { toggle: l1, property: name }"), line: 11, column: 34,
                               containing: "toggle negates a bool, and Light.name is string")
        Fixture.expectOneError(yaml(steps: "  - app: { toggle: l1, property: isOm }"), line: 11, column: 34,
                               containing: "Light has no attribute 'isOm'; did you mean 'isOn'?")
        Fixture.expectOneError(yaml(steps: "  - app: { toggle: l1 }"), line: 11, column: 10,
                               containing: "property")
    }

    @Test func readsControlNeedsAnIntentAControlRunsAndAReloadThatReadsTheObject() {
        Fixture.expectOneError(yaml(steps: "  - app: { toggle: l1, property: isOn, reads: control }"), line: 11, column: 47,
                               containing: "reads: control negates what the control whose tap runs the intent shows, and 'app' is no intent")
        Fixture.expectOneError(yaml(tap: "runs-in: extension", steps: "  - tap: { toggle: l1, property: isOn, reads: control }"),
                               line: 11, column: 47, containing: "'tap' is no intent a control runs")
        let unread = yaml(steps: "  - tap: { toggle: l1, property: isOn }").replacingOccurrences(of: "on-reload: [ { read: l1 } ]",
                                                                                          with: "on-reload: [ { fetch: Light } ]")
        Fixture.expectOneError(unread, line: 11, column: 20,
                               containing: "the toggle negates what power shows of l1, and power's on-reload: never reads l1")
    }

    @Test func reloadControlsNamesAControl() {
        Fixture.expectOneError(yaml(steps: "  - app: { reload-controls: tap }"), line: 11, column: 29,
                               containing: "reload-controls reloads a control, and 'tap' has role: intent")
        let noControl = """
            summary: No control.
            store: { group: group.example.home, name: Home, model: { Light: { isOn: bool } } }
            processes:
              app: { role: host }
            steps:
              - app: launch
              - app: reload-controls
            """
        Fixture.expectOneError(noControl, line: 7, column: 10,
                               containing: "reload-controls reloads controls, and no process has role: control")
        // Asked for by a notification service extension's work, as by a step.
        let fromAPush = noControl.replacingOccurrences(
            of: "  app: { role: host }\n", with: "  app: { role: host }\n  service: { role: notification-service, on-push: [ { reload-controls: true } ] }\n")
        Fixture.expectOneError(fromAPush.replacingOccurrences(of: "  - app: reload-controls", with: "  - service: push"), line: 5, column: 53,
                               containing: "reload-controls reloads controls, and no process has role: control")
    }

    @Test func aControlsWorkIsItsOnReloadAndItIsNotAWorkloadProcess() {
        Fixture.expectOneError(yaml(power: ", on-push: [ save ]", steps: ""), line: 5, column: 56,
                               containing: "on-push is what a notification service extension does when the system runs it, and 'power' is a control")
    }

    @Test func aTapBeforeAnyReloadOfTheControlIsRefused() throws {
        Fixture.expectOneError(yaml(steps: "  - tap: { toggle: l1, property: isOn }"), line: 11, column: 5,
                               containing: "the tap toggles what power shows, and no reload of power can have run before this step")
        _ = try Fixture.scenario(yaml(steps: "  - app: { reload-controls: power }\n  - tap: { toggle: l1, property: isOn }"))
    }

    @Test func aNotificationServiceExtensionMayAskForControlReloadsAndAControlsWorkMayNot() throws {
        let push = yaml(steps: "").replacingOccurrences(of: "  tap: { role: intent, control: power }",
                                                        with: "  tap: { role: intent, control: power }\n  service: { role: notification-service, on-push: [ { reload-controls: power } ] }")
        _ = try Fixture.scenario(push)
        Fixture.expectOneError(yaml(power: ", between-reloads: exit", steps: "").replacingOccurrences(
            of: "on-reload: [ { read: l1 } ]", with: "on-reload: [ { read: l1 }, { reload-controls: true } ]"), line: 5, column: 54,
                               containing: "reload-controls cannot be part of on-reload")
    }
}
