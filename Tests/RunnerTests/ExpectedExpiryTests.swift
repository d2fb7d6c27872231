import Basics
import Checkers
import Runner
import Testing
import TestSupport

/// A step that expected its history token to have expired (`expect-error: expired-token`) accepts that
/// expiry: the run's final refresh meeting the same token again is not a new `expired-token`. (What the
/// app never merged still leaves its view behind the store: `not-converged` stays a finding.)
@Suite(.serialized, .spawnsProcesses) struct ExpectedExpiryTests {
    static let yaml = """
        summary: The app learns its history token expired.
        store: { group: group.t, name: Notes, model: { Note: { title: string } } }
        processes:
          app: { role: host, refresh: history, trigger: manual }
          share: { role: share, purge: { older-than: 7d } }
        steps:
          - app: launch
          - app: { fetch: Note }
          - app: { insert: Note, id: n0, set: { title: Z } }
          - app: save
          - app: merge-history
          - share: launch
          - share: { insert: Note, id: n1, set: { title: A } }
          - share: save
          - clock: { advance: 8d }
          - share: { insert: Note, id: n2, set: { title: B } }
          - share: save
          - share: purge-history
          - share: exit
          - app: { merge-history: true, expect-error: expired-token }
        """

    @Test(arguments: RunMode.allCases)
    func theFinalRefreshDoesNotReportTheSameExpiryAgain(mode: RunMode) throws {
        let outcome = try RunHarness.single(Self.yaml, mode: mode)
        #expect(outcome.harnessError == nil)
        let kinds = Set(TraceChecker.check(outcome.trace).anomalies.map(\.kind))
        #expect(kinds == [.notConverged], "\(kinds)")
        let expired = outcome.trace.events.compactMap { event -> Bool? in
            if case .error(let error) = event.kind, error.kind == .expiredToken { error.expected } else { nil }
        }
        #expect(!expired.isEmpty && expired.allSatisfy { $0 }, "the final refresh met the expiry again, and it is accepted: \(expired)")
    }
}
