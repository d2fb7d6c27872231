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
