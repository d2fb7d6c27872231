import Basics
import Runner
import Testing
import TestSupport

/// A launch that migrates the store takes the longer the more rows the migration rewrites, in both modes
/// (`CostModel.migratedRow`). Found by review 97: a notification delayed 100 ms reached the share during the
/// updated app's migrating launch on a 20,000-row store in every real-time run (5 of 5), and after it on every
/// deterministic seed, where a launch cost 40 ms whatever it did.
@Suite(.serialized, .spawnsProcesses) struct MigrationCostTests {
    static let yaml = """
        summary: A migrating launch on a large store outlasts a delayed notification.
        store:
          group: group.example.notes
          name: Notes
          models:
            v1: { Note: { title: string, color: string? }, Tag: { name: string } }
            v2: { Note: { title: string }, Tag: { name: string } }
        processes:
          old-app: { role: host, model: v1 }
          app: { role: host }
          share: { role: share, model: v1, refresh: history }
        steps:
          - old-app: launch
          - old-app: { batch-insert: Note, count: 40000, set: { title: x } }
          - old-app: { insert: Tag, id: t1, set: { name: A } }
          - old-app: save
          - share: launch
          - share: { fetch: Tag }
          - fault: { delay-notifications: share, by: 150ms }
          - old-app: { update: t1, set: { name: B } }
          - old-app: save
          - old-app: terminate
          - app: launch
          - share: { read: t1, expect: { name: B }, now: true }
        variants:
          migrating: { expect: pass }
          same-model: { share: { model: v2 }, old-app: { model: v2 }, expect: [stale-read] }
        """

    /// 40,000 rows take about 360 ms to migrate (release build; longer in a debug one), a launch without a
    /// migration 40 ms: the 150 ms delay falls well inside the one and well after the other, whatever the
    /// machine's speed. Each variant's expectation names its own verdict, so a swap would not match.
    @Test func aMigratingLaunchLastsAsLongAsTheRowsItRewrites() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let verdicts = try OneWorldTests.verdicts(Self.yaml, seeds: 1...1, pool: pool)
        #expect(verdicts.count == 4)
        #expect(Set(verdicts) == ["matched []", #"matched ["stale-read"]"#], "\(verdicts)")
    }
}
