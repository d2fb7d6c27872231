import Basics
import Checkers
import Runner
import Trace
import Testing

/// App Intents in both modes: two intents' steps in `parallel` interleave as their processes would, and an
/// intent whose unsaved work a widget's reload suspended or ended is a decided run, not a harness error.
@Suite(.serialized, .spawnsProcesses) struct IntentOneWorldTests {
    /// Two Shortcuts intents rename one task at the same moment, each in a process of its own: both read
    /// the task before either saves, so the second save conflicts (in real time the branches took turns
    /// only after a whole branch had run, so it never did; the deterministic mode always conflicted).
    @Test func twoIntentsInParallelInterleaveInBothModes() throws {
        let yaml = """
            summary: Two intents rename one task at once.
            store: { group: group.example.tasks, name: Tasks, model: { Task: { title: string } } }
            processes:
              app: { role: host }
              rename-a: { role: intent }
              rename-b: { role: intent }
            steps:
              - app: launch
              - app: { insert: Task, id: t1, set: { title: Milk } }
              - app: save
              - app: exit
              - parallel:
                  - [ { rename-a: { update: t1, set: { title: Oat } } }, { rename-a: save } ]
                  - [ { rename-b: { update: t1, set: { title: Soy } } }, { rename-b: save } ]
            expect: conflict
            """
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let verdicts = try OneWorldTests.verdicts(yaml, seeds: 1...3, pool: pool)
        #expect(verdicts.count == 4)
        #expect(Set(verdicts) == ["matched [\"conflict\"]"], "\(verdicts)")
    }

    /// An intent run from a widget's button edits in the widget's process (the app is suspended); the app
    /// then asks for a reload, which suspends or ends that process; the intent saves afterwards.
    private func unsavedInAWidget(between: String) -> String {
        """
        summary: A reload stops the widget process an intent's unsaved edit is in.
        store: { group: group.example.notes, name: Notes, model: { Note: { title: string } } }
        processes:
          app: { role: host }
          widget: { role: widget, between-reloads: \(between), on-reload: [ { fetch: Note } ] }
          act: { role: intent, widget-button: widget }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - app: background
          - app: suspend
          - act: { update: n1, set: { title: X } }
          - app: resume
          - app: { reload-timelines: widget }
          - act: save
        """
    }

    @Test(arguments: ["suspend", "exit"])
    func aReloadUnderAnIntentsUnsavedWorkIsDecidedInBothModes(between: String) throws {
        for mode in [RunMode.realTime, .deterministic] {
            let outcome = try RunHarness.single(unsavedInAWidget(between: between), mode: mode, seed: 1)
            #expect(outcome.harnessError == nil, "\(mode): \(outcome.harnessError.map { "\($0)" } ?? "")")
            let notes = outcome.trace.events.compactMap { event -> String? in
                if case .note(let text) = event.kind, event.process == "act" { text } else { nil }
            }
            // Suspended: the system resumes it for the intent to finish there; ended: the work went with it.
            let said = between == "suspend" ? "the system resumes widget for act to finish" : "act's unsaved changes in widget's process ended"
            #expect(notes.contains { $0.hasPrefix(said) }, "\(mode): \(notes)")
        }
    }

    /// An intent's step waits for every command in flight, and real time sends the branches' first steps in
    /// the order written: a control's tap written after the app's save beside it runs after that save,
    /// acting on the value the control shows, every seed as in real time (seeds that ran the tap first
    /// made it conflict with the save, which real time never did).
    @Test func anIntentWrittenAfterASaveBesideItRunsAfterIt() throws {
        let yaml = """
            summary: The app turns a light on while the user taps the control that still shows it off.
            store: { group: group.example.home, name: Home, model: { Light: { name: string, isOn: bool = false } } }
            processes:
              app: { role: host, refresh: history }
              power: { role: control, between-reloads: exit, on-reload: [ { fetch: Light }, { read: l1 } ] }
              set-power: { role: intent, control: power }
            steps:
              - app: launch
              - app: { insert: Light, id: l1, set: { name: Porch } }
              - app: save
              - app: { reload-controls: power }
              - app: { update: l1, set: { isOn: true } }
              - parallel:
                  - { app: save }
                  - [ { set-power: { toggle: l1, property: isOn } }, { set-power: save } ]
            expect: { stale-read: 1+, conflict: 0 }
            """
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let verdicts = try OneWorldTests.verdicts(yaml, seeds: 1...6, pool: pool)
        #expect(verdicts.count == 7)
        #expect(verdicts.allSatisfy { $0.hasPrefix("matched") }, "\(verdicts)")
    }

    /// A `suspend` written before an intent beside it runs first, as in real time: the intent then runs in a
    /// process of its own, never in the app's process between the app's edit and its save (which left
    /// unsaved changes in a suspended app, a harness error, on half the seeds).
    @Test func aSuspendWrittenBeforeAnIntentRunsFirst() throws {
        let yaml = """
            summary: A Shortcut runs an intent as the user leaves the app.
            store: { group: group.example.notes, name: Notes, model: { Note: { title: string } } }
            processes:
              app: { role: host, refresh: history, trigger: activation }
              add: { role: intent }
            steps:
              - app: launch
              - app: { fetch: Note }
              - app: background
              - parallel:
                  - { app: suspend }
                  - [ { add: { insert: Note, id: n1, set: { title: I } } }, { add: save } ]
              - app: resume
              - app: foreground
              - app: { count: Note, expect: 1, within: 100ms }
            """
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let verdicts = try OneWorldTests.verdicts(yaml, seeds: 1...6, pool: pool)
        #expect(Set(verdicts) == ["matched []"], "\(verdicts)")
    }

    /// A `sleep` first in a branch holds back that branch alone: an intent's step beside it runs at once,
    /// long before the sleep ends, every seed and in real time (it runs after every command written before
    /// it, and a sleep is none; it had waited for the sleep to end).
    @Test func anIntentBesideASleepingBranchRunsAtOnce() throws {
        let yaml = """
            summary: A Shortcut reads a task while the app saves its own edit 300 ms later.
            store: { group: group.example.tasks, name: Tasks, model: { Task: { title: string } } }
            processes:
              app: { role: host }
              look: { role: intent }
            steps:
              - app: launch
              - app: { insert: Task, id: t1, set: { title: Milk } }
              - app: save
              - app: { update: t1, set: { title: Bread } }
              - parallel:
                  - [ { sleep: 300ms }, { app: save } ]
                  - { look: { read: t1, expect: { title: Milk }, now: true } }
            """
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        var outcomes = try (UInt64(1)...4).map { try RunHarness.single(yaml, mode: .deterministic, seed: $0, pool: pool) }
        outcomes.append(try RunHarness.single(yaml))
        for outcome in outcomes {
            #expect(OneWorldTests.verdictText(outcome) == "matched []")
            let steps = outcome.trace.info.steps
            let read = try #require(steps.first { $0.text.hasPrefix("look: read") }).index
            let sleep = try #require(steps.first { $0.text.hasPrefix("sleep") }).index
            let readStarted = try #require(outcome.trace.events.first { $0.step == read && $0.kind == .stepStarted }).t
            let sleepEnded = try #require(outcome.trace.events.first { event in
                if event.step == sleep, case .stepEnded = event.kind { true } else { false }
            }).t
            #expect(readStarted < sleepEnded, "\(outcome.plan.mode)")
        }
    }
}
