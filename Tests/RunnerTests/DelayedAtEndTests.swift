import Basics
import Checkers
@testable import Runner
import Testing
import TestSupport
import Trace

/// A notification a `delay-notifications` fault holds back past the last step: the run's end waits for it,
/// so the process refreshes on it before the harness's final refresh, in both modes (it used to race the
/// final refresh in real time and never arrive in the deterministic mode).
@Suite(.serialized, .spawnsProcesses) struct DelayedAtEndTests {
    static let scenario = """
    \(EndToEndTests.header)
    processes:
      app: { role: host, refresh: history, trigger: darwin }
      share: { role: share }
    steps:
      - app: launch
      - app: { insert: Note, id: n1, set: { title: A } }
      - app: save
      - app: { fetch: Note }
      - fault: { delay-notifications: app, by: 400ms }
      - share: launch
      - share: { update: n1, set: { title: B } }
      - share: save
    """

    /// The reasons of `process`'s refreshes, in order.
    static func refreshReasons(_ outcome: RunOutcome, of process: String) -> [RefreshReason] {
        outcome.events(of: process).compactMap { event in
            if case .refreshStarted(let refresh) = event.kind { refresh.reason } else { nil }
        }
    }

    @Test func aDelayedNotificationIsHandledBeforeTheFinalRefreshInBothModes() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        var outcomes = [try RunHarness.single(Self.scenario)]
        for seed: UInt64 in 1...3 {
            outcomes.append(try RunHarness.single(Self.scenario, mode: .deterministic, seed: seed, pool: pool))
        }
        for (index, outcome) in outcomes.enumerated() {
            let run = index == 0 ? "real time" : "seed \(index)"
            #expect(outcome.harnessError == nil, "\(run): \(outcome.harnessError.map { "\($0)" } ?? "")")
            let reasons = Self.refreshReasons(outcome, of: "app")
            #expect(reasons.suffix(2) == [.darwin, .final], "\(run): \(reasons)")
            // The share's notification reached the app no sooner than its delay after the hub held it, and
            // the app's last refresh on a notification came after it.
            let received = outcome.events(of: "app").compactMap { event -> UInt64? in
                if case .notificationReceived = event.kind { event.t } else { nil }
            }
            // When the hub held it back (the share records its post a moment after sending it).
            let posted = outcome.events(of: "hub").compactMap { event -> UInt64? in
                if case .notificationRouted(let record, .delayed) = event.kind, record.to == "app" { event.t } else { nil }
            }
            let refreshed = outcome.events(of: "app").compactMap { event -> UInt64? in
                if case .refreshStarted(let refresh) = event.kind, refresh.reason == .darwin { event.t } else { nil }
            }
            if let delivered = received.last, let post = posted.last, let refresh = refreshed.last {
                #expect(delivered >= post + 400_000_000, "\(run): delivered \(delivered), posted \(post)")
                #expect(refresh >= delivered, "\(run): refreshed \(refresh), delivered \(delivered)")
            } else {
                Issue.record("\(run): received \(received), posted \(posted), refreshed \(refreshed)")
            }
            #expect(OneWorldTests.verdictText(outcome) == OneWorldTests.verdictText(outcomes[0]), "\(run)")
        }
    }
}
