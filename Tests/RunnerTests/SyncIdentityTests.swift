import Checkers
import Runner
import Testing
import TestSupport

/// A row imported while its exporter's `sync` step is still under way is named by its scenario id, in
/// both modes: the exporter publishes its objects' global identifiers before it uploads (`PublishedNames`).
@Suite(.serialized, .spawnsProcesses) struct SyncIdentityTests {
    /// Three stores of one ensemble each add a note and sync at once, then sync again: every store holds all
    /// three. Real time logged an import that overlapped its exporter's step under a placeholder (`Note#2`),
    /// and reported a `missed-insert` in 6 of 6 runs, where every store held every note; every seed passed.
    @Test func aNoteImportedWhileItsExporterSyncsIsNamed() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        let yaml = """
            summary: Three stores of one ensemble sync at once.
            store: { group: group.example.notes, name: Notes, model: { Note: { title: string, uid: uuid } } }
            processes:
              app: { role: host }
              watch: { role: watch, storage: own, sync: { transfer: { latency: 10ms } } }
              ipad: { role: watch, storage: own, sync: { transfer: { latency: 10ms } } }
            steps:
              - app: launch
              - watch: launch
              - ipad: launch
              - parallel:
                  - [ { app: { insert: Note, id: n1, set: { title: Phone } } }, { app: save }, { app: sync } ]
                  - [ { watch: { insert: Note, id: n2, set: { title: Watch } } }, { watch: save }, { watch: sync } ]
                  - [ { ipad: { insert: Note, id: n3, set: { title: Pad } } }, { ipad: save }, { ipad: sync } ]
              - sleep: 40ms
              - parallel: [ { app: sync }, { watch: sync }, { ipad: sync } ]
              - sleep: 40ms
              - app: { fetch: Note }
              - watch: { fetch: Note }
              - ipad: { fetch: Note }
              - app: { count: Note, expect: 3, now: true }
              - watch: { count: Note, expect: 3, now: true }
              - ipad: { count: Note, expect: 3, now: true }
            """
        var verdicts = try OneWorldTests.verdicts(yaml, seeds: 1...3, pool: pool)
        for _ in 1...2 {
            verdicts += try RunHarness.run(yaml, pool: pool).map(OneWorldTests.verdictText)
        }
        #expect(Set(verdicts) == ["matched []"], "\(verdicts)")
    }
}
