import Basics
import Checkers
import Foundation
import Runner
import ScenarioModel
import Testing
import TestSupport
import Trace

/// When the system runs a widget's reloads (delay and budget on the simulated clock, coalesced
/// requests, a new budget each simulated day) and what a reload and a push do to their processes.
@Suite(.serialized, .spawnsProcesses) struct SystemWorkTests {
    private func yaml(widget: String, onReload: String = "      - { fetch: Note }", steps: String) -> String {
        """
        summary: Reloads.
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
        \(widget)
            on-reload:
        \(onReload)
          service:
            role: notification-service
            on-push:
              - { insert: Note, id: m1, set: { title: Pushed } }
              - save
        steps:
          - app: launch
        \(steps)
        """
    }

    /// The plan's steps as text, with the notes the plan left on them.
    private func plan(widget: String = "", _ steps: String) throws -> [String] {
        try RunHarness.plannedSteps(yaml(widget: widget, steps: steps))
    }

    @Test func aReloadRunsRightAfterItsRequestWithNoDelay() throws {
        let steps = try plan("  - app: { reload-timelines: widget }\n  - app: save")
        #expect(steps == ["app: launch", "app: reload-timelines of widget", "widget: reload (requested at step 1)", "app: save"])
    }

    @Test func aDelayedReloadWaitsForTheSimulatedClockAndRequestsMeanwhileAreCoalesced() throws {
        let steps = try plan(widget: "    reload-delay: 20s", """
              - app: { reload-timelines: widget }
              - app: { reload-timelines: true }
              - clock: { advance: 19s }
              - app: save
              - clock: { advance: 1s }
              - app: save
            """)
        #expect(steps == [
            "app: launch", "app: reload-timelines of widget", "app: reload-timelines", "clock advance 19s", "app: save",
            "clock advance 1s", "widget: reload (requested at step 1)", "app: save",
        ])
    }

    /// A sleep is time the steps say passes: it moves the reload's clock as `clock: advance` does (the
    /// docs probe's widget never reloaded after a 1.5 s sleep past a 1 s delay), a `parallel` by its
    /// longest branch.
    @Test func aSleepMovesTheReloadClockAndAParallelByItsLongestBranch() throws {
        let slept = try plan(widget: "    reload-delay: 1s", """
              - app: { reload-timelines: widget }
              - sleep: 600ms
              - app: save
              - sleep: 600ms
              - app: save
            """)
        #expect(slept.firstIndex(of: "widget: reload (requested at step 1)") == 5, "\(slept)")
        let together = try plan(widget: "    reload-delay: 1s", """
              - app: { reload-timelines: widget }
              - parallel:
                  - [ { sleep: 700ms }, { app: save } ]
                  - [ { sleep: 200ms }, { sleep: 200ms } ]
              - app: save
            """)
        #expect(!together.contains("widget: reload (requested at step 1)"), "700 ms, not 1.1 s: \(together)")
    }

    private func branches(widget: String = "", _ steps: String, at position: Int) throws -> [String] {
        try RunHarness.plannedBranches(yaml(widget: widget, steps: steps), at: position)
    }

    /// A reload that comes due while a `parallel` runs runs beside its branches at its moment, not once the
    /// longest branch has ended: 20 ms after a request at its start, in a branch of its own; one asked for
    /// with no delay, just after its request, in the request's branch.
    @Test func aReloadDueWhileAParallelRunsRunsAtItsMoment() throws {
        #expect(try branches(widget: "    reload-delay: 20ms", """
              - parallel:
                  - [ { app: { reload-timelines: widget } }, { sleep: 60ms } ]
                  - sleep: 40ms
            """, at: 1) == [
            "app: reload-timelines of widget ; sleep 60ms", "sleep 40ms", "sleep 20ms ; widget: reload (requested at step 1)",
        ])
        #expect(try branches("""
              - parallel:
                  - sleep: 30ms
                  - [ { sleep: 10ms }, { app: { reload-timelines: widget } } ]
            """, at: 1) == ["sleep 30ms", "sleep 10ms ; app: reload-timelines of widget ; widget: reload (requested at step 1)"])
        // Due after the parallel: after it, as before.
        let after = try plan(widget: "    reload-delay: 1s", """
              - parallel: [ { app: { reload-timelines: widget } }, { sleep: 100ms } ]
              - sleep: 1s
            """)
        #expect(after.suffix(2) == ["sleep 1s", "widget: reload (requested at step 1)"], "\(after)")
    }

    /// Reloads inside a `parallel` are planned in the order of their moments, so a count written as a list
    /// (`expect: [0, 1]`) gives its first value to the reload that runs first: the one due 10 ms in, not the
    /// one a clock advance 20 ms in brings due (placed beside a step, it was planned first and took the 0).
    @Test func aWidgetsReloadsInsideAParallelTakeTheirCountsInTheOrderTheyRun() throws {
        let yaml = yaml(widget: "    reload-delay: 10ms", onReload: "      - { count: Note, expect: [0, 1] }", steps: """
              - parallel:
                  - [ { app: reload-timelines }, { sleep: 20ms }, { app: { insert: Note, id: n1, set: { title: A } } }, { app: save },
                      { app: reload-timelines } ]
                  - [ { sleep: 20ms }, { clock: { advance: 1s } } ]
            """)
        #expect(try RunHarness.plannedBranches(yaml, at: 1, work: true) == [
            "app: reload-timelines ; sleep 20ms ; app: insert Note n1 {title: A} ; app: save ; app: reload-timelines",
            "sleep 20ms ; clock advance 1s ; widget: reload (requested at step 1) [widget: count Note expect 1 within 1s]",
            "sleep 10ms ; widget: reload (requested at step 1) [widget: count Note expect 0 within 1s]",
        ])
    }

    /// The system's work written after a check of another process starts after the check's first attempt,
    /// on every seed as in real time, which sends the check and then runs the work inline: a check given
    /// 20 ms sees neither a push's message nor a widget reload's save, each 40 ms of launch away. The
    /// deterministic mode ran the push first on every seed (its work took no window to wait for), and the
    /// reload before the check on some (the request before it runs inline), and the checks passed.
    @Test func theSystemsWorkWrittenAfterACheckStartsAfterItsFirstAttempt() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let push = OneWorldTests.header + """
            processes:
              app: { role: host, refresh: history }
              service: { role: notification-service, on-push: [ { insert: Note, id: m1, set: { title: Hi } }, save ] }
            steps:
              - app: launch
              - app: { fetch: Note }
              - parallel:
                  - app: { count: Note, expect: 1, within: 20ms }
                  - service: push
            expect: [unmet-expectation]
            """
        let reload = OneWorldTests.header + """
            processes:
              app: { role: host }
              share: { role: share, refresh: history }
              widget: { role: widget, between-reloads: exit, on-reload: [ { insert: Note, id: w1, set: { title: W } }, save ] }
            steps:
              - app: launch
              - share: launch
              - share: { fetch: Note }
              - parallel:
                  - app: { reload-timelines: widget }
                  - share: { count: Note, expect: 1, within: 20ms }
            expect: [unmet-expectation]
            """
        for yaml in [push, reload] {
            let verdicts = try OneWorldTests.verdicts(yaml, seeds: 1...4, pool: pool)
            #expect(Set(verdicts) == ["matched [\"unmet-expectation\"]"], "\(verdicts)")
        }
    }

    /// The same, run: the widget reloaded 20 ms in shows the title before the extension's save 40 ms in, in
    /// both modes and on every seed (`not-converged` at the end, as the widget is not reloaded again).
    @Test(arguments: RunMode.allCases)
    func aReloadInsideAParallelRendersWhatWasCommittedAtItsMoment(mode: RunMode) throws {
        let yaml = """
            summary: A reload beside a save.
            store: { group: group.example.notes, name: Notes, model: { Note: { title: string } } }
            processes:
              app: { role: host, refresh: history }
              share: { role: share }
              widget: { role: widget, refresh: refetch, reload-delay: 20ms, between-reloads: exit, on-reload: [ { fetch: Note }, { read: n1 } ] }
            steps:
              - app: launch
              - app: { insert: Note, id: n1, set: { title: A } }
              - app: save
              - share: launch
              - parallel:
                  - [ { app: { reload-timelines: widget } }, { sleep: 60ms } ]
                  - [ { sleep: 40ms }, { share: { update: n1, set: { title: B } } }, { share: save } ]
              - share: exit
            expect: [not-converged]
            """
        for seed in mode == .deterministic ? [UInt64(1), 2, 3] : [nil] {
            let outcome = try RunHarness.single(yaml, mode: mode, seed: seed)
            #expect(outcome.harnessError == nil)
            #expect(OneWorldTests.verdictText(outcome) == "matched [\"not-converged\"]", "seed \(seed.map(String.init) ?? "-")")
            let shown = outcome.reads(of: "n1", by: "widget").map { $0.values["title"] }
            #expect(shown == [.string("A")], "seed \(seed.map(String.init) ?? "-"): \(shown)")
        }
    }

    /// A control reloaded at once beside an extension's save: real time sends the save first and launches
    /// the control after the app's request, and the save commits while the control starts, so its fetch
    /// shows the light on and the tap turns it off, in every run. The deterministic mode ran the reload
    /// before the save on some seeds, and let its 40 ms launch pass without the save committing on others.
    @Test func aReloadBesideASaveShowsTheSaveAsInRealTime() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let yaml = """
            summary: A control reload beside a save.
            store: { group: group.example.home, name: Home, model: { Light: { name: string, isOn: bool = false } } }
            processes:
              app: { role: host, refresh: history }
              share: { role: share }
              power: { role: control, between-reloads: exit, on-reload: [ { fetch: Light }, { read: l1 } ] }
              set-power: { role: intent, control: power }
            steps:
              - app: launch
              - app: { insert: Light, id: l1, set: { name: Porch } }
              - app: save
              - share: launch
              - share: { update: l1, set: { isOn: true } }
              - parallel:
                  - { share: save }
                  - { app: { reload-controls: power } }
              - share: exit
              - set-power: { toggle: l1, property: isOn }
              - set-power: save
              - app: { read: l1, expect: { isOn: false }, within: 100ms }
            """
        // Real time gives it in every run on a quiet machine (the save commits within 40 ms of its start);
        // a race with the cores busy, so only the deterministic mode is asserted.
        for seed in UInt64(1)...4 {
            let outcome = try RunHarness.single(yaml, mode: .deterministic, seed: seed, pool: pool)
            #expect(outcome.harnessError == nil)
            #expect(OneWorldTests.verdictText(outcome) == "matched []", "seed \(seed)")
        }
    }

    @Test func requestsPastTheDailyBudgetAreIgnoredUntilTheNextSimulatedDay() throws {
        // With the app in the background: a request made in the foreground costs no budget.
        let steps = try plan(widget: "    reload-budget: 1", """
              - app: background
              - app: { reload-timelines: widget }
              - app: { reload-timelines: widget }
              - clock: { advance: 1d }
              - app: { reload-timelines: widget }
            """)
        #expect(steps == [
            "app: launch", "app: background", "app: reload-timelines of widget", "widget: reload (requested at step 2)",
            "app: reload-timelines of widget [the system ignored the request to reload widget: its budget of 1 reload a day (reload-budget) is used up.]",
            "clock advance 1d", "app: reload-timelines of widget", "widget: reload (requested at step 7)",
        ])
    }

    /// Reloads that fall due together run in the order they fell due, not the order they were asked for.
    @Test func reloadsDueTogetherRunInTheOrderTheyFellDue() throws {
        let steps = try RunHarness.plannedSteps("""
            summary: Two widgets, two delays.
            store:
              group: group.example.notes
              name: Notes
              model:
                Note:
                  title: string
            processes:
              app:
                role: host
              slow:
                role: widget
                reload-delay: 20s
                on-reload:
                  - { fetch: Note }
              quick:
                role: widget
                reload-delay: 5s
                on-reload:
                  - { fetch: Note }
            steps:
              - app: launch
              - app: { reload-timelines: slow }
              - app: { reload-timelines: quick }
              - clock: { advance: 1m }
            """)
        #expect(steps.suffix(3) == ["clock advance 1m", "quick: reload (requested at step 2)", "slow: reload (requested at step 1)"],
                "\(steps)")
    }

    /// A request the budget refuses takes no reload's place: the timeline policy's reload still runs, at
    /// the start of the next simulated day. The refused request had cancelled it, and the widget never
    /// showed the last save.
    @Test func aRefusedRequestLeavesTheTimelinePolicysReload() throws {
        let steps = try plan(widget: "    reload-budget: 2\n    timeline-policy: { after: 15m }", """
              - app: background
              - app: { reload-timelines: widget }
              - app: { reload-timelines: widget }
              - app: { reload-timelines: widget }
              - clock: { advance: 1d }
            """)
        #expect(steps.contains { $0.contains("ignored the request") }, "\(steps)")
        let advance = try #require(steps.firstIndex(of: "clock advance 1d"))
        #expect(steps[(advance + 1)...].contains { $0.hasPrefix("widget: reload") }, "\(steps)")
    }

    /// WidgetKit counts no reload asked while the containing app is in the foreground (issue 29).
    @Test func requestsWithTheAppInTheForegroundCostNoBudget() throws {
        let steps = try plan(widget: "    reload-budget: 1", """
              - app: { reload-timelines: widget }
              - app: { reload-timelines: widget }
              - app: { reload-timelines: widget }
            """)
        #expect(!steps.contains { $0.contains("ignored") }, "\(steps)")
        #expect(steps.filter { $0.hasPrefix("widget: reload") }.count == 3)
    }

    @Test func aReloadTheRunNeverReachesIsNotedOnItsRequest() throws {
        let steps = try plan(widget: "    reload-delay: 1m", "  - app: { reload-timelines: widget }")
        #expect(steps.last == "app: reload-timelines of widget [the system would reload widget at +1m on the simulated clock (reload-delay), and the run ended first: the reload never ran.]")
    }

    @Test(arguments: RunMode.allCases, [BetweenWork.suspend, .exit])
    func aReloadStartsTheWidgetRunsItsWorkAndSuspendsOrEndsIt(mode: RunMode, between: BetweenWork) throws {
        let outcome = try RunHarness.single(yaml(widget: "    between-reloads: \(between.rawValue)", steps: """
              - app: { reload-timelines: widget }
              - app: { reload-timelines: widget }
            """), mode: mode)
        #expect(outcome.harnessError == nil)
        let states = outcome.events(of: "widget").compactMap { event -> LifecycleState? in
            if case .lifecycle(let change) = event.kind { change.state } else { nil }
        }
        let expected: [LifecycleState] = between == .suspend
            ? [.launching, .active, .suspended, .active, .suspended, .active, .exited]
            : [.launching, .active, .exited, .launching, .active, .exited]
        #expect(states == expected)
        let views = outcome.events(of: "widget").filter { if case .finalView = $0.kind { true } else { false } }
        #expect(views.count >= 2, "each reload records what it rendered")
    }

    @Test func aReadOnlyWidgetReadsTheStoreAndEverySaveFailsReadOnly() throws {
        let outcome = try RunHarness.single(yaml(widget: "    read-only: true", onReload: """
                  - { update: m1, set: { title: Edited } }
                  - { save: true, expect-error: read-only }
            """, steps: "  - service: push\n  - app: { reload-timelines: widget }"))
        #expect(outcome.harnessError == nil)
        let result = TraceChecker.check(outcome.trace)
        #expect(result.verdict.matched, "\(result.anomalies.map(\.explanation))")
        let failures = outcome.events(of: "widget").compactMap { if case .saveFailed(let error) = $0.kind { error.kind } else { nil } }
        #expect(failures == [.readOnly])
    }

    @Test(arguments: RunMode.allCases)
    func aPushLaunchesTheExtensionRunsItsWorkAndEndsIt(mode: RunMode) throws {
        let outcome = try RunHarness.single(yaml(widget: "", steps: "  - service: push\n  - app: { fetch: Note }\n  - app: { count: Note, expect: 1, now: true }"), mode: mode)
        #expect(outcome.harnessError == nil)
        let states = outcome.events(of: "service").compactMap { event -> LifecycleState? in
            if case .lifecycle(let change) = event.kind { change.state } else { nil }
        }
        #expect(states == [.launching, .active, .exited])
        #expect(TraceChecker.check(outcome.trace).verdict.matched)
    }
}

/// A notification service extension kept between pushes (`between-pushes: suspend`): resumed for the next
/// push with the contexts it had, so a refetch there keeps the objects it registered at the first push
/// (the second push's count sees the message as the first push left it: a stale read; the extension shows
/// nothing, so its view is not judged at the end); one that exits starts afresh.
@Suite(.serialized, .spawnsProcesses) struct ReusedPushProcessTests {
    private func yaml(between: BetweenWork) -> String {
        """
        summary: The app edits a message between two pushes; the extension reads it at each push.
        store:
          group: group.example.chat
          name: Chat
          model:
            Message: { title: string }
        processes:
          app: { role: host }
          service:
            role: notification-service
            between-pushes: \(between.rawValue)
            on-push:
              - { fetch: Message }
              - { count: Message, where: "title == 'edited'", expect: [0, 1], now: true }
        expect: \(between == .suspend ? "[stale-read]" : "pass")
        steps:
          - app: launch
          - app: { insert: Message, id: m1, set: { title: first } }
          - app: save
          - service: push
          - app: { update: m1, set: { title: edited } }
          - app: save
          - service: push
        """
    }

    @Test(arguments: RunMode.allCases, BetweenWork.allCases)
    func aPushResumesTheKeptProcessOrLaunchesItAfresh(mode: RunMode, between: BetweenWork) throws {
        let outcome = try RunHarness.single(yaml(between: between), mode: mode)
        #expect(outcome.harnessError == nil)
        let states = outcome.events(of: "service").compactMap { event -> LifecycleState? in
            if case .lifecycle(let change) = event.kind { change.state } else { nil }
        }
        let expected: [LifecycleState] = between == .suspend
            ? [.launching, .active, .suspended, .active, .suspended]
            : [.launching, .active, .exited, .launching, .active, .exited]
        #expect(Array(states.prefix(expected.count)) == expected, "\(states)")
        let result = TraceChecker.check(outcome.trace)
        #expect(result.verdict.matched, "\(result.anomalies.map(\.explanation))")
    }
}

/// Pushes that carry payloads: each runs the extension's `on-push:` with its own values, in both modes,
/// whether the process is kept between pushes or launched for each.
@Suite(.serialized, .spawnsProcesses) struct PushPayloadRunTests {
    private func yaml(between: BetweenWork) -> String {
        """
        summary: Each push's message is saved by the extension and reaches the app.
        store: { group: group.example.chat, name: Chat, model: { Message: { text: string, seq: int } } }
        processes:
          app: { role: host, refresh: history, trigger: darwin }
          service:
            role: notification-service
            between-pushes: \(between.rawValue)
            on-push:
              - { insert: Message, id: $id, set: { text: $text, seq: $seq } }
              - save
              - { fetch: Message }
              - { count: Message, expect: [1, 2] }
        steps:
          - app: launch
          - app: { fetch: Message }
          - service: { push: { id: m1, text: Hello, seq: 1 } }
          - service: { push: { id: m2, text: "$5 off", seq: 2 } }
          - app: { read: m2, expect: { text: "$5 off", seq: 2 }, within: 1s }
          - app: { read: m1, expect: { text: Hello, seq: 1 }, within: 1s }
          - app: { count: Message, expect: 2, within: 1s }
        """
    }

    @Test(arguments: RunMode.allCases, BetweenWork.allCases)
    func eachPushSavesItsOwnMessage(mode: RunMode, between: BetweenWork) throws {
        let outcome = try RunHarness.single(yaml(between: between), mode: mode)
        #expect(outcome.harnessError == nil)
        let committed = outcome.events(of: "service").compactMap { event -> [String]? in
            guard case .saveCommitted(let commit) = event.kind else { return nil }
            return commit.objects.filter { $0.operation == .insert }.map(\.id)
        }
        #expect(committed == [["m1"], ["m2"]], "\(committed)")
        let result = TraceChecker.check(outcome.trace)
        #expect(result.verdict.matched, "\(result.anomalies.map(\.explanation))")
    }
}

/// Where an App Intent's steps run: the host's process when it runs and is not suspended, else (for a
/// widget's button) that widget's, else its own; in another process through a context of the intent's own.
@Suite(.serialized, .spawnsProcesses) struct IntentRoutingTests {
    private func yaml(widget: Bool, button: Bool = false, appTarget: Bool = false, _ steps: String) -> String {
        """
        summary: Intents.
        store:
          group: group.example.notes
          name: Notes
          model:
            Note:
              title: string
        processes:
          app: { role: host }
        \(widget ? "  widget: { role: widget, on-reload: [ { fetch: Note } ] }" : "")
          intent: { role: intent\(button ? ", widget-button: widget" : "")\(appTarget ? ", runs-in: app" : "") }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
        \(steps)
        """
    }

    private func notes(_ outcome: RunOutcome) -> [String] {
        outcome.trace.events.compactMap { if case .note(let text) = $0.kind, text.hasPrefix("intent's step") { text } else { nil } }
    }

    private func committer(_ outcome: RunOutcome) -> String? {
        outcome.trace.events.last { if case .saveCommitted = $0.kind { true } else { false } }?.process
    }

    @Test(arguments: RunMode.allCases)
    func withTheHostRunningTheIntentRunsInItsProcessThroughItsOwnContext(mode: RunMode) throws {
        let outcome = try RunHarness.single(yaml(widget: false, "  - intent: { update: n1, set: { title: B } }\n  - intent: save"), mode: mode)
        #expect(outcome.harnessError == nil)
        #expect(notes(outcome) == ["intent's step runs in app's process, through a context of intent's own",
                                   "intent's step runs in app's process, through a context of intent's own"])
        #expect(committer(outcome) == "app")
    }

    @Test func withTheHostSuspendedAWidgetButtonsIntentRunsInTheWidgetWhichItKeepsRunning() throws {
        let outcome = try RunHarness.single(yaml(widget: true, button: true, """
              - app: { reload-timelines: widget }
              - app: suspend
              - intent: { update: n1, set: { title: B } }
              - intent: save
              - app: resume
            """))
        #expect(outcome.harnessError == nil)
        #expect(notes(outcome).allSatisfy { $0.hasPrefix("intent's step runs in widget's process") } && notes(outcome).count == 2)
        #expect(committer(outcome) == "widget")
        let widgetStates = outcome.events(of: "widget").compactMap { if case .lifecycle(let change) = $0.kind { change.state } else { nil } }
        #expect(Array(widgetStates.prefix(5)) == [.launching, .active, .suspended, .active, .suspended],
                "resumed for the intent's first step, running through its save, suspended after the reload the button's save asks for")
    }

    /// An intent run from Shortcuts or Siri never runs in a widget's process: with the host suspended it
    /// runs in its own, as an App Intents extension's (held-out probe: it ran in the widget's).
    @Test func withTheHostSuspendedAShortcutsIntentRunsInItsOwnProcessNotTheWidgets() throws {
        let outcome = try RunHarness.single(yaml(widget: true, """
              - app: { reload-timelines: widget }
              - app: suspend
              - intent: { update: n1, set: { title: B } }
              - intent: save
              - app: resume
            """))
        #expect(outcome.harnessError == nil)
        #expect(notes(outcome) == ["intent's step runs in intent's process", "intent's step runs in intent's process"])
        #expect(committer(outcome) == "intent")
    }

    private func states(_ outcome: RunOutcome, of process: String) -> [LifecycleState] {
        outcome.events(of: process).compactMap { if case .lifecycle(let change) = $0.kind { change.state } else { nil } }
    }

    /// An intent built into the app (`runs-in: app`) runs in the app's process even when it is
    /// suspended: the system resumes the app to perform it, and leaves it running.
    @Test(arguments: RunMode.allCases)
    func anAppTargetIntentResumesTheSuspendedApp(mode: RunMode) throws {
        let outcome = try RunHarness.single(yaml(widget: false, appTarget: true, """
              - app: background
              - app: suspend
              - intent: { update: n1, set: { title: B } }
              - intent: save
              - app: foreground
            """), mode: mode)
        #expect(outcome.harnessError == nil, "\(String(describing: outcome.harnessError))")
        #expect(notes(outcome) == ["intent's step runs in app's process, through a context of intent's own",
                                   "intent's step runs in app's process, through a context of intent's own"])
        #expect(committer(outcome) == "app")
        #expect(states(outcome, of: "app").dropLast().suffix(4) == [.background, .suspended, .background, .active], "\(states(outcome, of: "app"))")
        #expect(states(outcome, of: "intent").isEmpty, "no process of the intent's own")
    }

    /// With the app not running, the system launches it in the background to perform the intent.
    @Test(arguments: RunMode.allCases)
    func anAppTargetIntentLaunchesTheAppInTheBackground(mode: RunMode) throws {
        let outcome = try RunHarness.single(yaml(widget: false, appTarget: true, """
              - app: exit
              - intent: { update: n1, set: { title: B } }
              - intent: save
              - app: { read: n1, expect: { title: B }, within: 2s }
            """), mode: mode)
        #expect(outcome.harnessError == nil, "\(String(describing: outcome.harnessError))")
        #expect(committer(outcome) == "app")
        #expect(states(outcome, of: "app").dropLast().suffix(4) == [.exited, .launching, .active, .background], "\(states(outcome, of: "app"))")
    }

    /// Validation follows the app's lifecycle through the intent: it runs after it, so the app may read
    /// (refused when an extension's process performed the intent); `runs-in` belongs to intents, and
    /// `runs-in: app` needs an app.
    @Test func validationFollowsTheAppThroughAnAppTargetIntent() throws {
        func errors(_ text: String) -> String {
            do {
                _ = try ScenarioLoader.parse(yaml: text, file: "i.yaml")
                return ""
            } catch {
                return "\(error)"
            }
        }
        let steps = "  - app: suspend\n  - intent: { update: n1, set: { title: B } }\n  - intent: save\n  - app: { read: n1, now: true }"
        #expect(errors(yaml(widget: false, appTarget: true, steps)) == "", "the intent resumed the app")
        let suspended = errors(yaml(widget: false, steps))
        #expect(suspended.contains("i.yaml:19:5:") && suspended.contains("'app' cannot read: it is suspended here"), "\(suspended)")
        let onHost = yaml(widget: false, "").replacingOccurrences(of: "app: { role: host }", with: "app: { role: host, runs-in: app }")
        #expect(errors(onHost).contains("runs-in is an App Intent's setting, and 'app' is an app"), "\(errors(onHost))")
        let noApp = yaml(widget: false, appTarget: true, "").replacingOccurrences(of: "app: { role: host }", with: "app: { role: share }")
            .replacingOccurrences(of: "  - app: launch\n  - app: { insert: Note, id: n1, set: { title: A } }\n  - app: save\n", with: "  - intent: save\n")
        #expect(errors(noApp).contains("runs-in: app performs the intent in the app's process, and no process is role: host"), "\(errors(noApp))")
    }

    @Test func withNoHostRunningAndNoWidgetTheIntentRunsInItsOwnProcess() throws {
        let outcome = try RunHarness.single(yaml(widget: false, "  - app: exit\n  - intent: { update: n1, set: { title: B } }\n  - intent: save"))
        #expect(outcome.harnessError == nil)
        #expect(notes(outcome) == ["intent's step runs in intent's process", "intent's step runs in intent's process"])
        #expect(committer(outcome) == "intent")
    }
}

/// A restore is one commit that makes every row the copy's: what was committed after the copy was taken
/// is gone by it, not lost, and reads after it are judged against the copy.
@Suite(.serialized, .spawnsProcesses) struct RestoreJudgmentTests {
    @Test(arguments: RunMode.allCases)
    func changesAfterTheCopyAreUndoneByTheRestoreNotLost(mode: RunMode) throws {
        let outcome = try RunHarness.single("""
            summary: Restore.
            store:
              group: group.example.notes
              name: Notes
              model:
                Note:
                  title: string
            processes:
              app: { role: host, refresh: staleness, staleness: 0 }
              share: { role: share }
            steps:
              - app: launch
              - app: { insert: Note, id: n1, set: { title: A } }
              - app: { insert: Note, id: n2, set: { title: Kept } }
              - app: save
              - app: { copy-store: backup }
              - app: { update: n1, set: { title: B } }
              - app: { insert: Note, id: n3, set: { title: After the copy } }
              - app: save
              - app: exit
              - restore-store: backup
              - app: launch
              - app: { fetch: Note }
              - app: { read: n1, expect: { title: A }, now: true }
              - app: { count: Note, expect: 2, now: true }
              - share: launch
              - share: { update: n1, set: { title: C } }
              - share: save
              - app: { read: n1, expect: { title: C }, within: 1s }
            """, mode: mode)
        #expect(outcome.harnessError == nil)
        let result = TraceChecker.check(outcome.trace)
        #expect(result.anomalies.isEmpty, "\(result.anomalies.map(\.explanation))")
        let restore = outcome.trace.events.compactMap { if case .saveCommitted(let commit) = $0.kind, commit.source == .restore { commit } else { nil } }
        #expect(restore.count == 1)
        #expect(restore.first?.objects.map(\.operation).sorted { $0.rawValue < $1.rawValue } == [.delete, .update, .update])
    }

    /// A widget suspended between reloads still has the store open; the file cannot end it (the system
    /// runs it), so the system ends it before the app's restore, and the widget's next reload launches it
    /// on the restored store. It was a harness error in both modes.
    @Test(arguments: RunMode.allCases)
    func theSystemEndsAWidgetItRunsBeforeARestore(mode: RunMode) throws {
        let outcome = try RunHarness.single("""
            summary: Restore beside a widget.
            store:
              group: group.example.notes
              name: Notes
              model:
                Note:
                  title: string
            processes:
              app: { role: host }
              widget:
                role: widget
                on-reload:
                  - { fetch: Note }
                  - { read: n1 }
            steps:
              - app: launch
              - app: { insert: Note, id: n1, set: { title: A } }
              - app: save
              - app: { copy-store: backup }
              - app: { reload-timelines: widget }
              - app: { update: n1, set: { title: B } }
              - app: save
              - app: exit
              - restore-store: backup
              - app: launch
              - app: { fetch: Note }
              - app: { read: n1, expect: { title: A }, now: true }
              - app: { reload-timelines: widget }
            """, mode: mode)
        #expect(outcome.harnessError == nil, "\(String(describing: outcome.harnessError))")
        #expect(TraceChecker.check(outcome.trace).verdict.matched)
        let ended = outcome.trace.events.contains { event in
            if case .lifecycle(let change) = event.kind { event.process == "widget" && change.state == .terminated } else { false }
        }
        #expect(ended, "the widget was ended before the restore")
    }
}

/// Hundreds of clock steps in a row: the runner sends them without awaiting replies, so the agent must
/// not answer them (its replies would fill the pipe and both sides would block writing).
@Suite(.serialized, .spawnsProcesses) struct ClockFloodTests {
    @Test func sevenHundredClockStepsInARowFinish() throws {
        let steps = String(repeating: "  - clock: { advance: 1us }\n", count: 700)
        let outcome = try RunHarness.single("""
            summary: Clock flood.
            store:
              group: group.example.notes
              name: Notes
              model:
                Note:
                  title: string
            processes:
              app: { role: host }
            steps:
              - app: launch
            \(steps)  - app: { insert: Note, id: n1, set: { title: A } }
              - app: save
            """)
        #expect(outcome.harnessError == nil)
        #expect(TraceChecker.check(outcome.trace).verdict.matched)
    }

    /// An App Intent that ran in a process of its own (the app not running) is ended by the system once
    /// perform() returns: a later edit elsewhere is no convergence failure of its view.
    @Test(arguments: RunMode.allCases)
    func anIntentsOwnProcessIsNotJudgedAtTheEnd(mode: RunMode) throws {
        let outcome = try RunHarness.single("""
            summary: An intent saves in its own process; the share extension edits the note later.
            store:
              group: group.example.notes
              name: Notes
              model:
                Note: { title: string, pinned: bool = false }
            processes:
              app: { role: host, refresh: history }
              share: { role: share }
              pin: { role: intent }
            steps:
              - app: launch
              - app: { insert: Note, id: n1, set: { title: A } }
              - app: save
              - app: exit
              - pin: { update: n1, set: { pinned: true } }
              - pin: save
              - share: launch
              - share: { update: n1, set: { title: B } }
              - share: save
              - app: launch
              - app: { fetch: Note }
              - app: { read: n1, expect: { title: B, pinned: true }, now: true }
            expect: pass
            """, mode: mode)
        #expect(outcome.harnessError == nil)
        let result = TraceChecker.check(outcome.trace)
        #expect(result.verdict.matched, "\(result.anomalies.map(\.explanation))")
    }
}
