import Checkers
import Runner
import Testing
import TestSupport

/// A `parallel` nested in a branch of another runs as branches of the outer one where the schedule is the
/// same (a child of it, or the end of a branch after sleeps), so the outer branches go on beside it.
@Suite(.serialized, .spawnsProcesses) struct NestedParallelTests {
    private static let processes = """
        processes: { app: { role: host }, share: { role: share }, action: { role: action } }
        steps:
          - app: launch
          - share: launch
          - action: launch

        """

    @Test func aNestedParallelAfterSleepsOrAloneRunsAsBranchesOfTheOuterOne() throws {
        let flat = OneWorldTests.header + Self.processes + """
              - parallel:
                  - [ { sleep: 20ms }, { parallel: [ { sleep: 100ms }, [ { sleep: 70ms }, { share: { insert: Note, id: s1 } } ] ] } ]
                  - { parallel: [ { app: { insert: Note, id: a1 } }, { action: { insert: Note, id: c1 } } ] }
            """
        #expect(try RunHarness.plannedBranches(flat, at: 3) == [
            "sleep 20ms ; sleep 100ms", "sleep 20ms ; sleep 70ms ; share: insert Note s1 {}",
            "app: insert Note a1 {}", "action: insert Note c1 {}",
        ])
        // After a step that is not a sleep, or with a step after it: its branch waits for all its children.
        let nested = OneWorldTests.header + Self.processes + """
              - parallel:
                  - [ { app: { insert: Note, id: a1 } }, { parallel: [ { sleep: 10ms }, { sleep: 20ms } ] } ]
                  - [ { parallel: [ { share: { insert: Note, id: s1 } }, { action: { insert: Note, id: c1 } } ] }, { sleep: 1ms } ]
            """
        #expect(try RunHarness.plannedBranches(nested, at: 3) == [
            "app: insert Note a1 {} ; parallel (2 steps)", "parallel (2 steps) ; sleep 1ms",
        ])
    }

    /// The autosave due 50 ms into the outer `parallel` commits then, beside a `parallel` nested 20 ms into
    /// another branch, and the share's read at 90 ms inside it sees it, in both modes and on every seed. Run
    /// as a step of its own, the nested one held the autosave's branch until it ended at 120 ms, and the
    /// read saw the old title.
    @Test func anAutosaveDueBesideANestedParallelCommitsAtItsMoment() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let yaml = OneWorldTests.header + """
            processes:
              app: { role: host, framework: swiftdata, autosave-delay: 50ms }
              share: { role: share, refresh: staleness, staleness: 0 }
            steps:
              - app: launch
              - app: { insert: Note, id: n1, set: { title: A } }
              - app: save
              - share: launch
              - share: { fetch: Note }
              - app: { update: n1, set: { title: B } }
              - parallel:
                  - [ { sleep: 20ms }, { parallel: [ { sleep: 100ms }, [ { sleep: 70ms }, { share: { read: n1, expect: { title: B }, now: true } } ] ] } ]
            """
        let verdicts = try OneWorldTests.verdicts(yaml, seeds: 1...3, pool: pool)
        #expect(Set(verdicts) == ["matched []"], "\(verdicts)")
    }
}
