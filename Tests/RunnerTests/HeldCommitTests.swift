import Checkers
import Runner
import Testing
import TestSupport
import Trace

/// A write among the children of `parallel` lasts what it costs in both modes: in the deterministic
/// mode its transaction stays open, holding the write lock, until its cost has passed in virtual time,
/// so a sibling that starts meanwhile meets the lock and a read meanwhile sees the store as it was.
/// Without it the children ran one after the other and a 20,000-row batch insert was over before a
/// save 50 ms into it started: no `busy` where real time gives one.
@Suite(.serialized, .spawnsProcesses) struct HeldCommitTests {
    /// A batch insert of 20,000 rows (100 ms in the deterministic mode; in real time about 90 ms in a
    /// release build and 190 ms in a debug one, its lock taken within its first 10 to 20) beside a branch
    /// that waits 50 ms and then saves in share: a 10 ms busy timeout fails, a 5 s one waits for the batch.
    static let longWrite = OneWorldTests.header + """
    processes: { app: { role: host }, share: { role: share } }
    steps:
      - app: launch
      - share: launch
      - share: { insert: Note, id: s1, set: { title: Beside } }
      - parallel:
          - app: { batch-insert: Note, count: 20000, set: { title: Bulk } }
          - [ { sleep: 50ms }, { share: save } ]
    variants:
      short: { share: { busy-timeout: 10ms }, expect: { busy: 1 } }
      long: { share: { busy-timeout: 5s }, expect: pass }
    """

    @Test func aLongWriteHoldsTheLockWhileItsSiblingsActInBothModes() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        var runs: [(String, RunOutcome)] = []
        for seed in UInt64(1)...3 {
            runs += try RunHarness.run(Self.longWrite, mode: .deterministic, seed: seed, pool: pool).map { ("seed \(seed)", $0) }
        }
        runs += try RunHarness.run(Self.longWrite).map { ("real time", $0) }
        #expect(runs.count == 8)
        for (label, outcome) in runs {
            let variant = outcome.plan.run.variant
            #expect(outcome.harnessError == nil, "\(label) \(variant)")
            #expect(TraceChecker.check(outcome.trace).verdict.matched, "\(label) \(variant): \(OneWorldTests.verdictText(outcome))")
            let commits = outcome.trace.events.compactMap { event in
                if case .saveCommitted = event.kind { event.process } else { nil }
            }
            // The long timeout's save waited for the batch to commit; the short one's failed.
            #expect(commits == (variant == "long" ? ["app", "share"] : ["app"]), "\(label) \(variant): \(commits)")
        }
    }

    /// A fetch 50 ms into the batch sees the store as it was (the batch has not committed), in both modes;
    /// share never refreshes, so its list stays empty to the end (`not-converged`).
    @Test func aReadDuringALongWriteSeesTheStoreAsItWas() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let yaml = OneWorldTests.header + """
        processes: { app: { role: host }, share: { role: share } }
        steps:
          - app: launch
          - share: launch
          - parallel:
              - app: { batch-insert: Note, count: 20000, set: { title: Bulk } }
              - [ { sleep: 50ms }, { share: { fetch: Note, limit: 1 } }, { share: { count: Note, expect: 0, now: true } } ]
        expect: [not-converged]
        """
        let verdicts = try OneWorldTests.verdicts(yaml, seeds: 1...3, pool: pool)
        #expect(Set(verdicts) == ["matched [\"not-converged\"]"], "\(verdicts)")
        // As written, the batch starts first: the count still comes before its commit.
        let asWritten = try RunHarness.single("schedule: as-written\n" + yaml, mode: .deterministic, pool: pool)
        #expect(OneWorldTests.verdictText(asWritten) == "matched [\"not-converged\"]")
    }

    /// The step after a save in a branch starts once the save has committed, whatever process it is
    /// of: share's first read of the note sees the title app saved just before it, every seed.
    @Test func aBranchsNextStepStartsAfterItsWriteCommitted() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let yaml = OneWorldTests.header + """
        processes: { app: { role: host }, share: { role: share } }
        steps:
          - app: launch
          - share: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - app: { update: n1, set: { title: B } }
          - parallel:
              - [ { app: save }, { share: { fetch: Note } }, { share: { read: n1, expect: { title: B }, now: true } } ]
              - sleep: 1ms
        """
        let verdicts = try OneWorldTests.verdicts(yaml, seeds: 1...6, pool: pool)
        #expect(verdicts.count == 7)
        #expect(Set(verdicts) == ["matched []"], "\(verdicts)")
    }
}
