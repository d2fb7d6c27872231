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
}
