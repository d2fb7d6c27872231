import Basics
import Checkers
import Foundation
import Runner
import ScenarioModel
import Testing
import TestSupport
import Trace

/// Branches of a `parallel` (sequences) in both modes: only a branch's first step starts with the others,
/// and a branch's later steps start after what the steps before them take.
@Suite(.serialized, .spawnsProcesses) struct ParallelBranchTests {
    private static func verdicts(_ yaml: String, seeds: ClosedRange<UInt64> = 1...6, pool: AgentPool) throws -> [String] {
        try OneWorldTests.verdicts(yaml, seeds: seeds, pool: pool)
    }

    /// A `within:` check first in its branch sees a sibling's save, whatever comes after it in the branch
    /// (a second step there held the process's notifications until it started: a second's missed-insert).
    @Test func aCheckFirstInItsBranchSeesASiblingsSaveWhateverFollowsIt() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let verdicts = try Self.verdicts("""
            summary: A check early in a branch and a sibling that saves.
            store:
              group: group.example.notes
              name: Notes
              model:
                Note: { title: string }
            processes:
              app: { role: host, refresh: history }
              share: { role: share }
            steps:
              - app: launch
              - app: { insert: Note, id: n1, set: { title: A } }
              - app: save
              - app: { fetch: Note }
              - parallel:
                  - [ { share: launch }, { share: { insert: Note, id: n2, set: { title: S } } }, { share: save }, { share: exit } ]
                  - [ { app: { count: Note, expect: 2, within: 1s } }, { app: { count: Note, expect: 2, now: true } } ]
            """, pool: pool)
        #expect(Set(verdicts) == ["matched []"], "\(verdicts)")
    }

    /// The app goes to the background and is suspended while a branch launches an extension that saves:
    /// a launch takes far longer than the two lifecycle steps, so the save comes while the app is
    /// suspended and its notification is dropped, every seed as in real time (a seed could run the
    /// extension's launch, edit and save in no time, before the suspension).
    @Test func aLaunchInABranchTakesItsTimeBeforeTheStepsAfterIt() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let verdicts = try Self.verdicts("""
            summary: The app is suspended in one branch while an extension saves in another.
            store:
              group: group.example.notes
              name: Notes
              model:
                Note: { title: string }
            processes:
              app: { role: host, refresh: staleness, staleness: 0, trigger: darwin, delivery: drop }
              share: { role: share }
            steps:
              - app: launch
              - app: { insert: Note, id: n1, set: { title: A } }
              - app: save
              - app: { fetch: Note }
              - app: { read: n1, expect: { title: A }, now: true }
              - parallel:
                  - [ { app: background }, { app: suspend }, { sleep: 300ms }, { app: resume }, { app: foreground }, { app: { read: n1, expect: { title: B }, now: true } } ]
                  - [ { share: launch }, { share: { update: n1, set: { title: B } } }, { share: save }, { share: exit } ]
            expect: [stale-read]
            """, seeds: 1...8, pool: pool)
        #expect(Set(verdicts) == ["matched [\"stale-read\"]"], "\(verdicts)")
    }

    /// A batch insert builds its rows before it asks for the write lock: a save a sibling starts 2 ms in
    /// commits before it in both modes (it took the lock at once in the deterministic mode, and the save
    /// met it and failed `busy`; real time never did, 0 of 8).
    @Test func aSaveStartedWhileABatchInsertBuildsItsRowsCommitsFirst() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let verdicts = try Self.verdicts("""
            summary: A save beside a large batch insert.
            store:
              group: group.example.notes
              name: Notes
              model:
                Note: { title: string }
            processes:
              app: { role: host, busy-timeout: 30ms }
              share: { role: share }
            steps:
              - app: launch
              - app: { insert: Note, id: n1, set: { title: A } }
              - app: save
              - share: launch
              - app: { update: n1, set: { title: B } }
              - parallel:
                  - { share: { batch-insert: Note, count: 100000, set: { title: bulk } } }
                  - [ { sleep: 2ms }, { app: save } ]
            expect: pass
            """, seeds: 1...4, pool: pool)
        #expect(Set(verdicts) == ["matched []"], "\(verdicts)")
    }

    /// A file explore wrote (`schedule: as-written`) lists a schedule's steps as a flat `parallel`: a
    /// `sleep` there holds back the children written after it in both modes (real time started the read
    /// at once, the deterministic mode after the sleep).
    @Test func asWrittenASleepHoldsBackTheChildrenAfterItInBothModes() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let verdicts = try Self.verdicts("""
            summary: A schedule written out with a sleep among a parallel's children.
            schedule: as-written
            store:
              group: group.example.notes
              name: Notes
              model:
                Note: { title: string }
            processes:
              app: { role: host, refresh: history }
              share: { role: share }
            steps:
              - app: launch
              - app: { insert: Note, id: n1, set: { title: A } }
              - app: save
              - app: { fetch: Note }
              - share: launch
              - share: { update: n1, set: { title: B } }
              - parallel: [ { share: save }, { sleep: 300ms }, { app: { read: n1, expect: { title: B }, now: true } } ]
            """, seeds: 1...2, pool: pool)
        #expect(Set(verdicts) == ["matched []"], "\(verdicts)")
    }
    /// Two branches that each sleep 100 ms: in the deterministic mode the second branch's sleep counts
    /// from its own start, as its timer does in real time, not from when the first branch's step ended
    /// (its insert began 201 ms in). The schedule written out waits as it ran: replayed as written, every
    /// step begins at the same virtual moment.
    @Test func siblingSleepsCountFromTheirOwnBranch() throws {
        let yaml = """
            summary: Two branches each sleep, then insert.
            store: { group: group.t, name: N, model: { Note: { title: string } } }
            processes:
              app: { role: host }
              share: { role: share }
            steps:
              - app: launch
              - share: launch
              - parallel:
                  - [ { sleep: 100ms }, { app: { insert: Note, id: a, set: { title: A } } } ]
                  - [ { sleep: 100ms }, { share: { insert: Note, id: b, set: { title: B } } } ]
              - app: save
            expect: pass
            """
        let scenario = try ScenarioLoader.parse(yaml: yaml, file: "sleeps.yaml")
        for seed in UInt64(1)...3 {
            let run = try #require(scenario.run(variant: "default", seed: seed))
            let outcome = ScenarioRunner.execute(RunPlan(run: run, summary: scenario.summary, mode: .deterministic),
                                                 options: RunnerOptions(agentExecutable: RunHarness.groupsim))
            #expect(outcome.harnessError == nil)
            let starts = Self.stepStarts(outcome)
            let parallel = try #require(starts.first { $0.process == "runner" }?.t)
            let inserts = starts.filter { $0.process != "runner" }.suffix(3).prefix(2).map(\.t)
            #expect(inserts.count == 2 && inserts.allSatisfy { $0 >= parallel + 100_000_000 && $0 < parallel + 110_000_000 },
                    "seed \(seed): \(inserts.map { $0 - parallel })")
            let text = try ScenarioWriter.file(
                name: "replay", summary: "Replay.", comment: [], storeSource: yaml, processes: run.processes,
                steps: outcome.executed, expectation: .pass, seed: seed, schedule: .asWritten)
            let written = try ScenarioLoader.parse(yaml: text, file: "replay.yaml")
            let again = ScenarioRunner.execute(RunPlan(run: written.runs()[0], summary: "Replay.", mode: .deterministic),
                                               options: RunnerOptions(agentExecutable: RunHarness.groupsim))
            #expect(Self.stepStarts(again).map(\.t) == starts.map(\.t), "seed \(seed):\n\(text)")
        }
    }

    /// Three processes poll with `within:` from 50 ms, deadlines at 120 ms; the share saves at 100 ms. In real
    /// time they poll in their own processes while the share acts; in the deterministic mode each check
    /// asked again took its cost of virtual time, so the share's update began at 108 ms and its commit
    /// came after the deadlines (a stale read in seeds 3 to 6, found by a mode probe). Asked again, a check
    /// takes no virtual time: every seed matches, as real time does.
    @Test func checksAskedAgainDelayNoSibling() throws {
        let yaml = """
            summary: The share saves at 100 ms; three readers poll from 50 ms with deadlines at 120 ms.
            store: { group: group.t, name: N, model: { Note: { title: string } } }
            processes:
              app:    { role: host, refresh: history }
              share:  { role: share }
              action: { role: action, refresh: history }
              service: { role: notification-service, refresh: history }
            steps:
              - app: launch
              - share: launch
              - action: launch
              - service: launch
              - app: { insert: Note, id: n1, set: { title: A } }
              - app: save
              - app: { fetch: Note }
              - action: { fetch: Note }
              - service: { fetch: Note }
              - parallel:
                  - [ { sleep: 100ms }, { share: { update: n1, set: { title: B } } }, { share: save } ]
                  - [ { sleep: 50ms }, { app: { read: n1, expect: { title: B }, within: 70ms } } ]
                  - [ { sleep: 50ms }, { action: { read: n1, expect: { title: B }, within: 70ms } } ]
                  - [ { sleep: 50ms }, { service: { read: n1, expect: { title: B }, within: 70ms } } ]
            expect: pass
            """
        for seed in UInt64(1)...6 {
            let outcome = try RunHarness.single(yaml, mode: .deterministic, seed: seed)
            #expect(outcome.harnessError == nil)
            let result = TraceChecker.check(outcome.trace)
            #expect(result.verdict.matched, "seed \(seed): \(result.anomalies.map(\.explanation))")
        }
    }

    /// A workload beside a lock held for 300 ms: its saves meet the lock while it is held (a `busy` each,
    /// the busy timeout being 50 ms) and not after, whichever child the file writes first, in both modes'
    /// world: it ran alone, before or after its sibling, meeting the lock in none of its 20 saves or in all
    /// of them (found by a mode probe). Two workloads in one `parallel` insert ids of their own.
    @Test(arguments: [true, false])
    func aWorkloadRunsBesideItsSiblings(workloadFirst: Bool) throws {
        let workload = "- workload: { processes: [share], entity: Note, mix: { insert: 1 }, rate: 20/s, duration: 1s, keys: 50 }"
        let lock = "- [ { app: { begin-write: true } }, { sleep: 300ms }, { app: end-write } ]"
        let yaml = """
            summary: A workload beside a held lock.
            store: { group: group.t, name: N, model: { Note: { title: string } } }
            processes:
              app: { role: host }
              share: { role: share, busy-timeout: 50ms }
              action: { role: action }
            steps:
              - app: launch
              - share: launch
              - action: launch
              - parallel:
                  \(workloadFirst ? workload : lock)
                  \(workloadFirst ? lock : workload)
                  - workload: { processes: [action], entity: Note, mix: { insert: 1 }, rate: 20/s, duration: 500ms, keys: 50 }
              - share: exit
            expect: [busy]
            """
        for seed in UInt64(1)...3 {
            let outcome = try RunHarness.single(yaml, mode: .deterministic, seed: seed)
            #expect(outcome.harnessError == nil)
            let result = TraceChecker.check(outcome.trace)
            let busy = result.anomalies.filter { $0.kind == .busy }
            #expect((3...7).contains(busy.count) && busy.allSatisfy { $0.process == "share" },
                    "seed \(seed): \(busy.count) busy, \(result.anomalies.map(\.explanation))")
            #expect(!result.anomalies.contains { $0.kind == .duplicate }, "\(result.anomalies.map(\.explanation))")
        }
    }

    private static func stepStarts(_ outcome: RunOutcome) -> [(process: String, t: UInt64)] {
        outcome.trace.events.compactMap { event in
            if case .stepStarted = event.kind { (event.process, event.t) } else { nil }
        }
    }
    /// A check with `within:` of one child and another child of the same process: real time sends the
    /// other child's command between the check's attempts, and asks the check again once it is answered.
    /// The deterministic mode ran the other child only once the check was decided, and kept the process's
    /// notifications back until then (its steps were not all under way): the check never saw the share's
    /// save 20 ms in, a `missed-insert` on every seed where real time matched. A 50 ms window still closes
    /// before the save, which waits for the batch's lock.
    @Test func aCheckBetweenItsAttemptsLetsAnotherChildOfItsProcessStart() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let yaml = """
        summary: A check beside its own process's batch.
        store: { group: group.example.notes, name: Notes, model: { Note: { title: string }, Tag: { name: string } } }
        processes: { app: { role: host, refresh: history }, share: { role: share } }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - app: { fetch: Note }
          - share: launch
          - parallel:
              - app: { count: Note, expect: 2, within: 400ms, variants: { short: { within: 50ms } } }
              - app: { batch-insert: Tag, count: 20000, set: { name: t } }
              - [ { sleep: 20ms }, { share: { insert: Note, id: s1, set: { title: S } } }, { share: save } ]
        variants:
          long: { expect: pass }
          short: { expect: [unmet-expectation] }
        """
        for seed in UInt64(1)...3 {
            for outcome in try RunHarness.run(yaml, mode: .deterministic, seed: seed, pool: pool) {
                let label = "seed \(seed) \(outcome.plan.run.variant)"
                #expect(outcome.harnessError == nil, "\(label)")
                #expect(TraceChecker.check(outcome.trace).verdict.matched, "\(label): \(OneWorldTests.verdictText(outcome))")
            }
        }
    }
    /// A lifecycle step of a check's process in another child waits for the check to be decided, in both
    /// modes: real time suspended the app between the check's attempts and then asked it again, a harness
    /// error ("it is suspended") in every run. Meanwhile the other branches go on and the app gets their
    /// notifications, so the check sees the extension's save at 20 ms and passes: real time had held the
    /// save's branch back behind the waiting suspend, and both modes had held the app's notifications until
    /// the suspend began (`unmet-expectation` in real time, `stale-read` on every seed).
    @Test(arguments: RunMode.allCases)
    func aSuspendBesideItsProcesssCheckWaitsForTheCheck(mode: RunMode) throws {
        for seed: UInt64 in mode == .deterministic ? [1, 2, 3] : [1] {
            let outcome = try RunHarness.single(OneWorldTests.header + """
                processes: { app: { role: host, refresh: history }, share: { role: share } }
                steps:
                  - app: launch
                  - app: { insert: Note, id: n1, set: { title: A } }
                  - app: save
                  - app: { fetch: Note }
                  - share: launch
                  - share: { fetch: Note }
                  - share: { update: n1, set: { title: B } }
                  - parallel:
                      - app: { read: n1, expect: { title: B }, within: 100ms }
                      - app: suspend
                      - [ { sleep: 20ms }, { share: save } ]
                  - app: resume
                """, mode: mode, seed: seed)
            #expect(outcome.harnessError == nil, "\(outcome.harnessError.map { "\($0)" } ?? "")")
            let checkEnded = try #require(outcome.trace.events.last { event in
                if case .check = event.kind { event.process == "app" } else { false }
            })
            let suspended = try #require(outcome.trace.events.first { event in
                if case .lifecycle(let change) = event.kind { event.process == "app" && change.state == .suspended } else { false }
            })
            #expect(suspended.t >= checkEnded.t, "seed \(seed): the suspend came before the check was decided")
            let saved = try #require(outcome.trace.events.first { event in
                if case .saveCommitted = event.kind { event.process == "share" } else { false }
            })
            #expect(saved.t < checkEnded.t, "seed \(seed): the extension's save waited for the check")
            #expect(TraceChecker.check(outcome.trace).verdict.matched, "seed \(seed): \(OneWorldTests.verdictText(outcome))")
        }
    }

    /// A check with `within: 50ms` beside its process's own batch insert, and a save of the share 60 ms in:
    /// the batch's request carries the open check's deadline, so the app keeps holding what was posted
    /// after it, and the check's last attempt, asked once the batch is done, shows the store as of the
    /// deadline (`viewAsOf`): `unmet-expectation` in both modes. The batch's request had ended the hold,
    /// and the late attempt merged the share's save and passed in real time (every seed failed it).
    /// With the app polling (`trigger: poll`), its poll waits for the check past its deadline too: real
    /// time ran the poll that fell due while the batch ran as soon as the batch was done, and it merged the
    /// share's save before the check's last attempt.
    @Test(arguments: ["", ", trigger: poll, poll-interval: 20ms"])
    func aCheckWaitingBehindItsProcesssBatchShowsTheStoreAsOfItsDeadline(polling: String) throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let yaml = OneWorldTests.header + """
                Tag: { name: string }
            processes: { app: { role: host, refresh: history\(polling) }, share: { role: share } }
            steps:
              - app: launch
              - app: { insert: Note, id: n1, set: { title: A } }
              - app: save
              - app: { fetch: Note }
              - share: launch
              - parallel:
                  - app: { count: Note, expect: 2, within: 50ms }
                  - app: { batch-insert: Tag, count: 20000, set: { name: t } }
                  - [ { sleep: 60ms }, { share: { insert: Note, id: s1, set: { title: S } } }, { share: save } ]
            expect: [unmet-expectation]
            """
        var verdicts = try OneWorldTests.verdicts(yaml, seeds: 1...3, pool: pool)
        verdicts += try RunHarness.run(yaml, pool: pool).map(OneWorldTests.verdictText)
        #expect(Set(verdicts) == ["matched [\"unmet-expectation\"]"], "\(verdicts)")
    }

    /// A poll that falls due while its process carries out a batch insert waits for the batch, as the agent
    /// runs one thing at a time, and then for the check beside it, past its deadline: the count misses the
    /// share's save from before the `parallel` (`missed-insert`) on every seed. The deterministic timer
    /// polled in the middle of the batch and merged it, which real time cannot do. Real time is not
    /// asserted: its first poll may fall between the share's save and the check's first attempt.
    @Test func aPollDueDuringItsProcesssBatchWaitsForIt() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let yaml = OneWorldTests.header + """
                Tag: { name: string }
            processes: { app: { role: host, refresh: history, trigger: poll, poll-interval: 30ms }, share: { role: share } }
            steps:
              - app: launch
              - app: { insert: Note, id: n1, set: { title: A } }
              - app: save
              - app: { fetch: Note }
              - share: launch
              - share: { insert: Note, id: s1, set: { title: S } }
              - share: save
              - parallel:
                  - app: { count: Note, expect: 2, within: 50ms }
                  - app: { batch-insert: Tag, count: 20000, set: { name: t } }
            expect: [missed-insert]
            """
        // The seeds only (`OneWorldTests.verdicts` runs real time once too, which may go either way here).
        var verdicts: [String] = []
        for seed: UInt64 in 1...3 {
            verdicts += try RunHarness.run(yaml, mode: .deterministic, seed: seed, pool: pool).map(OneWorldTests.verdictText)
        }
        #expect(verdicts.count == 3 && Set(verdicts) == ["matched [\"missed-insert\"]"], "\(verdicts)")
    }

    /// A process's steps keep the order written while one of them waits for its process's check: beside a
    /// check, the app's `background` waits for it, and so does the app's insert written after it, in both
    /// modes. Real time sent the insert between the check's attempts, before the background, and the check
    /// counted the insert and passed; every seed failed it.
    @Test func aStepWrittenAfterOneWaitingForItsProcesssCheckWaitsToo() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let yaml = OneWorldTests.header + """
            processes: { app: { role: host } }
            steps:
              - app: launch
              - app: { insert: Note, id: n1, set: { title: A } }
              - app: save
              - parallel:
                  - app: { count: Note, expect: 2, within: 100ms }
                  - app: background
                  - app: { insert: Note, id: n2, set: { title: B } }
              - app: save
            expect: [unmet-expectation]
            """
        let verdicts = try OneWorldTests.verdicts(yaml, seeds: 1...3, pool: pool)
        #expect(Set(verdicts) == ["matched [\"unmet-expectation\"]"], "\(verdicts)")
    }
}
