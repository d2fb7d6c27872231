import Checkers
import Runner
import Testing
import TestSupport

/// What a `parallel` written with one process in two branches, or a fault beside a save, does: the same
/// in both modes, every seed.
@Suite(.serialized, .spawnsProcesses) struct ParallelOrderTests {
    /// A lifecycle step written beside its own process's save runs after the save, as real time runs it
    /// (the process takes one request at a time, in the order written): never a harness error for a
    /// save sent to a process already suspended or ended.
    @Test(arguments: ["suspend", "terminate", "exit", "crash"])
    func aLifecycleStepBesideItsProcesssSaveRunsAfterItEverySeed(_ lifecycle: String) throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let yaml = OneWorldTests.header + """
        processes:
          app: { role: host, refresh: history, trigger: darwin }
          share: { role: share }
        steps:
          - app: launch
          - share: launch
          - share: { insert: Note, id: s1, set: { title: S } }
          - parallel: [ { share: save }, { share: \(lifecycle) } ]
          - app: { count: Note, expect: 1, within: 1s }
        """
        let verdicts = try OneWorldTests.verdicts(yaml, seeds: 1...6, pool: pool)
        #expect(Set(verdicts) == ["matched []"], "\(verdicts)")
    }

    /// A fault on the hub's deliveries beside a branch that saves is in effect from the parallel's start in
    /// both modes: real time no longer waits for the branch's commands in flight before applying it (it
    /// did, and the save's notification got through every time, where every seed dropped it).
    @Test func aNotificationFaultBesideASaveDropsItsNotificationInBothModes() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let yaml = OneWorldTests.header + """
        processes:
          app: { role: host, refresh: history, trigger: darwin }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - app: { fetch: Note }
          - share: launch
          - parallel:
            - [ { share: { update: n1, set: { title: B } } }, { share: save } ]
            - fault: { drop-notifications: app, for: 1s }
          - app: { read: n1, expect: { title: B }, now: true }
        expect: [stale-read]
        """
        let verdicts = try OneWorldTests.verdicts(yaml, seeds: 1...4, pool: pool)
        #expect(Set(verdicts) == ["matched [\"stale-read\"]"], "the app never heard of the save: \(verdicts)")
    }

    /// Steps that run in the runner, not as a process's command (a lifecycle change, a push's work), run one
    /// at a time in the order written, in both modes: a `suspend` written before a push beside it comes
    /// first, so the app, suspended with `delivery: drop`, loses the extension's notification; written
    /// after, the push's work is done first and the app hears of it. The seeds picked either order.
    @Test(arguments: [true, false])
    func stepsRunByTheRunnerKeepTheirWrittenOrder(suspendFirst: Bool) throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let children = suspendFirst ? "[ { app: suspend }, { service: push } ]" : "[ { service: push }, { app: suspend } ]"
        let yaml = """
        summary: A push arrives as the app is suspended.
        store: { group: group.example.chat, name: Chat, model: { Message: { text: string } } }
        processes:
          app: { role: host, refresh: history, delivery: drop }
          service: { role: notification-service, on-push: [ { insert: Message, id: m1, set: { text: Hi } }, save ] }
        steps:
          - app: launch
          - app: { fetch: Message }
          - app: background
          - parallel: \(children)
          - app: resume
          - app: { count: Message, expect: 1, within: 100ms }
        expect: \(suspendFirst ? "[missed-insert]" : "pass")
        """
        let verdicts = try OneWorldTests.verdicts(yaml, seeds: 1...6, pool: pool)
        #expect(Set(verdicts) == [suspendFirst ? "matched [\"missed-insert\"]" : "matched []"], "\(verdicts)")
    }
}
