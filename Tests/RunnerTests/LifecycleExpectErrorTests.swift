import Basics
import Checkers
import Foundation
import Runner
import Testing
import TestSupport
import Trace

/// `expect-error:` on a lifecycle step (the contract allows it on any step): the refresh an activation
/// or a backgrounding runs carries it, so an expired token met there is the step's expected outcome; a
/// lifecycle step that cannot fail so is an unmet expectation. Both were ignored (history probe finding).
@Suite(.serialized, .spawnsProcesses) struct LifecycleExpectErrorTests {
    static let header = """
        summary: Expect-error on a lifecycle step.
        store:
          group: group.example.notes
          name: Notes
          model:
            Note:
              title: string

        """

    /// The share purges by its own token while the app is suspended; the app's activation merge meets it.
    static let expiredOnActivation = header + """
        processes:
          app: { role: host, refresh: history, trigger: activation }
          share: { role: share, purge: own-token }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - app: { fetch: Note }
          - app: merge-history
          - app: background
          - app: suspend
          - share: launch
          - share: { update: n1, set: { title: B } }
          - share: save
          - share: { update: n1, set: { title: C } }
          - share: save
          - share: { purge-history: true, expect: { deleted: 2 } }
          - share: exit
          - app: resume
          - app: { foreground: true, expect-error: expired-token }
        expect: { expired-token: 0 }
        """

    static let cannotFail = header + """
        processes:
          app: { role: host }
        steps:
          - app: launch
          - app: background
          - app: { foreground: true, expect-error: conflict }
        expect: unmet-expectation
        """

    /// The updated app's launch must migrate the store, which needs the write lock; the old app holds a
    /// write past the app's busy timeout when `holding`, and the store does not load, as the launch expects.
    static func migratingLaunch(holding: Bool, onLoadFailure: String = "crash") -> String {
        """
        summary: A launch that expects its store not to load.
        store:
          group: group.example.notes
          name: Notes
          models:
            v1: { Note: { title: string } }
            v2: { Note: { title: string, pinned: bool = false } }
        processes:
          old-app: { role: host, model: v1 }
          app: { role: host, busy-timeout: 30ms, on-load-failure: \(onLoadFailure) }
        steps:
          - old-app: launch
          - old-app: { insert: Note, id: n1, set: { title: Milk } }
          - old-app: save
          - old-app: { begin-write: true }
        \(holding ? "" : "  - old-app: { end-write: true }\n")\
          - app: { launch: true, expect-error: store-load-failed }
        """
    }

    /// Found by review 97: the failed launch was reported as a `store-load-failed` anomaly whatever the step
    /// expected, in both modes. Now the failure is the step's expected outcome, and a launch that loads its
    /// store after all is the unmet expectation it is.
    @Test(arguments: RunMode.allCases)
    func aLaunchExpectingItsStoreNotToLoadIsMetByTheFailure(mode: RunMode) throws {
        let failing = try RunHarness.single(Self.migratingLaunch(holding: true), mode: mode)
        #expect(failing.harnessError == nil)
        let failed = TraceChecker.check(failing.trace)
        #expect(failed.verdict.matched, "\(failed.anomalies.map(\.explanation))")
        #expect(failed.anomalies.isEmpty, "\(failed.anomalies.map(\.explanation))")
        let loading = try RunHarness.single(Self.migratingLaunch(holding: false), mode: mode)
        let loaded = TraceChecker.check(loading.trace)
        #expect(loaded.anomalies.map(\.kind) == [.unmetExpectation], "\(loaded.anomalies.map(\.explanation))")
        // Falling back to an empty store in memory, the process runs on, but its store did not load.
        let fallingBack = try RunHarness.single(Self.migratingLaunch(holding: true, onLoadFailure: "in-memory"), mode: mode)
        let fellBack = TraceChecker.check(fallingBack.trace)
        #expect(fellBack.anomalies.isEmpty, "\(fellBack.anomalies.map(\.explanation))")
    }

    @Test(arguments: RunMode.allCases)
    func anExpiredTokenMetByTheActivationIsTheStepsExpectedOutcome(mode: RunMode) throws {
        let outcome = try RunHarness.single(Self.expiredOnActivation, mode: mode)
        #expect(outcome.harnessError == nil)
        let result = TraceChecker.check(outcome.trace)
        #expect(result.verdict.matched, "\(result.anomalies.map(\.explanation))")
        #expect(result.verdict.found[.expiredToken] == nil, "accepted: neither the activation nor the final refresh counts it")
    }

    @Test(arguments: RunMode.allCases)
    func aLifecycleStepThatCannotFailSoIsAnUnmetExpectation(mode: RunMode) throws {
        let outcome = try RunHarness.single(Self.cannotFail, mode: mode)
        #expect(outcome.harnessError == nil)
        let result = TraceChecker.check(outcome.trace)
        #expect(result.verdict.matched, "\(result.anomalies.map(\.explanation))")
        #expect(result.anomalies.map(\.kind) == [.unmetExpectation])
    }
}
