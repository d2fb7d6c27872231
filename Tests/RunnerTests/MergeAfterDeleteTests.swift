import Runner
import Testing
import TestSupport

/// A history merge after a process's own delete: the older insert it fetches must not bring the deleted
/// object back (it did, as an empty object, and the run failed with `missed-delete` and `not-converged`
/// in both modes).
@Suite(.serialized, .spawnsProcesses) struct MergeAfterDeleteTests {
    /// The app launches after the share's insert (no token yet), deletes the note and saves; the share's
    /// next save makes it merge every transaction since the beginning, the first insert included.
    static let yaml = OneWorldTests.header + """
    processes:
      app: { role: host, refresh: history, trigger: darwin }
      share: { role: share }
    steps:
      - share: launch
      - share: { insert: Note, id: n1, set: { title: T1 } }
      - share: save
      - share: exit
      - app: launch
      - app: { fetch: Note }
      - app: { delete: n1 }
      - app: save
      - share: launch
      - share: { insert: Note, id: n2, set: { title: T2 } }
      - share: save
      - app: { count: Note, expect: 1, within: 1s }
      - app: { read: n2, expect: { title: T2 }, now: true }
    """

    @Test func anOlderInsertMergedAfterTheAppsDeleteLeavesItDeletedInBothModes() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let verdicts = try OneWorldTests.verdicts(Self.yaml, seeds: 1...3, pool: pool)
        #expect(verdicts.count == 4)
        #expect(Set(verdicts) == ["matched []"], "\(verdicts)")
    }
}
