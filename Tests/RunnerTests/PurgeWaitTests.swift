import Basics
import Checkers
import Runner
import Testing
import TestSupport

/// A process whose history purge waits for another process's write lock is inside SQLite's busy handler
/// in real time: it handles nothing else until the purge succeeds or fails (notifications wait in its
/// inbox, a clock advance waits, a step of its own waits), and what waited behind the purge meets the lock
/// afresh once it fails. Each of these gave a verdict in the deterministic mode that real time never gives.
@Suite(.serialized, .spawnsProcesses) struct PurgeWaitTests {
    /// Runs `yaml` on each of `seeds` and once in real time: every run finds `found` (the kinds with their
    /// counts, as `Verdict.foundText` writes them).
    static func expectEveryRun(_ yaml: String, seeds: ClosedRange<UInt64>, finding found: String,
                               sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        var texts: [String] = []
        for seed in seeds {
            for outcome in try RunHarness.run(yaml, mode: .deterministic, seed: seed, pool: pool) {
                #expect(outcome.harnessError == nil, "seed \(seed)", sourceLocation: sourceLocation)
                texts.append(TraceChecker.check(outcome.trace).verdict.foundText)
            }
        }
        for outcome in try RunHarness.run(yaml) {
            #expect(outcome.harnessError == nil, "real time", sourceLocation: sourceLocation)
            texts.append(TraceChecker.check(outcome.trace).verdict.foundText)
        }
        #expect(texts.count == seeds.count + 1, sourceLocation: sourceLocation)
        #expect(Set(texts) == [found], "\(texts)", sourceLocation: sourceLocation)
    }

    /// The app and `other` read the notes; the file holds both's notifications, and the share saves n1.
    static let twoHeldReaders = """
      - app: launch
      - app: { fetch: Note }
      - other: launch
      - other: { fetch: Note }
      - fault: { hold-notifications: app }
      - fault: { hold-notifications: other }
      - share: launch
      - share: { insert: Note, id: n1, set: { title: A } }
      - share: save
    """

    /// Two notifications handed over by one `deliver`, while a sibling holds the write lock for longer than
    /// the app's busy timeout. In real time the app sits in SQLite's busy handler: the first merge's purge
    /// fails `busy`, the second notification's refresh then waits afresh, gets the lock and purges history
    /// the other process never read (it merges the second save without the first: not converged). The
    /// deterministic mode handled the second notification while the first purge waited, skipped its purge,
    /// and deleted nothing. The lock is let go halfway through the second wait (300 ms, the waits ending at
    /// about 200 and 400): with it let go as the second wait ended, a loaded machine's real time failed both.
    @Test func notificationsWaitBehindAPurgeWaitingForTheLock() throws {
        let yaml = WaitingProcessesTests.header + """
        processes:
          app: { role: host, refresh: history, purge: own-token, busy-timeout: 200ms }
          other: { role: action, refresh: history }
          share: { role: share }
        steps:
        \(Self.twoHeldReaders)
          - share: { insert: Note, id: n2, set: { title: B } }
          - share: save
          - share: { begin-write: true }
          - parallel:
              - { app: deliver }
              - [ { sleep: 300ms }, { share: end-write } ]
          - sleep: 100ms
          - other: deliver
          - other: { read: n2, expect: { title: B }, within: 1s }
          - share: exit
        expect: [busy, not-converged]
        """
        try WaitingProcessesTests.expectEveryRun(yaml, seeds: 1...4, "matched [\"busy\", \"not-converged\"]")
    }

    /// A `clock: advance` while the app's age-based purge waits for a sibling's lock. In real time the app
    /// is in SQLite's busy handler and reads the advance only after the purge, whose cutoff was taken on the
    /// clock before it: the save is a moment old and stays. The deterministic mode applied the advance
    /// during the wait, the purge deleted the save's history as eight days old, and the other process,
    /// merging later, never learned of the note (`missed-insert`, `not-converged`).
    @Test func aClockAdvanceWaitsBehindAPurgeWaitingForTheLock() throws {
        let yaml = WaitingProcessesTests.header + """
        processes:
          app: { role: host, refresh: history, purge: { older-than: 7d } }
          other: { role: action, refresh: history }
          share: { role: share }
        steps:
        \(Self.twoHeldReaders)
          - share: { begin-write: true }
          - parallel:
              - { app: deliver }
              - [ { sleep: 100ms }, { clock: { advance: 8d } }, { sleep: 100ms }, { share: end-write } ]
          - sleep: 100ms
          - other: deliver
          - other: { read: n1, expect: { title: A }, within: 1s }
          - share: exit
        """
        try WaitingProcessesTests.expectEveryRun(yaml, seeds: 1...4)
    }

    /// `expect-error: busy` on a `deliver` whose notification's purge meets a sibling's lock: held past the
    /// busy timeout, the purge's `busy` is the step's expected failure; let go within it, the purge succeeds
    /// and the expectation is unmet. Both modes reported the busy as unexpected (real time handled the
    /// notifications before the step's expectation was set; the deterministic mode decided the step before
    /// its waiting purge ended).
    @Test(arguments: [("300ms", "matched []"), ("50ms", "NOT matched [\"unmet-expectation\"]")])
    func aDeliversExpectedErrorIsItsPurges(_ hold: String, _ verdict: String) throws {
        let yaml = WaitingProcessesTests.header + """
        processes:
          app: { role: host, refresh: history, purge: own-token, busy-timeout: 100ms }
          share: { role: share }
        steps:
          - app: launch
          - app: { fetch: Note }
          - fault: { hold-notifications: app }
          - share: launch
          - share: { insert: Note, id: n1, set: { title: A } }
          - share: save
          - share: { begin-write: true }
          - parallel:
              - { app: { deliver: true, expect-error: busy } }
              - [ { sleep: \(hold) }, { share: end-write } ]
          - share: exit
        """
        try WaitingProcessesTests.expectEveryRun(yaml, seeds: 1...4, verdict)
    }

    /// A `deliver` outside `parallel` whose purge meets a lock held by a step after it: real time waits for
    /// the deliver's reply, which comes once the purge failed at its busy timeout, and only then lets the
    /// lock go. The deterministic mode ended the step at once and let the lock go during the wait.
    @Test func aDeliverOutsideParallelLastsUntilItsPurgeIsDone() throws {
        let yaml = WaitingProcessesTests.header + """
        processes:
          app: { role: host, refresh: history, purge: own-token, busy-timeout: 300ms }
          share: { role: share }
        steps:
          - app: launch
          - app: { fetch: Note }
          - share: launch
          - fault: { hold-notifications: app }
          - share: { insert: Note, id: n1, set: { title: A } }
          - share: save
          - share: { begin-write: true }
          - app: deliver
          - share: end-write
        """
        try Self.expectEveryRun(yaml, seeds: 1...4, finding: "busy")
    }

    /// A read behind a purge that fails at its busy timeout, after which the next notification's purge
    /// waits in turn: the read waits behind both (two `busy`), as in real time. The deterministic mode ran
    /// the read once the first wait was over.
    @Test func aStepWaitsBehindEachPurgeInTurn() throws {
        let yaml = WaitingProcessesTests.header + """
        processes:
          app: { role: host, refresh: history, purge: own-token, busy-timeout: 300ms }
          share: { role: share }
        steps:
          - app: launch
          - app: { fetch: Note }
          - fault: { hold-notifications: app }
          - share: launch
          - share: { insert: Note, id: n1, set: { title: A } }
          - share: save
          - share: { insert: Note, id: n2, set: { title: B } }
          - share: save
          - share: { begin-write: true }
          - parallel:
              - { app: deliver }
              - { sleep: 10ms }
          - app: { read: n1, expect: { title: A }, now: true }
          - share: end-write
          - share: exit
        """
        try Self.expectEveryRun(yaml, seeds: 1...4, finding: "busy ×2")
    }

    /// A notification delayed past the start of a `sleep` is handled when it arrives, during the sleep:
    /// its purge meets the lock and fails at its busy timeout before the sleep ends, in real time. The
    /// deterministic mode handed it over only after the sleep, and the purge then got the lock.
    @Test func aNotificationArrivingDuringASleepIsHandledThen() throws {
        let yaml = WaitingProcessesTests.header + """
        processes:
          app: { role: host, refresh: history, purge: own-token, busy-timeout: 200ms }
          share: { role: share }
        steps:
          - app: launch
          - app: { fetch: Note }
          - share: launch
          - fault: { delay-notifications: app, by: 50ms }
          - share: { insert: Note, id: n1, set: { title: A } }
          - share: save
          - share: { begin-write: true }
          - sleep: 500ms
          - share: end-write
          - app: { read: n1, expect: { title: A }, within: 500ms }
        """
        try Self.expectEveryRun(yaml, seeds: 1...4, finding: "busy")
    }

    /// Inside `parallel`, a notification that reached the app while its purge waited is handled once the
    /// purge fails, during a sibling's `sleep`: its own purge waits and fails before the sibling lets the
    /// lock go (two `busy`), as in real time. The deterministic mode handed it over after the sleep.
    @Test func aNotificationWaitingBehindAPurgeIsHandledWhenTheWaitFails() throws {
        let yaml = WaitingProcessesTests.header + """
        processes:
          app: { role: host, refresh: history, purge: own-token, busy-timeout: 100ms }
          other: { role: action }
          share: { role: share }
        steps:
          - app: launch
          - app: { fetch: Note }
          - other: launch
          - share: launch
          - fault: { hold-notifications: app }
          - share: { insert: Note, id: n1, set: { title: A } }
          - share: save
          - share: { begin-write: true }
          - parallel:
              - { app: deliver }
              - [ { sleep: 50ms }, { other: { post: store-did-save } }, { sleep: 200ms }, { share: end-write } ]
          - app: { read: n1, expect: { title: A }, within: 300ms }
        """
        try Self.expectEveryRun(yaml, seeds: 1...4, finding: "busy ×2")
    }
}
