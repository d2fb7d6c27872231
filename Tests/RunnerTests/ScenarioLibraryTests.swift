import Basics
import Checkers
import Foundation
import Synchronization
import Runner
import ScenarioModel
import Testing
import TestSupport
import Trace

/// Every scenario under `Scenarios/` runs end to end with real processes, and every run must match
/// its variant's expectation: the buggy variants keep showing their bug, the fixed ones keep passing.
@Suite(.serialized, .spawnsProcesses) struct ScenarioLibraryTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scenarios")

    /// For buggy variants: the anomaly, the process and the object the bug is about.
    static let reasons: [String: [(kind: AnomalyKind, process: String, object: String?)]] = [
        "refresh-with-infinite-staleness/stale-cache": [(.staleRead, "app", "n1")],
        "refresh-with-infinite-staleness/refetch-keep": [(.staleRead, "app", "n1")],
        "new-rows-never-appear/refresh-all-objects": [(.missedInsert, "app", "m1")],
        "changes-while-in-background/automatic-merge-only": [(.staleRead, "app", "n1")],
        "history-purged-before-read/purge-own-token": [(.expiredToken, "app", nil), (.staleRead, "app", "n1")],
        "missing-transaction-author/no-author": [(.staleRead, "app", "n1")],
        "observer-registered-late/lazy-observer": [(.staleRead, "app", "n1")],
        "notifications-lost-while-suspended/refresh-on-notification": [(.staleRead, "app", "n1")],
        "lock-held-while-suspended/held-while-suspended": [(.lockHeldWhileSuspended, "share", nil), (.busy, "app", nil)],
        "same-object-edited-twice/error-policy": [(.conflict, "app", "n1")],
        "same-object-edited-twice/overwrite": [(.lostUpdate, "app", "n1")],
        "strategy-comparison/staleness-infinite": [(.staleRead, "app", "n1"), (.missedInsert, "app", "n2")],
        "strategy-comparison/staleness-zero": [(.missedInsert, "app", "n2")],
        "strategy-comparison/refetch": [(.staleRead, "app", "n1")],
        "watch-has-its-own-store/no-sync": [(.missedInsert, "watch", nil)],
        "lost-notification-leaves-the-app-stale/darwin-only": [(.staleRead, "app", "n1")],
        "batch-delete-the-view-never-learns-of/darwin-only": [(.missedDelete, "app", "n1")],
        "history-never-purged/waits-for-the-widget": [(.storeGrowth, "group:group.example.notes", nil)],
        "long-read-starves-the-checkpoint/read-kept-open": [(.storeGrowth, "group:group.example.notes", nil)],
        "widget-keeps-a-stale-context/reused-context": [(.staleRead, "widget", "n1"), (.notConverged, "widget", "n1")],
        "widget-reload-budget-runs-out/reload-per-record": [(.notConverged, "widget", "n1")],
        "widget-timeline-never-reloads/timeline-never": [(.notConverged, "widget", "n1")],
        "widget-reload-budget-runs-out/reload-delayed-past-the-run": [(.notConverged, "widget", "n1")],
        "widget-button-reloads-its-widget/reused-context": [(.staleRead, "widget", "t1"), (.notConverged, "widget", "t1")],
        "widget-button-reloads-its-widget/run-from-shortcuts": [(.notConverged, "widget", "t1")],
        "widget-suspended-holding-a-lock/writes-on-reload": [(.lockHeldWhileSuspended, "widget", nil), (.busy, "app", nil)],
        "notification-service-writes-while-app-suspended/refetch-on-notification": [(.missedInsert, "app", "m1")],
        "tags-added-elsewhere-never-show/refresh-all-objects": [(.staleRead, "app", "n1")],
        "same-tag-created-in-app-and-extension/error-policy": [(.conflict, "share", "groceries")],
        "history-token-from-a-replaced-store/token-kept": [(.foreignToken, "app", nil), (.missedInsert, "app", "n3")],
        "intent-write-invisible-to-the-app/long-lived-context": [(.staleRead, "app", "n1")],
        "background-save-never-reaches-the-screen/view-context-alone": [(.staleRead, "app", "n1")],
        "deferred-transaction-fails-busy-at-once/deferred": [(.busy, "app", nil)],
        "migration-races-an-extension/extension-open": [(.storeLoadFailed, "share", nil)],
        "migration-races-an-extension/extension-writing": [(.storeLoadFailed, "app", nil)],
        "swiftdata-context-never-sees-another-save/long-lived-context": [(.staleRead, "app", "n1")],
        "autosave-that-never-happened/relies-on-autosave": [(.unsavedChangesLost, "share", nil)],
        "control-acts-on-stale-state/control-not-reloaded": [(.staleRead, "power", "l1")],
        "swiftdata-widget-of-a-core-data-app/long-lived-context": [(.staleRead, "widget", "t1"), (.notConverged, "widget", "t1")],
        "swiftdata-app-terminated-before-its-autosave/autosave-off": [(.unsavedChangesLost, "app", nil)],
        "swiftdata-strategy-comparison/long-lived-context": [(.staleRead, "app", "n1"), (.missedInsert, "app", "n2")],
        "same-note-on-phone-and-watch-without-uuid/default": [(.duplicate, "group:group.example.notes", "n1"), (.duplicate, "own:watch", "n1")],
    ]

    /// The plans two at a time, as `groupsim run --jobs 2` runs them on a two-core machine (a verdict must
    /// not depend on the load), in their order.
    static func executeTwoAtATime(_ plans: [RunPlan], options: RunnerOptions) -> [RunOutcome] {
        let results = Mutex<[Int: RunOutcome]>([:])
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: min(2, plans.count)) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < plans.count else { return }
                let outcome = ScenarioRunner.execute(plans[index], options: options)
                results.withLock { $0[index] = outcome }
            }
        }
        return results.withLock { done in plans.indices.compactMap { done[$0] } }
    }

    /// Both modes: the deterministic mode must give every run the verdict real time gives it.
    @Test(arguments: RunMode.allCases)
    func everyScenarioRunMatchesItsExpectation(mode: RunMode) throws {
        let scenarios = try ScenarioLoader.loadAll(in: [Self.folder])
        #expect(scenarios.count >= 10)
        let plans = scenarios.flatMap { scenario in scenario.runs().map { RunPlan(run: $0, summary: scenario.summary, mode: mode) } }
        let options = RunnerOptions(agentExecutable: RunHarness.groupsim)
        let outcomes = Self.executeTwoAtATime(plans, options: options)
        for outcome in outcomes {
            let name = "\(outcome.plan.info.scenario)/\(outcome.plan.info.variant)"
            #expect(outcome.harnessError == nil, "\(name): \(outcome.harnessError.map(String.init(describing:)) ?? "")")
            let result = TraceChecker.check(outcome.trace)
            #expect(result.verdict.matched, """
                \(name) expected \(result.verdict.expected.text) but found \(result.verdict.foundText.isEmpty ? "none" : result.verdict.foundText):
                \(result.anomalies.map(\.explanation).joined(separator: "\n"))
                """)
            for reason in Self.reasons[name] ?? [] {
                let found = result.anomalies.contains { anomaly in
                    anomaly.kind == reason.kind && anomaly.process == reason.process
                        && (reason.object == nil || anomaly.object == reason.object)
                }
                #expect(found, "\(name): no \(reason.kind.rawValue) in \(reason.process) about \(reason.object ?? "the store")")
            }
            #expect(outcome.leftNoProcess, "\(name) left a process running")
        }
    }

    /// Other seeds give the deterministic mode other schedules (delivery points, `parallel` orders): every
    /// run still gets the verdict real time gives it. `groupsim bench suite --seeds 1-20` checks twenty.
    @Test func everyScenarioRunMatchesItsExpectationWithOtherSeeds() throws {
        let scenarios = try ScenarioLoader.loadAll(in: [Self.folder])
        let pool = AgentPool(executable: RunHarness.groupsim, target: 4)
        defer { pool.close() }
        let options = RunnerOptions(agentExecutable: RunHarness.groupsim, agentPool: pool)
        for seed in UInt64(2)...4 {
            let plans = scenarios.flatMap { scenario in
                scenario.runs(seed: seed).map { RunPlan(run: $0, summary: scenario.summary, mode: .deterministic) }
            }
            for outcome in Self.executeTwoAtATime(plans, options: options) {
                let name = "\(outcome.plan.info.scenario)/\(outcome.plan.info.variant) seed \(seed)"
                #expect(outcome.harnessError == nil, "\(name): \(outcome.harnessError.map(String.init(describing:)) ?? "")")
                let verdict = TraceChecker.check(outcome.trace).verdict
                #expect(verdict.matched, "\(name) expected \(verdict.expected.text) but found \(verdict.foundText.isEmpty ? "none" : verdict.foundText)")
            }
        }
    }
}
