import Basics
@testable import ScenarioModel
import Testing

/// `validate` walks each run's steps through the runner's lifecycle state machine and refuses, at its
/// line, a step the runner could not carry out (issue 33); what the steps alone do not decide is left alone.
@Suite struct LifecycleCheckTests {
    static func yaml(_ steps: String, processes: String = "app: { role: host }\n  share: { role: share }", after: String = "") -> String {
        """
        summary: Lifecycle.
        store:
          group: group.example.notes
          name: Notes
          model:
            Note:
              title: string
        processes:
          \(processes)
        steps:
        \(steps)
        \(after)
        """
    }

    /// The one error, and its line (steps start at line 12).
    private func error(_ yaml: String) -> ScenarioError? {
        let found = Fixture.errors(yaml)
        #expect(found.count == 1, "\(found)")
        return found.first
    }

    @Test func aStepOfAProcessNeverLaunchedIsRefused() {
        let found = error(Self.yaml("  - app: launch\n  - share: { insert: Note, id: n1, set: { title: A } }"))
        #expect(found?.line == 13 && found?.message.contains("'share' cannot insert: it is not running here (it was never launched)") == true, "\(String(describing: found))")
    }

    /// An App Intent's unsaved work runs in the running host's process; that host suspended before the
    /// intent saves is refused at the intent's next step (the run would stop there).
    @Test func anIntentsUnsavedWorkInAHostThatStopsIsRefused() {
        let processes = "app: { role: host }\n  shortcut: { role: intent }"
        let found = error(Self.yaml(
            "  - app: launch\n  - shortcut: { insert: Note, id: n1, set: { title: A } }\n  - app: background\n  - app: suspend\n  - shortcut: save",
            processes: processes))
        #expect(found?.line == 16 && found?.message.contains("'shortcut' has unsaved changes in app's process (since line 13), which is suspended here") == true,
                "\(String(describing: found))")
        // Saved before the host stops, or no host running (the intent's own process): nothing to refuse.
        #expect(throws: Never.self) { try ScenarioLoader.parse(yaml: Self.yaml(
            "  - app: launch\n  - shortcut: { insert: Note, id: n1, set: { title: A } }\n  - shortcut: save\n  - app: background\n  - app: suspend",
            processes: processes), file: "lifecycle.yaml") }
        #expect(throws: Never.self) { try ScenarioLoader.parse(yaml: Self.yaml(
            "  - shortcut: { insert: Note, id: n1, set: { title: A } }\n  - app: launch\n  - app: exit\n  - shortcut: save",
            processes: processes), file: "lifecycle.yaml") }
    }

    /// A workload's operations pick among the ids one store holds: a watch with its own store beside the
    /// app got ids it never had (`not-found` on every update, in both modes). Alone, it runs.
    @Test func aWorkloadOverProcessesWithDifferentStoresIsRefused() throws {
        let processes = "app: { role: host }\n  watch: { role: watch, storage: own }"
        let workload = "{ processes: PROCESSES, entity: Note, mix: { insert: 1, update: 1 }, rate: 20/s, duration: 1s, keys: 5 }"
        let steps = "  - app: launch\n  - watch: launch\n  - workload: " + workload
        let found = error(Self.yaml(steps.replacingOccurrences(of: "PROCESSES", with: "[app, watch]"), processes: processes))
        #expect(found?.line == 14 && found?.message.contains("'watch' keeps a store of its own") == true, "\(String(describing: found))")
        for alone in ["[watch]", "[watch, watch]"] {
            _ = try Fixture.scenario(Self.yaml(steps.replacingOccurrences(of: "PROCESSES", with: alone), processes: processes))
        }
    }

    @Test func aStepAfterAnExitNamesTheLineOfTheExit() {
        let found = error(Self.yaml("  - share: launch\n  - share: exit\n  - share: save"))
        #expect(found?.line == 14 && found?.message.contains("it exited at line 13") == true, "\(String(describing: found))")
    }

    @Test func aStepOfASuspendedProcessAndAResumeOfARunningOneAreRefused() {
        let suspended = error(Self.yaml("  - app: launch\n  - app: suspend\n  - app: { fetch: Note }"))
        #expect(suspended?.line == 14 && suspended?.message.contains("suspended here; resume it first") == true)
        let resumed = error(Self.yaml("  - app: launch\n  - app: resume\n  - app: exit\n  - app: resume"))
        #expect(resumed?.line == 15 && resumed?.message.contains("cannot resume 'app'") == true, "\(String(describing: resumed))")
        let launched = error(Self.yaml("  - app: launch\n  - app: launch"))
        #expect(launched?.line == 13 && launched?.message.contains("already running") == true)
    }

    @Test func aCrashFaultEndsTheProcessAtItsNextSave() {
        let found = error(Self.yaml("""
              - share: launch
              - fault: { crash: share, during: save }
              - share: { insert: Note, id: n1, set: { title: A } }
              - share: save
              - share: { update: n1, set: { title: B } }
            """))
        #expect(found?.line == 16 && found?.message.contains("it crashed at line 15") == true, "\(String(describing: found))")
    }

    /// A crash fault arms the running process: one that a push would launch later is not running yet.
    @Test func aCrashFaultOnAProcessNotRunningIsRefused() {
        let found = error(Self.yaml("  - app: launch\n  - fault: { crash: share, during: save }\n  - share: launch"))
        #expect(found?.line == 13 && found?.message.contains("'share' cannot be armed by a crash fault") == true
                    && found?.message.contains("launch it first") == true, "\(String(describing: found))")
    }

    /// A restore replaces the store file: a process the file launched must have ended (the runner ends
    /// what the system runs on its own).
    @Test func aRestoreWhileAProcessTheFileLaunchedRunsIsRefused() throws {
        let found = error(Self.yaml("  - app: launch\n  - app: { copy-store: backup }\n  - restore-store: backup"))
        #expect(found?.line == 14 && found?.message.contains("'app' still has it open here; exit or crash it first") == true,
                "\(String(describing: found))")
        _ = try Fixture.scenario(Self.yaml("  - app: launch\n  - app: { copy-store: backup }\n  - app: exit\n  - restore-store: backup"))
    }

    @Test func aProblemInSomeVariantsNamesThem() {
        let found = error(Self.yaml("  - app: launch\n  - app: { exit: true, only-in: [gone] }\n  - app: { fetch: Note }",
                                    after: "variants:\n  kept: { expect: pass }\n  gone: { expect: pass }"))
        #expect(found?.message.hasSuffix("(in variant gone).") == true, "\(String(describing: found))")
    }

    @Test func whatTheStepsDoNotDecideIsLeftToTheRun() throws {
        // A push launches the extension and it exits; an intent runs wherever the system runs it; a widget
        // runs at reloads; a read-only process may fail to load; a workload may meet an armed crash.
        let text = Self.yaml("""
              - app: launch
              - service: push
              - service: push
              - intent: { update: n1, set: { title: B } }
              - intent: save
              - viewer: launch
              - viewer: launch
              - app: { reload-timelines: widget }
              - fault: { crash: app, during: save }
              - workload: { processes: [app], entity: Note, duration: 100ms }
              - app: { fetch: Note }
            """, processes: """
            app: { role: host }
              service: { role: notification-service, on-push: [ { insert: Note, id: n1, set: { title: A } }, save ] }
              intent: { role: intent }
              widget: { role: widget }
              viewer: { role: action, read-only: true }
            """)
        _ = try ScenarioLoader.parse(yaml: text, file: "lifecycle.yaml")
    }

    /// A widget runs when the system reloads it: before any step that may make it reload (a reload asked
    /// for, an App Intent's step, time passing), its own step is refused (the run ended in a harness error,
    /// "it asks for a timeline reload but is not running"); after one, the run decides.
    @Test func aWidgetsStepBeforeAnyReloadIsRefused() throws {
        let processes = "app: { role: host }\n  widget: { role: widget, on-reload: [ { fetch: Note } ] }"
        let found = error(Self.yaml("  - app: launch\n  - widget: reload-timelines", processes: processes))
        #expect(found?.line == 13 && found?.message.contains("'widget' cannot reload-timelines: the system has not run it yet") == true,
                "\(String(describing: found))")
        for trigger in ["- app: { reload-timelines: widget }", "- sleep: 1s", "- clock: { advance: 1h }"] {
            _ = try ScenarioLoader.parse(yaml: Self.yaml("  - app: launch\n  \(trigger)\n  - widget: { count: Note, expect: 0 }",
                                                         processes: processes), file: "lifecycle.yaml")
        }
    }

    /// A process whose store may not load (here, read-only) is left to the run once launched, but not
    /// before its first launch, nor after an exit or a crash: those decide it is stopped (found by the
    /// fuzz script: a step moved across an exit of a process with a model version ended in a harness error).
    @Test func aProcessThatMayNotLoadIsCheckedBeforeItsLaunchAndAfterItStops() {
        let processes = "app: { role: host }\n  viewer: { role: action, read-only: true }"
        let never = error(Self.yaml("  - app: launch\n  - viewer: { fetch: Note }", processes: processes))
        #expect(never?.line == 13 && never?.message.contains("'viewer' cannot fetch: it is not running here (it was never launched)") == true,
                "\(String(describing: never))")
        let exited = error(Self.yaml("  - viewer: launch\n  - viewer: exit\n  - viewer: { fetch: Note }", processes: processes))
        #expect(exited?.line == 14 && exited?.message.contains("it exited at line 13") == true, "\(String(describing: exited))")
        let crashed = error(Self.yaml("  - viewer: launch\n  - viewer: crash\n  - viewer: { fetch: Note }", processes: processes))
        #expect(crashed?.line == 14 && crashed?.message.contains("it crashed at line 13") == true, "\(String(describing: crashed))")
        // Found by the fuzz script: an edit moved after the terminate of an app whose update may fail to load.
        let terminated = error(Self.yaml("  - viewer: launch\n  - viewer: terminate\n  - viewer: { fetch: Note }", processes: processes))
        #expect(terminated?.line == 14 && terminated?.message.contains("it was terminated at line 13") == true,
                "\(String(describing: terminated))")
    }

    @Test func parallelChildrenAreWalkedInOrder() {
        let found = error(Self.yaml("  - app: launch\n  - parallel: [ { app: exit }, { app: save } ]"))
        #expect(found?.line == 13 && found?.message.contains("'app' cannot save") == true, "\(String(describing: found))")
    }
}
