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
}
