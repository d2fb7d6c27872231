import Basics
import Checkers
import Foundation
import Runner
import ScenarioModel
import Testing
import TestSupport
import Trace

/// The deterministic mode's world does what real time does and nothing it cannot: `parallel` children
/// start together, a lock released within the busy timeout is waited for, a lock held across it gives
/// `busy`, launches cost time, and a schedule written out replays in both modes. Each runs with several
/// seeds and in real time, and the verdict must be the same every time.
@Suite(.serialized, .spawnsProcesses) struct OneWorldTests {
    static let header = """
    summary: One world.
    store:
      group: group.example.notes
      name: Notes
      model:
        Note:
          title: string

    """

    /// Both processes refresh on the save notification: a child that handled the other's notification
    /// before its own save would merge instead of conflicting.
    static let parallelSaves = header + """
    processes:
      app: { role: host, refresh: history, trigger: darwin }
      share: { role: share, refresh: history, trigger: darwin }
    steps:
      - app: launch
      - app: { insert: Note, id: n1, set: { title: A } }
      - app: save
      - app: { fetch: Note }
      - share: launch
      - share: { fetch: Note }
      - share: { read: n1, expect: { title: A }, now: true }
      - app: { update: n1, set: { title: B } }
      - share: { update: n1, set: { title: C } }
      - parallel:
          - app: save
          - share: save
    variants:
      error: { app: { merge-policy: error }, share: { merge-policy: error }, expect: [conflict] }
    """

    static let lockReleasedInTime = header + """
    processes:
      app: { role: host, busy-timeout: 2s }
      share: { role: share }
    steps:
      - app: launch
      - share: launch
      - app: { insert: Note, id: n1, set: { title: A } }
      - share: { begin-write: true }
      - share: { insert: Note, id: s1, set: { title: S } }
      - share: save
      - parallel:
          - app: save
          - share: end-write
      - app: { fetch: Note }
      - app: { count: Note, expect: 2, now: true }
    """

    static let lockHeldAcross = header + """
    processes:
      app: { role: host, busy-timeout: 300ms }
      share: { role: share }
    steps:
      - app: launch
      - share: launch
      - app: { insert: Note, id: n1, set: { title: A } }
      - share: { begin-write: true }
      - app: { save: true, expect-error: busy }
      - share: end-write
    """

    /// Two branches of `parallel`, each a sequence: the app's save meets the share extension's held write
    /// and waits; its next steps wait behind it, while the share's branch saves and ends its write.
    static let sequencesWithALock = header + """
    processes:
      app: { role: host, busy-timeout: 2s, refresh: history, trigger: darwin }
      share: { role: share }
    steps:
      - app: launch
      - share: launch
      - share: { begin-write: true }
      - parallel:
          - - app: { insert: Note, id: n1, set: { title: A } }
            - app: save
            - app: { insert: Note, id: n2, set: { title: B } }
            - app: save
          - - share: { insert: Note, id: s1, set: { title: S } }
            - share: save
            - share: end-write
      - app: { count: Note, expect: 3 }
    """

    /// A check with `within:` among the children re-reads while its process polls, and sees a
    /// sibling's save the moment its notification arrives (the hub holds a process's notifications only
    /// until its own steps of the `parallel` are under way).
    static let checkInParallel = header + """
    processes:
      app: { role: host, refresh: history, trigger: poll, poll-interval: 50ms }
      viewer: { role: action, refresh: history, trigger: darwin }
      share: { role: share }
    steps:
      - app: launch
      - viewer: launch
      - app: { insert: Note, id: n1, set: { title: A } }
      - app: save
      - app: { fetch: Note }
      - viewer: { fetch: Note }
      - share: launch
      - share: { update: n1, set: { title: B } }
      - parallel:
        - share: save
        - app: { read: n1, expect: { title: B }, within: 1s }
        - viewer: { read: n1, expect: { title: B }, within: 1s }
    """

    /// A `sleep` in one branch holds back that branch alone: the save beside it starts at once, waits on
    /// the lock the sleeping branch releases after 300 ms, and commits within a 5 s timeout but not a
    /// 100 ms one, whichever branch is written first.
    static func sleepInABranch(saveFirst: Bool) -> String {
        let save = "    - app: save\n", sleeper = "    - [ { sleep: 300ms }, { share: end-write } ]\n"
        return lockHeldBeside(saveFirst ? save + sleeper : sleeper + save, long: "5s", short: "100ms")
    }

    /// share holds the write lock and app has an unsaved insert when `children` (lines of the
    /// `parallel`) run; variant `long` gives app's saves the `long` busy timeout and expects no anomaly,
    /// `short` the `short` one and expects one `busy`.
    static func lockHeldBeside(_ children: String, long: String, short: String) -> String {
        header + """
        processes: { app: { role: host }, share: { role: share } }
        steps:
          - app: launch
          - share: launch
          - share: { begin-write: true }
          - app: { insert: Note, id: a1, set: { title: A } }
          - parallel:

        """ + children + """
        variants:
          long: { app: { busy-timeout: \(long) }, expect: pass }
          short: { app: { busy-timeout: \(short) }, expect: { busy: 1 } }
        """
    }

    /// The verdict of every run of `yaml`: deterministic with each of `seeds`, then once in real time.
    static func verdicts(_ yaml: String, seeds: ClosedRange<UInt64>, pool: AgentPool) throws -> [String] {
        var result: [String] = []
        for seed in seeds {
            for outcome in try RunHarness.run(yaml, mode: .deterministic, seed: seed, pool: pool) {
                #expect(outcome.harnessError == nil, "seed \(seed): \(outcome.harnessError.map { "\($0)" } ?? "")")
                result.append(Self.verdictText(outcome))
            }
        }
        for outcome in try RunHarness.run(yaml) {
            #expect(outcome.harnessError == nil, "real time: \(outcome.harnessError.map { "\($0)" } ?? "")")
            result.append(Self.verdictText(outcome))
        }
        return result
    }

    static func verdictText(_ outcome: RunOutcome) -> String {
        let verdict = TraceChecker.check(outcome.trace).verdict
        return "\(verdict.matched ? "matched" : "NOT matched") \(verdict.found.keys.map(\.rawValue).sorted())"
    }

    @Test func twoSavesInParallelConflictEverySeedAndInRealTime() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let verdicts = try Self.verdicts(Self.parallelSaves, seeds: 1...10, pool: pool)
        #expect(verdicts.count == 11)
        #expect(Set(verdicts) == ["matched [\"conflict\"]"], "\(verdicts)")
    }

    @Test func aCheckWithinAParallelIsAskedAgainUntilItMatchesInBothModes() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 3)
        defer { pool.close() }
        let verdicts = try Self.verdicts(Self.checkInParallel, seeds: 1...6, pool: pool)
        #expect(Set(verdicts) == ["matched []"], "both readers see B within their deadline: \(verdicts)")
    }

    @Test func aSleepInOneBranchHoldsBackThatBranchAloneInBothModes() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        for saveFirst in [true, false] {
            let verdicts = try Self.verdicts(Self.sleepInABranch(saveFirst: saveFirst), seeds: 1...6, pool: pool)
            #expect(verdicts.count == 14)
            #expect(Set(verdicts) == ["matched []", "matched [\"busy\"]"], "save first: \(saveFirst): \(verdicts)")
        }
    }

    /// A crash after a sleep in one branch, beside a save waiting on the crashing process's lock: the
    /// crash releases the lock in time for a 3 s timeout, not a 50 ms one, in both modes (real time ran
    /// the crash only once the save had given up).
    @Test func aLifecycleStepInABranchRunsBesideACommandInFlight() throws {
        let yaml = Self.lockHeldBeside("    - app: save\n    - [ { sleep: 200ms }, { share: crash } ]\n", long: "3s", short: "50ms")
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let verdicts = try Self.verdicts(yaml, seeds: 1...4, pool: pool)
        #expect(verdicts.count == 10)
        #expect(Set(verdicts) == ["matched []", "matched [\"busy\"]"], "\(verdicts)")
    }

    @Test func aSaveWaitingOnALockReleasedWithinItsTimeoutSucceedsEverySeed() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let verdicts = try Self.verdicts(Self.lockReleasedInTime, seeds: 1...10, pool: pool)
        #expect(Set(verdicts) == ["matched []"], "\(verdicts)")
        // The wait is a wait: a save that met the lock commits after the held write, whichever ran first.
        var waited = 0
        for seed in UInt64(1)...6 {
            let outcome = try RunHarness.single(Self.lockReleasedInTime, mode: .deterministic, seed: seed, pool: pool)
            let notes = outcome.trace.events.compactMap { if case .note(let text) = $0.kind { text } else { nil } }
            if notes.contains(where: { $0.contains("waits for the store's write lock") }) { waited += 1 }
            let order = outcome.trace.events.compactMap { event -> String? in
                if case .saveCommitted = event.kind { event.process } else { nil }
            }
            #expect(order == ["share", "app"], "seed \(seed): \(order)")
        }
        #expect(waited > 0, "some seed ran the save while the write was held")
    }

    /// A busy timeout that passes while a sibling branch sleeps fails at the timeout, not when the sleep
    /// ends: the retry behind it then meets the lock still held and fails too, as in real time (a probe
    /// found the deterministic mode failing the first save at 605 ms, and its retry succeeding).
    static let busyWhileASiblingSleeps = header + """
    processes:
      app: { role: host, busy-timeout: 100ms }
      share: { role: share }
    steps:
      - app: launch
      - share: launch
      - share: { begin-write: true }
      - app: { insert: Note, id: n1, set: { title: A } }
      - parallel:
          - [ { app: { save: true, expect-error: busy } }, { app: { save: true, expect-error: busy } } ]
          - [ { sleep: 600ms }, { share: { end-write: true } } ]
    expect: { busy: 0, unmet-expectation: 0 }
    """

    @Test func aBusyTimeoutPassesDuringASiblingsSleepInBothModes() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let verdicts = try Self.verdicts(Self.busyWhileASiblingSleeps, seeds: 1...5, pool: pool)
        #expect(Set(verdicts) == ["matched []"], "\(verdicts)")
        let outcome = try RunHarness.single(Self.busyWhileASiblingSleeps, mode: .deterministic, seed: 1, pool: pool)
        let failures = outcome.events(of: "app").compactMap { event -> UInt64? in
            if case .saveFailed = event.kind { event.t } else { nil }
        }
        #expect(failures.count == 2)
        if let first = failures.first, let origin = outcome.trace.events.first?.t {
            #expect(first - origin < 300_000_000, "the first busy comes at its 100 ms timeout, not at the sibling's 600 ms")
        }
    }

    @Test func aSequenceInAParallelBranchKeepsItsOrderAndWaitsOnTheLockInBothModes() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let verdicts = try Self.verdicts(Self.sequencesWithALock, seeds: 1...8, pool: pool)
        #expect(Set(verdicts) == ["matched []"], "no busy, and the app sees all three: \(verdicts)")
        var interleavings: Set<[String]> = []
        for seed in UInt64(1)...8 {
            let outcome = try RunHarness.single(Self.sequencesWithALock, mode: .deterministic, seed: seed, pool: pool)
            // Within a branch, each step starts after the one before it ended.
            let parallel = try #require(outcome.plan.steps.first { if case .parallel = $0.step.step { true } else { false } })
            for branch in parallel.children {
                let ends = branch.children.map { child in outcome.trace.events.first { event in
                    if case .stepEnded = event.kind { event.step == child.index } else { false }
                }?.t ?? 0 }
                let starts = branch.children.map { child in
                    outcome.trace.events.first { $0.step == child.index && $0.kind == .stepStarted }?.t ?? 0
                }
                #expect(zip(ends, starts.dropFirst()).allSatisfy { $0 <= $1 }, "seed \(seed): \(starts) \(ends)")
            }
            interleavings.insert(outcome.trace.events.filter { $0.kind == .stepStarted && $0.step.map { $0 > parallel.index } == true }
                .map(\.process))
        }
        #expect(interleavings.count > 1, "seeds interleave the branches: \(interleavings)")
    }

    /// With `busy-timeout: 0` SQLite fails at once: a save that meets the held write fails with `busy`
    /// when it runs before the `end-write` beside it, whatever runs after; it never waits for it.
    @Test func aZeroBusyTimeoutFailsAtOnceEvenWhenTheHolderLetsGoInTheSameParallel() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let yaml = Self.header + """
        processes:
          app: { role: host, busy-timeout: 0 }
          share: { role: share }
        steps:
          - app: launch
          - share: launch
          - share: { begin-write: true }
          - app: { insert: Note, id: a1, set: { title: A } }
          - parallel: [ { app: save }, { share: end-write } ]
        """
        let asWritten = try RunHarness.single("schedule: as-written\n" + yaml, mode: .deterministic, pool: pool)
        #expect(asWritten.harnessError == nil)
        #expect(TraceChecker.check(asWritten.trace).verdict.found.keys.contains(.busy), "the save ran first, with the lock held")
        var busy = 0
        for seed in UInt64(1)...8 {
            let outcome = try RunHarness.single(yaml, mode: .deterministic, seed: seed, pool: pool)
            if TraceChecker.check(outcome.trace).verdict.found.keys.contains(.busy) { busy += 1 }
        }
        #expect(busy > 0 && busy < 8, "which goes first is the seed's choice, as it is the race's in real time: \(busy) of 8")
    }

    @Test func aLockHeldAcrossTheTimeoutFailsWithBusyAfterTheTimeoutInVirtualTime() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let verdicts = try Self.verdicts(Self.lockHeldAcross, seeds: 1...3, pool: pool)
        #expect(Set(verdicts) == ["matched []"], "the expected busy happened every time: \(verdicts)")
        let outcome = try RunHarness.single(Self.lockHeldAcross, mode: .deterministic, pool: pool)
        let step = try #require(outcome.plan.steps.first { $0.step.step == .save }?.index)
        let started = try #require(outcome.trace.events.first { $0.step == step && $0.kind == .stepStarted }?.t)
        let ended = try #require(outcome.trace.events.first { event in
            if case .stepEnded = event.kind { event.step == step } else { false }
        }?.t)
        #expect(ended - started >= 300_000_000, "the busy timeout passed in virtual time")
        #expect(ended - started < 1_000_000_000, "and no more")
    }

    /// A launch costs what it costs in real time: a notification delayed 5 ms is delivered during a
    /// launch that comes after it, not after everything that follows.
    @Test func aLaunchTakesVirtualTime() throws {
        let yaml = Self.header + """
        processes:
          app: { role: host }
          share: { role: share }
        steps:
          - app: launch
          - share: launch
          - share: exit
        """
        let outcome = try RunHarness.single(yaml, mode: .deterministic)
        let launches = outcome.plan.steps.filter { $0.step.step == .launch }.map(\.index)
        var durations: [UInt64] = []
        for step in launches {
            let started = try #require(outcome.trace.events.first { $0.step == step && $0.kind == .stepStarted }?.t)
            let ended = try #require(outcome.trace.events.first { event in
                if case .stepEnded = event.kind { event.step == step } else { false }
            }?.t)
            durations.append(ended - started)
        }
        #expect(durations.allSatisfy { $0 >= CostModel.measured.launch }, "\(durations)")
    }

    /// The steps as a schedule ran them, written with `schedule: as-written`, run again: the same verdict
    /// in the deterministic mode (the same choices, none made) and in real time.
    @Test func aScheduleWrittenOutReplaysInBothModes() throws {
        let yaml = Self.header + """
        processes:
          app: { role: host, refresh: history, trigger: darwin }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - app: { fetch: Note }
          - share: launch
          - share: { update: n1, set: { title: B } }
          - share: save
          - app: { read: n1, expect: { title: B }, now: true }
        """
        let scenario = try ScenarioLoader.parse(yaml: yaml, file: "race.yaml")
        let run = try #require(scenario.runs().first)
        var plan = RunPlan(run: run, summary: scenario.summary, mode: .deterministic)
        // Every choice holds the notifications past the step (the app's own save's before its fetch, then the
        // share's before the read), for one step at most.
        plan.schedule = ScheduleSpec(strategy: .prefix(Array(repeating: 1, count: 8)), lateNotifications: 1)
        let outcome = ScenarioRunner.execute(plan, options: RunnerOptions(agentExecutable: RunHarness.groupsim))
        #expect(outcome.choices.contains { $0.kind == .holdPastStep } && outcome.choices.allSatisfy { $0.chosen == 1 })
        #expect(TraceChecker.check(outcome.trace).verdict.found.keys.contains(.staleRead),
                "\(outcome.choices) \(outcome.executed.map { "\($0.process ?? "-") \($0.step)" })")
        let hold = try #require(outcome.executed.firstIndex { $0.step == .fault(.holdNotifications(process: "app")) })
        let save = try #require(outcome.executed.lastIndex { $0.process == "share" && $0.step == .save })
        #expect(hold < save, "the hold begins before the save whose notification it holds")
        let text = try ScenarioWriter.file(
            name: "replay", summary: "Replay.", comment: [], storeSource: yaml, processes: run.processes,
            steps: outcome.executed, expectation: .anomalies([.staleRead]), seed: 1, schedule: .asWritten)
        let written = try ScenarioLoader.parse(yaml: text, file: "replay.yaml")
        #expect(written.schedule == .asWritten)
        for mode in RunMode.allCases {
            let again = ScenarioRunner.execute(RunPlan(run: written.runs()[0], summary: "Replay.", mode: mode),
                                               options: RunnerOptions(agentExecutable: RunHarness.groupsim))
            #expect(again.harnessError == nil)
            #expect(TraceChecker.check(again.trace).verdict.matched, "\(mode): \(Self.verdictText(again))")
        }
    }

    /// An executed interleaving with a `sleep` in a branch is written out one step a child; replayed
    /// as written, it runs in that order (the sleep where it ran, not after the others) and fails the
    /// same way.
    @Test func anExecutedScheduleWithASleepInABranchReplaysInItsOrder() throws {
        let yaml = Self.sleepInABranch(saveFirst: false)
        let scenario = try ScenarioLoader.parse(yaml: yaml, file: "sleep.yaml")
        for seed in UInt64(1)...3 {
            let run = try #require(scenario.run(variant: "short", seed: seed))
            let plan = RunPlan(run: run, summary: scenario.summary, mode: .deterministic)
            let outcome = ScenarioRunner.execute(plan, options: RunnerOptions(agentExecutable: RunHarness.groupsim))
            #expect(Self.verdictText(outcome) == "matched [\"busy\"]")
            let text = try ScenarioWriter.file(
                name: "replay", summary: "Replay.", comment: [], storeSource: yaml, processes: run.processes,
                steps: outcome.executed, expectation: .counts([AnomalyCount(kind: .busy, atLeast: 1, atMost: 1)]), seed: seed,
                schedule: .asWritten)
            let written = try ScenarioLoader.parse(yaml: text, file: "replay.yaml")
            let again = ScenarioRunner.execute(RunPlan(run: written.runs()[0], summary: "Replay.", mode: .deterministic),
                                               options: RunnerOptions(agentExecutable: RunHarness.groupsim))
            #expect(again.harnessError == nil)
            #expect(Self.verdictText(again) == "matched [\"busy\"]", "seed \(seed):\n\(text)")
            let order = { (o: RunOutcome) in o.executed.flatMap { step -> [String] in
                if case .parallel(let children) = step.step { children.map { "\($0.process ?? "-") \($0.step)" } } else { ["\(step.process ?? "-") \(step.step)"] }
            } }
            #expect(order(again) == order(outcome), "seed \(seed)")
        }
    }
}
