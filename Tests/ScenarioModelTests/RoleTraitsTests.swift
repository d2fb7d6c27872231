import Basics
@testable import ScenarioModel
import Testing

/// What each role decides comes from its traits, and the decoder refuses by them: a setting or work key
/// some roles take is refused on every other role, naming a role that takes it.
@Suite struct RoleTraitsTests {
    /// A file whose process `p` has `role` and the setting `line`.
    private func file(role: ProcessRole, _ line: String) -> String {
        """
        summary: A role's settings.
        store: { group: group.example.notes, name: Notes, model: { Note: { title: string, isOn: bool } } }
        processes:
          app: { role: host }
          w: { role: widget }
          c: { role: control }
          p:
            role: \(role.rawValue)
            \(line)
        steps:
          - app: launch
        """
    }

    @Test func theWorkKeysAreTheWidgetsControlsAndPushesOwn() {
        #expect(ProcessRole.roleSettings[.runsIn] == [.intent])
        #expect(Set(ProcessRole.workKeys.keys) == ["on-reload", "on-push"])
        #expect(ProcessRole.workKeys["on-reload"] == [.widget, .control])
    }

    @Test(arguments: ["reload-delay: 1s", "reload-budget: 3", "between-pushes: suspend", "runs-in: app", "between-reloads: exit"])
    func aRoleSettingIsRefusedOnEveryRoleThatDoesNotTakeIt(_ line: String) throws {
        let key = String(line.prefix { $0 != ":" })
        let owners = try #require(SettingKey(rawValue: key).flatMap { ProcessRole.roleSettings[$0] })
        for role in ProcessRole.allCases {
            var errors: [ScenarioError] = []
            do { _ = try ScenarioLoader.parse(yaml: file(role: role, line), file: Fixture.file) } catch { errors = error.errors }
            let refused = errors.contains { $0.message.hasPrefix("\(key) is a") && $0.line == 9 }
            #expect(refused == !owners.contains(role), "\(key) on \(role)")
        }
    }

    @Test func theRefusalNamesARoleThatTakesTheSetting() {
        let errors = Fixture.errors(file(role: .share, "between-pushes: suspend"))
        #expect(errors.contains {
            $0.message.contains("between-pushes is a notification service extension's setting")
                && $0.message.contains("role: notification-service")
        })
        let intent = Fixture.errors(file(role: .host, "runs-in: app"))
        #expect(intent.contains { $0.message.contains("runs-in is an App Intent's setting") })
    }

    @Test func defaultsFollowTheTraits() {
        for role in ProcessRole.allCases {
            let settings = ProcessSettings(role: role)
            #expect(settings.storage == role.traits.storage)
            #expect((settings.trigger == .manual) == role.isRenderedBySystem)
        }
        #expect(ProcessRole.watch.traits.storage == .own)
    }

    @Test func theHintNearestANamesEndDecidesItsRole() {
        #expect(Writers.role(guessedFrom: "com.example.Notes.NotesWidget") == .widget)
        #expect(Writers.role(guessedFrom: "com.example.Notes.WatchWidget") == .widget)
        #expect(Writers.role(guessedFrom: "com.example.Notes.WidgetShare") == .share)
        #expect(Writers.role(guessedFrom: "com.example.Notes.NotificationService") == .notificationService)
        #expect(Writers.role(guessedFrom: "com.example.Notes.Intents") == .intent)
        #expect(Writers.role(guessedFrom: "com.example.Notes.watchkitapp") == .watch)
        #expect(Writers.role(guessedFrom: "com.example.Notes.Stamp") == .action)
    }

    @Test func articles() {
        #expect(ProcessRole.intent.traits.aName == "an App Intent")
        #expect(ProcessRole.action.traits.aName == "an action extension")
        #expect(ProcessRole.widget.traits.aName == "a widget")
    }
}
