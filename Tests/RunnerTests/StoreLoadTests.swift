import Basics
import Checkers
import Foundation
import Runner
import Testing
import TestSupport
import Trace

/// A store that does not load at launch, with real processes: the process ends with a
/// `store-load-failed` (`on-load-failure: crash`) and may be launched again, or it waits and loads the
/// store before its next step (`retry`); the work of a push whose store did not load never runs.
@Suite(.serialized, .spawnsProcesses) struct StoreLoadTests {
    static func yaml(processes: String, steps: String, expect: String) -> String {
        """
        summary: The store starts on v1, made by the previous app.
        store:
          group: group.t
          name: Notes
          models:
            v1: { Note: { title: string } }
            v2: { Note: { title: string, rank: int = 7 } }
        processes:
          old-app: { role: host, model: v1 }
          app: { role: host }
        \(processes)
        steps:
          - old-app: launch
          - old-app: { insert: Note, id: n1, set: { title: A } }
          - old-app: save
          - old-app: exit
        \(steps)
        expect: \(expect)
        """
    }

    @Test(arguments: RunMode.allCases)
    func aProcessWithAnOlderModelCrashesAtLaunchAndItsPushDoesNothing(mode: RunMode) throws {
        let yaml = Self.yaml(processes: """
              share: { role: share, model: v1 }
              service:
                role: notification-service
                model: v1
                on-push: [ { insert: Note, id: m1, set: { title: Pushed } }, save ]
            """, steps: """
              - app: launch
              - share: launch
              - share: launch
              - service: push
              - app: { fetch: Note }
              - app: { read: n1, expect: { title: A, rank: 7 } }
              - app: { count: Note, expect: 1 }
            """, expect: "{ store-load-failed: 3 }")
        let outcome = try RunHarness.single(yaml, mode: mode)
        #expect(outcome.harnessError == nil, "\(String(describing: outcome.harnessError))")
        let result = TraceChecker.check(outcome.trace)
        #expect(result.verdict.matched, "\(result.anomalies.map(\.explanation))")
        let failures = result.anomalies.filter { $0.kind == .storeLoadFailed }
        #expect(failures.map(\.process) == ["share", "share", "service"])
        #expect(failures.allSatisfy { $0.explanation.contains("made with v2, which this process (with v1) does not have") })
        #expect(!outcome.events(of: "service").contains { if case .saveCommitted = $0.kind { true } else { false } })
        #expect(outcome.leftNoProcess)
    }

    @Test(arguments: RunMode.allCases)
    func aProcessThatLeavesTheMigrationToTheAppWaitsForIt(mode: RunMode) throws {
        let yaml = Self.yaml(processes: """
              share: { role: share, migrate: false, on-load-failure: retry }
            """, steps: """
              - share: launch
              - share: background
              - share: { fetch: Note }
              - app: launch
              - share: { fetch: Note }
              - share: { read: n1, expect: { title: A, rank: 7 } }
              - share: exit
            """, expect: "{ store-load-failed: 1 }")
        let outcome = try RunHarness.single(yaml, mode: mode)
        #expect(outcome.harnessError == nil, "\(String(describing: outcome.harnessError))")
        let result = TraceChecker.check(outcome.trace)
        #expect(result.verdict.matched, "\(result.anomalies.map(\.explanation))")
        // The fetch before the app migrated is the one failure; the one after loads the store first.
        #expect(result.anomalies.filter { $0.kind == .storeLoadFailed }.map(\.location) == ["test.yaml:19"])
        let notes = outcome.events(of: "share").compactMap { if case .note(let text) = $0.kind { text } else { nil } }
        #expect(notes.contains { $0.contains("does not migrate it") && $0.contains("waits") }, "\(notes)")
        #expect(notes.contains { $0.contains("loaded its store") }, "\(notes)")
        let migrated = outcome.events(of: "app").compactMap { if case .note(let text) = $0.kind { text } else { nil } }
        #expect(migrated.contains { $0.contains("migrated the store from v1 to v2") }, "\(migrated)")
        #expect(outcome.leftNoProcess)
    }
    /// `on-load-failure: in-memory` (BUGS.md 28): the process runs on an empty store of its own, so the
    /// committed note is missing from its view (judged against the run's store, not the empty one), what it
    /// saves there reads back as its own (no phantom) and never reaches the app (a missed insert in the
    /// app's count, whose note keeps its name: the fallback's row with the same key is not it), and nothing
    /// is reported as a load failure.
    @Test(arguments: RunMode.allCases)
    func aProcessThatFallsBackToAnInMemoryStoreShowsNothingCommitted(mode: RunMode) throws {
        let yaml = Self.yaml(processes: """
              share: { role: share, model: v1, on-load-failure: in-memory }
            """, steps: """
              - app: launch
              - share: launch
              - share: { fetch: Note }
              - share: { read: n1, expect: { title: A }, now: true }
              - share: { insert: Note, id: s1, set: { title: S } }
              - share: save
              - share: { read: s1, expect: { title: S }, now: true }
              - app: { fetch: Note }
              - app: { count: Note, expect: 1, now: true }
              - share: exit
            """, expect: "{ missed-insert: 2, phantom-read: 0, store-load-failed: 0, unmet-expectation: 0 }")
        let outcome = try RunHarness.single(yaml, mode: mode)
        #expect(outcome.harnessError == nil, "\(String(describing: outcome.harnessError))")
        let result = TraceChecker.check(outcome.trace)
        #expect(result.verdict.matched, "\(result.anomalies.map(\.explanation))")
        let missed = result.anomalies.filter { $0.kind == .missedInsert }
        #expect(missed.map(\.object) == ["n1", "s1"])
        #expect(missed.map(\.process) == ["share", "app"])
        let counted = outcome.trace.events.compactMap { if case .counted(let c) = $0.kind, $0.process == "app" { c.ids } else { nil } }
        #expect(counted == [["n1"]])
        let stores = outcome.events(of: "share").compactMap { if case .saveCommitted(let c) = $0.kind { c.store } else { nil } }
        #expect(stores == ["memory:share"])
        #expect(outcome.events(of: "share").contains {
            if case .note(let text) = $0.kind { text.contains("fell back to an empty in-memory store") } else { false }
        })
        #expect(outcome.leftNoProcess)
    }
    /// `app-update: v2` (bug 29): a process launched after it opens the store with v2 whatever its
    /// `model:` says (the share, relaunched, migrates the store), while one running at the step keeps v1
    /// until it ends; a widget with `on-newer-model: exit` kept from before finds the newer store at its
    /// reload and is launched again with v2, so its fetch works.
    @Test(arguments: RunMode.allCases)
    func processesLaunchedAfterAnUpdateRunTheNewVersion(mode: RunMode) throws {
        let yaml = Self.yaml(processes: """
              share: { role: share, model: v1 }
              widget: { role: widget, model: v1, on-newer-model: exit, on-reload: [ { fetch: Note }, { read: n1, expect: { title: A } } ] }
            """, steps: """
              - share: launch
              - share: { reload-timelines: widget }
              - app-update: v2
              - share: exit
              - share: launch
              - share: { fetch: Note }
              - share: { read: n1, expect: { title: A } }
              - share: { reload-timelines: widget }
              - share: exit
            """, expect: "pass")
        let outcome = try RunHarness.single(yaml, mode: mode)
        #expect(outcome.harnessError == nil, "\(String(describing: outcome.harnessError))")
        let result = TraceChecker.check(outcome.trace)
        #expect(result.verdict.matched, "\(result.anomalies.map(\.explanation))")
        let notes = outcome.trace.events.compactMap { if case .note(let text) = $0.kind { "\($0.process): \(text)" } else { nil } }
        #expect(notes.contains("runner: the app is updated to v2: every process launched from now on opens the store with it; "
                               + "share and widget keep the version they were launched with until they end"), "\(notes)")
        #expect(notes.contains("share: share migrated the store from v1 to v2 (a lightweight migration, in place)"), "\(notes)")
        #expect(notes.contains { $0.hasPrefix("widget: widget finds the store at v2, newer than its v1, and exits") }, "\(notes)")
        #expect(outcome.leftNoProcess)
    }

    /// A process whose store may not load (it opens read-only: whether it runs after a launch is the run's
    /// to know, so validation accepts a second launch) whose store loaded: the second launch is a decided
    /// failure of that step with its reason, and the run goes on, instead of a harness error.
    @Test(arguments: RunMode.allCases)
    func aLaunchOfAProcessWhoseStoreLoadedAfterAllFailsThatStep(mode: RunMode) throws {
        let yaml = Self.yaml(processes: """
              share: { role: share, read-only: true }
            """, steps: """
              - app: launch
              - share: launch
              - share: launch
              - share: { fetch: Note }
              - share: { read: n1, expect: { title: A }, now: true }
              - share: exit
            """, expect: "pass")
        let outcome = try RunHarness.single(yaml, mode: mode)
        #expect(outcome.harnessError == nil, "\(String(describing: outcome.harnessError))")
        let result = TraceChecker.check(outcome.trace)
        #expect(result.verdict.matched, "\(result.anomalies.map(\.explanation))")
        #expect(result.unexpectedErrors.map(\.kind) == [.other])
        #expect(result.unexpectedErrors.first?.message.hasPrefix("cannot launch 'share': it is already running") == true,
                "\(result.unexpectedErrors)")
        #expect(outcome.leftNoProcess)
    }
}
