@testable import ScenarioModel
import Testing

/// Scenarios written the way Docs/Bugs.md asks for them validate, so the language covers every reported bug.
@Suite struct BugScenarioTests {
    private static let header = """
        store:
          group: group.example.notes
          name: Notes
          model:
            Note:
              title: string
              body: string?
              uid: uuid
        """

    @Test func historyPurgedBeforeAnotherProcessReadIt() throws {
        let scenario = try Fixture.scenario(Self.header + """

            name: purged-history
            summary: The share extension purges history the app has not merged yet.
            source: https://github.com/fatbobman/PersistentHistoryTrackingKit/issues/7
            processes:
              app: { role: host, refresh: history, trigger: manual }
              share: { role: share, purge: own-token }
            steps:
              - app: launch
              - app: { insert: Note, id: n1, set: { title: T1 } }
              - app: save
              - app: merge-history
              - share: launch
              - share: { update: n1, set: { title: T2 } }
              - share: save
              - share: { update: n1, set: { title: T3 } }
              - share: save
              - clock: { advance: 8d }
              - share: purge-history
              - app: { merge-history: true, expect-error: expired-token }
              - app: { read: n1, expect: { title: T3 }, within: 500ms }
            variants:
              own-token: { expect: [expired-token, stale-read] }
              consumed-by-all: { share: { purge: consumed-by-all }, expect: pass }
            """)
        #expect(scenario.runs().map(\.expectation) == [.anomalies([.expiredToken, .staleRead]), .pass])
    }

    @Test func lockHeldWhileSuspended() throws {
        let scenario = try Fixture.scenario(Self.header + """

            name: lock-held-while-suspended
            summary: A suspended share extension holds the write lock and the app's save times out.
            processes:
              app: { role: host, busy-timeout: 100ms }
              share: { role: share }
            steps:
              - app: launch
              - share: launch
              - share: { begin-write: true }
              - share: suspend
              - app: { insert: Note, id: n1 }
              - app: { save: true, expect-error: busy }
              - share: resume
              - share: end-write
            expect: [lock-held-while-suspended, busy]
            """)
        #expect(scenario.runs().map(\.variant) == ["default"])
        #expect(scenario.steps[5].expectError == .busy)
    }

    @Test func watchWithItsOwnStore() throws {
        let scenario = try Fixture.scenario(Self.header + """

            name: watch-own-store
            summary: The watch never sees notes made on the phone.
            processes:
              app: { role: host }
              watch: { role: watch }
            steps:
              - parallel: [ { app: launch }, { watch: launch } ]
              - app: { insert: Note, id: n1, set: { title: phone } }
              - app: save
              - app: sync
              - watch: sync
              - watch: { count: Note, expect: 1, within: 2s }
            variants:
              no-sync: { expect: [missed-insert] }
              transfer: { watch: { sync: { transfer: { latency: 100ms } } }, app: { sync: transfer }, expect: pass }
            """)
        let runs = scenario.runs()
        #expect(runs[0].process(named: "watch")?.settings.storage == .own)
        #expect(runs[1].process(named: "watch")?.settings.sync == .transfer(latency: .milliseconds(100)))
    }

    @Test func crashInTheMiddleOfASaveAndARacingWorkload() throws {
        let scenario = try Fixture.scenario(Self.header + """

            name: crash-during-save
            summary: A share extension killed inside its save loses nothing committed.
            processes:
              app: { role: host, refresh: history }
              share: { role: share }
              action: { role: action }
            steps:
              - parallel: [ { app: launch }, { share: launch }, { action: launch } ]
              - workload: { processes: [app, share, action], entity: Note, mix: { insert: 2, update: 2, read: 6 }, rate: 200/s, duration: 1s, keys: 50 }
              - share: { insert: Note, id: n1 }
              - fault: { crash: share, during: save }
              - share: save
              - app: { read: n1, expect: absent, within: 200ms }
              - app: { copy-store: backup, with-wal: false }
              - app: { open-copy: backup }
            stale-tolerance: 100ms
            """)
        #expect(scenario.staleTolerance == .milliseconds(100))
        guard case let .workload(workload) = scenario.runs()[0].steps[1].step else {
            Issue.record("expected a workload")
            return
        }
        #expect(workload.mix == WorkloadMix(insert: 2, update: 2, delete: 0, read: 6))
        #expect(workload.seed == SeedDerivation.workloadSeed(root: 1, ordinal: 1))
    }
}
