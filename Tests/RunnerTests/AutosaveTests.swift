import Basics
import Checkers
import Foundation
import Runner
import ScenarioModel
import Testing
import TestSupport
import Trace

/// A SwiftData process's main context autosaves where the plan says (after `autosave-delay` on the
/// simulated clock, at `background`), in both modes; what a process ends with unsaved is
/// `unsaved-changes-lost`.
@Suite(.serialized, .spawnsProcesses) struct AutosaveTests {
    private func yaml(app: String = "framework: swiftdata", share: String = "framework: swiftdata", steps: String) -> String {
        """
        summary: Autosave.
        store: { group: group.example.notes, name: Notes, model: { Note: { title: string } } }
        processes:
          app: { role: host, \(app) }
          share: { role: share, \(share) }
        steps:
          - app: launch
        \(steps)
        """
    }

    private func autosaves(_ yaml: String) throws -> [String] {
        try RunHarness.plannedSteps(yaml).filter { $0.contains("autosave") }
    }

    @Test func theAutosaveRunsAfterTheStepThatTakesTheClockPastTheDelay() throws {
        let steps = try RunHarness.plannedSteps(yaml(steps: """
              - app: { insert: Note, id: n1, set: { title: A } }
              - sleep: 600ms
              - app: { update: n1, set: { title: B } }
              - sleep: 600ms
              - app: { read: n1 }
            """))
        // The timer starts at the first change (step 1) and runs out during the second sleep.
        #expect(steps == [
            "app: launch", "app: insert Note n1 {title: A}", "sleep 600ms", "app: update n1 {title: B}", "sleep 600ms",
            "app: autosave (changes since step 1)", "app: read n1 within 1s",
        ])
    }

    @Test func noAutosaveWhenTheChangesWereSavedOrTheProcessEndedFirst() throws {
        #expect(try autosaves(yaml(steps: "  - app: { insert: Note, id: n1 }\n  - app: save\n  - sleep: 2s")).isEmpty)
        #expect(try autosaves(yaml(steps: "  - app: { insert: Note, id: n1 }\n  - app: exit\n  - sleep: 2s")).isEmpty)
        #expect(try autosaves(yaml(steps: "  - app: { insert: Note, id: n1 }\n  - app: rollback\n  - sleep: 2s")).isEmpty)
        // A change through a background context is that context's to save.
        #expect(try autosaves(yaml(app: "framework: swiftdata, contexts: { importer: {} }",
                                   steps: "  - app: { insert: Note, id: n1, context: importer }\n  - sleep: 2s")).isEmpty)
        // Autosave off, or a Core Data process: never.
        #expect(try autosaves(yaml(app: "framework: swiftdata, autosave: false", steps: "  - app: { insert: Note, id: n1 }\n  - sleep: 2s")).isEmpty)
        #expect(try autosaves(yaml(app: "refresh: none", steps: "  - app: { insert: Note, id: n1 }\n  - sleep: 2s")).isEmpty)
    }

    @Test func goingToTheBackgroundAutosavesAtOnce() throws {
        #expect(try autosaves(yaml(steps: "  - app: { insert: Note, id: n1 }\n  - app: background")) == [
            "app: autosave (changes since step 1)",
        ])
    }

    @Test func anAppSuspendedFromTheForegroundAutosavesFirstAndAnExtensionDoesNot() throws {
        let steps = try RunHarness.plannedSteps(yaml(steps: """
              - app: { insert: Note, id: n1 }
              - app: suspend
              - share: launch
              - share: { insert: Note, id: n2 }
              - share: suspend
            """))
        #expect(steps == [
            "app: launch", "app: insert Note n1 {}", "app: autosave (changes since step 1)", "app: suspend", "share: launch",
            "share: insert Note n2 {}", "share: suspend",
        ])
    }

    @Test(arguments: RunMode.allCases)
    func whatAnIntentLeftUnsavedInAProcessOfItsOwnIsLost(mode: RunMode) throws {
        let outcome = try RunHarness.single("""
            summary: An intent that returns without saving.
            store: { group: group.example.notes, name: Notes, model: { Note: { title: string } } }
            processes:
              app: { role: host, framework: swiftdata }
              rename: { role: intent, framework: swiftdata }
            steps:
              - app: launch
              - app: { insert: Note, id: n1, set: { title: A } }
              - app: save
              - app: background
              - app: suspend
              - rename: { update: n1, set: { title: B } }
            """, mode: mode)
        #expect(outcome.harnessError == nil)
        let lost = TraceChecker.check(outcome.trace).anomalies.filter { $0.kind == .unsavedChangesLost }
        #expect(lost.map(\.process) == ["rename"], "\(lost.map(\.explanation))")
    }

    @Test func aSuspendedProcessAutosavesWhenResumed() throws {
        let steps = try RunHarness.plannedSteps(yaml(steps: """
              - app: { insert: Note, id: n1 }
              - app: background
              - app: { update: n1, set: { title: B } }
              - app: suspend
              - sleep: 5s
              - app: resume
            """))
        // Step 3 is the autosave at the background; the update after it (step 4) starts the timer again.
        #expect(steps.suffix(3) == ["sleep 5s", "app: resume", "app: autosave (changes since step 4)"])
    }

    @Test(arguments: RunMode.allCases)
    func anAutosaveCommitsWhatTheExtensionLeftAndOtherProcessesSeeIt(mode: RunMode) throws {
        let outcome = try RunHarness.single(yaml(app: "framework: swiftdata, refresh: new-context", steps: """
              - app: { fetch: Note }
              - share: launch
              - share: { insert: Note, id: n1, set: { title: Saved by autosave } }
              - sleep: 1500ms
              - share: exit
              - app: { fetch: Note }
              - app: { read: n1, expect: { title: Saved by autosave }, within: 1s }
            """), mode: mode)
        #expect(outcome.harnessError == nil)
        let commits = outcome.events(of: "share").compactMap { if case .saveCommitted(let commit) = $0.kind { commit } else { nil } }
        #expect(commits.map(\.source) == [.autosave])
        let result = TraceChecker.check(outcome.trace)
        #expect(result.anomalies.isEmpty, "\(result.anomalies.map(\.explanation))")
    }

    @Test(arguments: RunMode.allCases)
    func whatAnExtensionEndsWithUnsavedIsLost(mode: RunMode) throws {
        let outcome = try RunHarness.single(yaml(share: "framework: swiftdata, autosave: false", steps: """
              - share: launch
              - share: { insert: Note, id: n1, set: { title: Never saved } }
              - share: exit
              - app: { fetch: Note }
              - app: { read: n1, expect: { title: Never saved }, within: 200ms }
            """), mode: mode)
        #expect(outcome.harnessError == nil)
        let result = TraceChecker.check(outcome.trace)
        // The read that expected it is explained by the loss, not an unmet expectation of its own.
        #expect(result.anomalies.map(\.kind) == [.unsavedChangesLost], "\(result.anomalies.map(\.explanation))")
        #expect(result.anomalies.first?.process == "share")
        #expect(result.anomalies.first?.explanation.contains("n1") == true)
    }

    /// A Core Data process that ends without saving may mean to discard its changes (a cancelled extension).
    @Test(arguments: RunMode.allCases)
    func aCoreDataProcessThatEndsWithoutSavingIsNotJudged(mode: RunMode) throws {
        let outcome = try RunHarness.single(yaml(share: "refresh: none", steps: """
              - share: launch
              - share: { insert: Note, id: n1, set: { title: Cancelled } }
              - share: exit
              - app: { fetch: Note }
              - app: { read: n1, expect: absent }
            """), mode: mode)
        #expect(outcome.harnessError == nil)
        let result = TraceChecker.check(outcome.trace)
        #expect(result.anomalies.isEmpty, "\(result.anomalies.map(\.explanation))")
        #expect(result.verdict.matched)
    }

    @Test(arguments: RunMode.allCases)
    func aCrashAndTheRunsEndAreNoLoss(mode: RunMode) throws {
        let outcome = try RunHarness.single(yaml(steps: """
              - share: launch
              - share: { insert: Note, id: n1 }
              - share: crash
              - app: { insert: Note, id: n2 }
            """), mode: mode)
        #expect(outcome.harnessError == nil)
        #expect(!TraceChecker.check(outcome.trace).anomalies.contains { $0.kind == .unsavedChangesLost })
    }

    private func branches(_ yaml: String, at position: Int) throws -> [String] {
        try RunHarness.plannedBranches(yaml, at: position)
    }

    /// The timer fires while a `parallel` runs, beside its branches: at 10 ms, in a branch of its own, not
    /// once the 100 ms branch has ended (after the extension's save at 20 ms). An app suspended from the
    /// foreground in a branch autosaves just before, in that branch; one that exits first loses its changes.
    @Test func anAutosaveDueWhileAParallelRunsRunsBesideItsBranches() throws {
        #expect(try branches(yaml(app: "framework: swiftdata, autosave-delay: 10ms", steps: """
              - app: { insert: Note, id: n1 }
              - share: launch
              - parallel:
                  - sleep: 100ms
                  - [ { sleep: 20ms }, { share: { insert: Note, id: n2 } }, { share: save } ]
            """), at: 3) == [
            "sleep 100ms", "sleep 20ms ; share: insert Note n2 {} ; share: save",
            "sleep 10ms ; app: autosave (changes since step 1)",
        ])
        #expect(try branches(yaml(steps: """
              - app: { insert: Note, id: n1 }
              - share: launch
              - parallel: [ { app: suspend }, { share: { insert: Note, id: n2 } } ]
            """), at: 3) == ["app: autosave (changes since step 1) ; app: suspend", "share: insert Note n2 {}"])
        // Exits at 10 ms, before its 20 ms timer: nothing to autosave. At 50 ms: the autosave at 20 ms.
        let exits = { (at: String) in yaml(share: "framework: swiftdata, autosave-delay: 20ms", steps: """
              - share: launch
              - share: { insert: Note, id: n1 }
              - parallel:
                  - sleep: 30ms
                  - [ { sleep: \(at) }, { share: exit } ]
            """) }
        // Sent to the background in a branch: at once, after it. A clock advance past the delay: after it.
        #expect(try branches(yaml(steps: """
              - app: { insert: Note, id: n1 }
              - share: launch
              - parallel:
                  - [ { sleep: 20ms }, { app: background } ]
                  - [ { sleep: 40ms }, { share: { insert: Note, id: n2 } } ]
            """), at: 3) == ["sleep 20ms ; app: background ; app: autosave (changes since step 1)", "sleep 40ms ; share: insert Note n2 {}"])
        #expect(try branches(yaml(steps: """
              - app: { insert: Note, id: n1 }
              - share: launch
              - parallel: [ { clock: { advance: 2s } }, [ { sleep: 20ms }, { share: { insert: Note, id: n2 } } ] ]
            """), at: 3) == ["clock advance 2s ; app: autosave (changes since step 1)", "sleep 20ms ; share: insert Note n2 {}"])
        // With no delay, a change autosaves just after it, in its branch: a branch of its own at the same
        // moment would be a race the seeds decide, which real time never runs.
        let zero = "framework: swiftdata, autosave-delay: 0ms"
        #expect(try branches(yaml(app: zero, share: zero, steps: """
              - share: launch
              - parallel:
                  - [ { sleep: 10ms }, { app: { insert: Note, id: n1 } }, { sleep: 10ms } ]
                  - { share: { insert: Note, id: n2 } }
            """), at: 2) == [
            "sleep 10ms ; app: insert Note n1 {} ; app: autosave (changes since step 5) ; sleep 10ms",
            "share: insert Note n2 {} ; share: autosave (changes since step 7)",
        ])
        // A workload lasts its duration: an autosave due 50 ms in runs at its moment beside it, not never.
        #expect(try branches(yaml(app: "framework: swiftdata, autosave-delay: 50ms", steps: """
              - app: { insert: Note, id: n1 }
              - share: launch
              - parallel:
                  - workload: { processes: [share], entity: Note, mix: { insert: 1 }, rate: 100/s, duration: 120ms, keys: 20 }
                  - sleep: 10ms
            """), at: 3) == ["workload Note on share for 120ms", "sleep 10ms", "sleep 50ms ; app: autosave (changes since step 1)"])
        #expect(try branches(exits("10ms"), at: 3) == ["sleep 30ms", "sleep 10ms ; share: exit"])
        #expect(try branches(exits("50ms"), at: 3) == [
            "sleep 30ms", "sleep 50ms ; share: exit", "sleep 20ms ; share: autosave (changes since step 2)",
        ])
    }

    /// The same, run: the app's autosave at 10 ms commits before the extension's save of another field at
    /// 20 ms, which reads the row as autosaved and commits without a conflict; and an app suspended inside a
    /// `parallel` and then terminated lost nothing, as when its suspend is a step of its own.
    @Test(arguments: RunMode.allCases)
    func anAutosaveInsideAParallelCommitsAtItsMoment(mode: RunMode) throws {
        let outcome = try RunHarness.single("""
            summary: Autosave beside a save.
            store: { group: group.example.notes, name: Notes, model: { Note: { title: string, body: string? } } }
            processes:
              app: { role: host, framework: swiftdata, autosave-delay: 10ms }
              share: { role: share }
            steps:
              - app: launch
              - app: { insert: Note, id: n1, set: { title: A, body: x } }
              - app: save
              - share: launch
              - app: { update: n1, set: { title: B } }
              - parallel:
                  - sleep: 100ms
                  - [ { sleep: 20ms }, { share: { update: n1, set: { body: y } } }, { share: save } ]
              - app: suspend
              - app: terminate
            """, mode: mode)
        #expect(outcome.harnessError == nil)
        let commits = outcome.trace.events.compactMap { event -> String? in
            if case .saveCommitted(let commit) = event.kind { "\(event.process) \(commit.source)" } else { nil }
        }
        #expect(commits == ["app save", "app autosave", "share save"])
        let result = TraceChecker.check(outcome.trace)
        #expect(!result.anomalies.contains { $0.kind == .conflict || $0.kind == .unsavedChangesLost }, "\(result.anomalies.map(\.explanation))")

        let suspended = try RunHarness.single(yaml(share: "refresh: none", steps: """
              - app: { insert: Note, id: n1, set: { title: A } }
              - share: launch
              - parallel: [ { app: suspend }, { share: { insert: Note, id: n2, set: { title: S } } } ]
              - share: save
              - app: terminate
            """), mode: mode)
        #expect(suspended.harnessError == nil)
        #expect(!TraceChecker.check(suspended.trace).anomalies.contains { $0.kind == .unsavedChangesLost })
    }
    /// An autosave placed beside the app's own check with `within:`: real time sends it between the check's
    /// attempts, and asks the check again only once the autosave is answered. A second request in flight to
    /// one process had its reply taken for the other's, and the run ended in a harness error after 15 s (5
    /// of 24 real-time runs). Three runs, each of which could meet it.
    @Test func anAutosaveBesideTheAppsOwnCheckIsAnswered() throws {
        let yaml = """
            summary: Autosave between a check's attempts.
            store: { group: group.example.notes, name: Notes, model: { Note: { title: string } } }
            processes:
              app: { role: host, framework: swiftdata, autosave-delay: 20ms, refresh: history }
              share: { role: share }
            steps:
              - app: launch
              - app: { insert: Note, id: n1, set: { title: A } }
              - app: { insert: Note, id: n2, set: { title: X } }
              - app: save
              - app: { fetch: Note }
              - share: launch
              - app: { update: n1, set: { title: B } }
              - parallel:
                  - app: { read: n2, expect: { title: Y }, within: 2s }
                  - [ { sleep: 40ms }, { share: { update: n2, set: { title: Y } } }, { share: save }, { sleep: 20ms },
                      { share: { fetch: Note } }, { share: { read: n1, expect: { title: B }, now: true } } ]
            """
        for attempt in 1...3 {
            let outcome = try RunHarness.run(yaml, stepTimeout: .seconds(5))[0]
            #expect(outcome.harnessError == nil, "run \(attempt): \(outcome.harnessError?.message ?? "")")
            #expect(TraceChecker.check(outcome.trace).verdict.matched, "run \(attempt): \(OneWorldTests.verdictText(outcome))")
        }
    }
}
