import Checkers
import Runner
import ScenarioModel
import Testing
import TestSupport
import Trace

/// Whether a sibling starts while a write beside it holds its commit is the machine's choice in real time
/// (a save holds SQLite's write lock for a fraction of a millisecond): the deterministic mode makes it a
/// choice of the schedule, so both outcomes exist in both modes, and a schedule written out replays.
@Suite(.serialized, .spawnsProcesses) struct CommitOverlapTests {
    /// Two deferred transactions side by side: when they overlap, the one that read first fails `busy` at
    /// its write; when one commits before the other begins, both save.
    static let deferredSaves = OneWorldTests.header + """
    processes:
      app: { role: host, write-transactions: deferred, busy-timeout: 5s }
      share: { role: share, write-transactions: deferred, busy-timeout: 5s }
    steps:
      - app: launch
      - share: launch
      - app: { insert: Note, id: a1, set: { title: A } }
      - share: { insert: Note, id: s1, set: { title: S } }
      - parallel: [ { app: save }, { share: save } ]
    """

    static func busy(_ outcome: RunOutcome) -> Bool {
        TraceChecker.check(outcome.trace).verdict.found.keys.contains(.busy)
    }

    @Test func twoDeferredSavesSideBySideOverlapOrNotAsTheScheduleChooses() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        var outcomes: [Bool] = []
        for seed in UInt64(1)...8 {
            let outcome = try RunHarness.single(Self.deferredSaves, mode: .deterministic, seed: seed, pool: pool)
            #expect(outcome.harnessError == nil)
            outcomes.append(Self.busy(outcome))
            let started = outcome.choices.filter { $0.kind == .startAfterCommit }
            #expect(started.count == 1, "seed \(seed): one sibling met the other's held commit: \(outcome.choices)")
            #expect(Self.busy(outcome) == (started.first?.chosen == 0), "seed \(seed): busy exactly when they overlapped")
        }
        #expect(outcomes.contains(true) && outcomes.contains(false), "both outcomes, as in real time: \(outcomes)")
    }

    /// A schedule in which one save waited for the other's commit is written with a `sleep` before it, and
    /// replays as written without `busy`; one in which they overlapped replays with it. Where the waiting
    /// save starts its branch, its process's notifications stay held until it is under way (written as a
    /// `hold-notifications` before it and a `deliver` after it): two saves of one object, each process
    /// merging the other's on notification, conflict in the run and in its replay alike.
    @Test(arguments: [(CommitOverlapTests.deferredSaves, nil), (OneWorldTests.parallelSaves, "error")])
    func aStartAfterACommitIsWrittenOutAndReplays(_ yaml: String, variant: String?) throws {
        let scenario = try ScenarioLoader.parse(yaml: yaml, file: "saves.yaml")
        var waitedAtLeastOnce = false
        for seed in UInt64(1)...6 {
            let run = try #require(variant.map { scenario.run(variant: $0, seed: seed) } ?? scenario.runs(seed: seed).first)
            let outcome = ScenarioRunner.execute(RunPlan(run: run, summary: scenario.summary, mode: .deterministic),
                                                 options: RunnerOptions(agentExecutable: RunHarness.groupsim))
            let waited = outcome.choices.contains { $0.kind == .startAfterCommit && $0.chosen == 1 }
            waitedAtLeastOnce = waitedAtLeastOnce || waited
            let written = outcome.executed.compactMap { step -> [Step]? in
                if case .parallel(let children) = step.step { children.map(\.step) } else { nil }
            }.first ?? []
            #expect(written.contains { if case .sleep = $0 { true } else { false } } == waited, "seed \(seed): \(written)")
            let found = TraceChecker.check(outcome.trace).verdict.found.keys
            let text = try ScenarioWriter.file(
                name: "replay", summary: "Replay.", comment: [], storeSource: yaml, processes: run.processes,
                steps: outcome.executed, expectation: found.isEmpty ? .pass : .anomalies(Array(found).sorted()), seed: seed,
                schedule: .asWritten)
            let replay = try ScenarioLoader.parse(yaml: text, file: "replay.yaml")
            let again = ScenarioRunner.execute(RunPlan(run: replay.runs()[0], summary: "Replay.", mode: .deterministic),
                                               options: RunnerOptions(agentExecutable: RunHarness.groupsim))
            #expect(again.harnessError == nil)
            #expect(TraceChecker.check(again.trace).verdict.matched, "seed \(seed), found \(found.sorted()):\n\(text)")
        }
        #expect(waitedAtLeastOnce, "some seed started a save after the other's commit")
    }

    /// A save that waits on another process's lock is inside SQLite's busy handler, in the middle of its
    /// save: the notification of the commit it waited for reaches it only after, so its stale snapshot
    /// conflicts. The deterministic mode once handed that notification over with the save asked again,
    /// and the merge that ran first hid the conflict every seed.
    @Test func aSaveThatWaitedOnALockConflictsWithWhatItWaitedForInBothModes() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let yaml = OneWorldTests.header + """
        processes:
          app: { role: host, refresh: history, merge-policy: error }
          share: { role: share, refresh: history, merge-policy: error, busy-timeout: 2s }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: T0 } }
          - app: save
          - share: launch
          - share: { fetch: Note }
          - share: { update: n1, set: { title: S } }
          - parallel:
            - [ { app: { begin-write: true } }, { app: { update: n1, set: { title: A } } }, { app: save }, { sleep: 60ms }, { app: { end-write: true } } ]
            - [ { sleep: 20ms }, { share: save } ]
        variants:
          error: { expect: [conflict] }
        """
        let verdicts = try OneWorldTests.verdicts(yaml, seeds: 1...4, pool: pool)
        #expect(Set(verdicts) == ["matched [\"conflict\"]"], "\(verdicts)")
    }

    /// A launch in one branch moves virtual time past a sibling's held commit: the commit is carried out
    /// before the next child chooses whether to wait for it (it once computed a negative wait and trapped).
    @Test func aCommitThatCameDueDuringALaunchIsNotWaitedFor() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let yaml = OneWorldTests.header + """
        processes:
          app: { role: host }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - app: { update: n1, set: { title: B } }
          - parallel:
            - [ { share: launch }, { share: { fetch: Note } }, { share: { read: n1, expect: { title: B }, within: 300ms } } ]
            - app: save
        """
        for seed in UInt64(1)...12 {
            let outcome = try RunHarness.single(yaml, mode: .deterministic, seed: seed, pool: pool)
            #expect(outcome.harnessError == nil, "seed \(seed)")
            let saves = outcome.trace.events.filter { if case .saveCommitted = $0.kind { $0.process == "app" } else { false } }
            #expect(saves.count == 2, "seed \(seed): the app's save beside the launch committed")
        }
    }

    /// An extension's first command after its launch takes milliseconds in real time (code paths and SQL
    /// statements run the first time), so its fault read of an object lands after the app's save beside it
    /// in most real-time runs, and its own save then passes; before, every schedule read first and
    /// conflicted. Every schedule is run (each prefix of choices in turn): both outcomes are among them.
    @Test func anExtensionsFirstReadAfterItsLaunchMayComeAfterASaveBesideIt() throws {
        let yaml = OneWorldTests.header + """
        processes:
          app: { role: host, refresh: history }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - share: launch
          - parallel:
            - [ { share: { update: n1, set: { title: S } } }, { sleep: 20ms }, { share: save } ]
            - [ { app: { update: n1, set: { title: B } } }, { app: save } ]
        """
        let scenario = try ScenarioLoader.parse(yaml: yaml, file: "cold.yaml")
        let run = try #require(scenario.runs().first)
        var verdicts: Set<String> = []
        var prefix: [Int]? = []
        var schedules = 0
        while let next = prefix, schedules < 256 {
            var plan = RunPlan(run: run, summary: scenario.summary, mode: .deterministic)
            plan.schedule = ScheduleSpec(strategy: .prefix(next))
            let outcome = ScenarioRunner.execute(plan, options: RunnerOptions(agentExecutable: RunHarness.groupsim))
            #expect(outcome.harnessError == nil)
            verdicts.insert(Self.busy(outcome) ? "busy" : TraceChecker.check(outcome.trace).verdict.found.keys.contains(.conflict) ? "conflict" : "saved")
            schedules += 1
            // The next schedule: the last choice that has an alternative left takes it, the ones after it 0.
            var choices = outcome.choices
            while let last = choices.last, last.chosen + 1 >= last.count { choices.removeLast() }
            prefix = choices.last.map { last in choices.dropLast().map(\.chosen) + [last.chosen + 1] }
        }
        #expect(prefix == nil, "every schedule was run")
        #expect(verdicts == ["conflict", "saved"], "\(verdicts) over \(schedules) schedules")
    }
}
