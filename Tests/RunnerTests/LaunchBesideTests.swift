import Checkers
import Runner
import Testing
import TestSupport
import Trace

/// A launch among the children of `parallel` delays no sibling, in either mode, as an extension starting
/// on a device delays no other process: real time goes on with the other branches while the agent opens
/// its store, and the deterministic mode lets the launch last what it costs in virtual time for its
/// branch alone. Before, real time sent nothing and ended no sibling's `sleep` until the launch was done,
/// and the deterministic mode moved every sibling 40 ms on when its seed ran the launch first, but not
/// their sleeps: a save beside a launch escaped the busy it meets without one.
@Suite(.serialized, .spawnsProcesses) struct LaunchBesideTests {
    /// action holds the write lock for `hold`; app's save, beside share's launch, gives up after `timeout`.
    static func saveBesideLaunch(hold: String, timeout: String) -> String {
        OneWorldTests.header + """
        processes:
          app: { role: host, busy-timeout: \(timeout) }
          action: { role: action }
          share: { role: share }
        steps:
          - app: launch
          - action: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - action: { begin-write: true }
          - parallel:
              - [ { sleep: \(hold) }, { action: end-write } ]
              - { share: launch }
              - { app: save }
          - action: exit
        expect: [busy]
        """
    }

    /// Held 20 ms with a 10 ms timeout, every seed gives `busy` (half did, when a launch run first moved
    /// the save 40 ms on); real time, whose timing is the machine's, is asked with margins a busy machine
    /// keeps (held 100 ms, 30 ms).
    @Test func aSaveBesideALaunchMeetsTheLockAsWithoutIt() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        var verdicts: [String] = []
        for seed in UInt64(1)...8 {
            let outcome = try RunHarness.single(Self.saveBesideLaunch(hold: "20ms", timeout: "10ms"), mode: .deterministic, seed: seed, pool: pool)
            verdicts.append("seed \(seed): " + OneWorldTests.verdictText(outcome))
        }
        verdicts.append("real time: " + OneWorldTests.verdictText(try RunHarness.single(Self.saveBesideLaunch(hold: "100ms", timeout: "30ms"))))
        #expect(verdicts.allSatisfy { $0.hasSuffix("matched [\"busy\"]") && !$0.contains("NOT") }, "\(verdicts)")
    }

    /// app shows n1 titled A; action has renamed it B and not saved; share is not running.
    static let renamePrelude = """
    processes:
      app: { role: host, refresh: history }
      action: { role: action }
      share: { role: share, refresh: history }
    steps:
      - app: launch
      - app: { insert: Note, id: n1, set: { title: A } }
      - app: save
      - app: { fetch: Note }
      - action: launch
      - action: { update: n1, set: { title: B } }

    """

    /// In real time the save is sent while share still opens its store: the runner's own sequencing
    /// says so (the save's step starts before the launch's ends), whatever the machine's speed.
    @Test func realTimeSendsASiblingsCommandDuringALaunch() throws {
        let outcome = try RunHarness.single(Self.saveBesideLaunch(hold: "100ms", timeout: "30ms"))
        #expect(outcome.harnessError == nil)
        let steps = outcome.trace.info.steps
        let save = try #require(steps.first { $0.text == "app: save" }).index
        let launch = try #require(steps.first { $0.text == "share: launch" }).index
        func moment(of step: Int, _ ended: Bool) -> UInt64? {
            outcome.trace.events.first { event in
                guard event.step == step else { return false }
                switch event.kind {
                case .stepStarted: return !ended
                case .stepEnded: return ended
                default: return false
                }
            }?.t
        }
        let saveStarted = try #require(moment(of: save, false)), launchEnded = try #require(moment(of: launch, true))
        #expect(saveStarted < launchEnded)
    }

    /// A branch that launches and then reads goes on once the launch has passed (40 ms in virtual time);
    /// a check beside it keeps its own deadline: app's read, allowed 20 ms, never sees action's save 30 ms
    /// in, every seed (half saw it when the launch ran first and moved the check 40 ms on, but not the
    /// sleep); real time is asked with a save 100 ms in.
    @Test func aCheckBesideALaunchKeepsItsDeadline() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        func yaml(saveAfter: String) -> String {
            OneWorldTests.header + Self.renamePrelude + """
              - parallel:
                  - [ { share: launch }, { share: { fetch: Note } } ]
                  - { app: { read: n1, expect: { title: B }, within: 20ms } }
                  - [ { sleep: \(saveAfter) }, { action: save } ]
              - action: exit
            expect: [unmet-expectation]
            """
        }
        var verdicts: [String] = []
        for seed in UInt64(1)...8 {
            let outcome = try RunHarness.single(yaml(saveAfter: "30ms"), mode: .deterministic, seed: seed, pool: pool)
            verdicts.append("seed \(seed): " + OneWorldTests.verdictText(outcome))
        }
        verdicts.append("real time: " + OneWorldTests.verdictText(try RunHarness.single(yaml(saveAfter: "100ms"))))
        #expect(verdicts.allSatisfy { $0.hasSuffix("matched [\"unmet-expectation\"]") && !$0.contains("NOT") }, "\(verdicts)")
    }

    /// A launch that migrates the store needs the write lock, and neither mode lets it wait for a sibling
    /// to let go (Docs/Runner.md, "not built in either mode"): real time holds the siblings back for it,
    /// as the deterministic mode fails the load at once, so both give `store-load-failed` where Core Data's
    /// load would wait for the `end-write` and succeed.
    @Test func aLaunchThatMigratesFailsAlikeInBothModes() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let yaml = """
        summary: share opens the store with a newer model while app holds the write lock for 50 ms beside it.
        store:
          group: group.example.notes
          name: Notes
          models:
            v1: { Note: { title: string } }
            v2: { Note: { title: string, body: string? } }
        processes:
          app: { role: host, model: v1 }
          share: { role: share, model: v2, busy-timeout: 2s }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - app: { begin-write: true }
          - parallel:
              - { share: launch }
              - [ { sleep: 50ms }, { app: end-write } ]
        expect: [store-load-failed]
        """
        let verdicts = try OneWorldTests.verdicts(yaml, seeds: 1...3, pool: pool)
        #expect(Set(verdicts) == ["matched [\"store-load-failed\"]"], "\(verdicts)")
    }

    /// What a launch costs holds back the rest of its branch, a `sleep` included: share's save, 30 ms after
    /// its 40 ms launch, comes after app's `end-write` 50 ms in, every seed. Only the deterministic mode is
    /// asked: in real time a launch takes 15 to 40 ms, and 50 ms is too close.
    @Test func aSleepAfterALaunchCountsFromItsEnd() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let yaml = OneWorldTests.header + """
        processes:
          app: { role: host }
          share: { role: share, busy-timeout: 5ms }
        steps:
          - app: launch
          - app: { begin-write: true }
          - parallel:
              - [ { share: launch }, { sleep: 30ms }, { share: { insert: Note, id: s1, set: { title: S } } }, { share: save } ]
              - [ { sleep: 50ms }, { app: end-write } ]
        """
        for seed in UInt64(1)...6 {
            let outcome = try RunHarness.single(yaml, mode: .deterministic, seed: seed, pool: pool)
            #expect(OneWorldTests.verdictText(outcome) == "matched []", "seed \(seed)")
        }
    }

    /// Nothing is handed over to a process still launching: app's save notifies share, which is starting,
    /// and app's check 10 ms on keeps its 10 ms deadline, never seeing action's save 30 ms in (a hand-over
    /// to share moved every clock to the end of its launch).
    @Test func nothingIsHandedOverToAProcessStillLaunching() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let yaml = OneWorldTests.header + Self.renamePrelude + """
          - app: { insert: Note, id: n2, set: { title: Two } }
          - parallel:
              - { share: launch }
              - [ { app: save }, { sleep: 10ms }, { app: { read: n1, expect: { title: B }, within: 10ms } } ]
              - [ { sleep: 30ms }, { action: save } ]
          - action: exit
        expect: [unmet-expectation]
        """
        for seed in UInt64(1)...6 {
            let outcome = try RunHarness.single(yaml, mode: .deterministic, seed: seed, pool: pool)
            #expect(OneWorldTests.verdictText(outcome) == "matched [\"unmet-expectation\"]", "seed \(seed)")
        }
    }
}
