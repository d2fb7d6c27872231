import Checkers
import Foundation
@testable import Runner
import Testing
import TestSupport
import Trace

/// The durability verdict: a store read back after a crash holds every commit settled before it, judged
/// in each store's commit order, and nothing about it depends on how the processes are named.
@Suite(.serialized, .spawnsProcesses) struct DataLossTests {
    /// The reproduction from the bug report: host (overwrite) inserts n1; share updates it; host deletes
    /// it; share inserts n2 and is killed inside that save. The store is rightly without n1 and n2.
    static func crashAfterADelete(host: String, share: String) -> String {
        """
        summary: An update recorded after a delete is no lost data.
        store:
          group: group.test
          name: Notes
          model:
            Note:
              title: string
        processes:
          \(host): { role: host, merge-policy: overwrite }
          \(share): { role: share }
        steps:
          - \(host): launch
          - \(host): { insert: Note, id: n1, set: { title: A } }
          - \(host): save
          - \(share): launch
          - \(share): { update: n1, set: { title: B } }
          - \(share): save
          - \(host): { delete: n1 }
          - \(host): save
          - \(share): { insert: Note, id: n2, set: { title: C } }
          - fault: { crash: \(share), during: save }
          - \(share): save
        """
    }

    @Test(arguments: [("app", "share"), ("share", "app"), ("zapp", "app"), ("app", "zapp"), ("a", "m"), ("z", "m")])
    func noFalseDataLossWhateverTheProcessesAreCalled(host: String, share: String) throws {
        let outcome = try RunHarness.single(Self.crashAfterADelete(host: host, share: share))
        #expect(outcome.harnessError == nil, "\(outcome.harnessError.map { "\($0)" } ?? "")")
        let verified = outcome.trace.events.compactMap { event -> VerificationRecord? in
            if case .verified(let record) = event.kind { record } else { nil }
        }
        #expect(verified.map(\.reason) == [.crash])
        #expect(verified.first?.contents?.objects.isEmpty == true, "the store is rightly empty")
        let anomalies = TraceChecker.check(outcome.trace).anomalies
        #expect(anomalies.isEmpty, "\(anomalies.map(\.explanation))")
    }

    /// The same trace with one committed row taken out of what the store held: the loss is found.
    @Test func aRowMissingFromTheStoreReadBackIsDataLoss() throws {
        let yaml = """
        summary: A committed row missing after a crash.
        store:
          group: group.test
          name: Notes
          model:
            Note:
              title: string
        processes:
          app: { role: host }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: { insert: Note, id: n2, set: { title: B } }
          - app: save
          - share: launch
          - share: crash
        """
        let outcome = try RunHarness.single(yaml)
        #expect(TraceChecker.check(outcome.trace).anomalies.isEmpty)
        var events = outcome.trace.events
        let index = try #require(events.firstIndex { if case .verified = $0.kind { true } else { false } })
        guard case .verified(var record) = events[index].kind else { return }
        record.contents?.objects.removeAll { $0.id == "n2" }
        events[index].kind = .verified(record)
        let anomalies = TraceChecker.check(RunTrace(info: outcome.trace.info, events: events)).anomalies
        #expect(anomalies.map(\.kind) == [.dataLoss])
        #expect(anomalies.first?.object == "n2")
        #expect(anomalies.first?.explanation.hasPrefix("After a crash, group:group.test has no n2, though app committed it") == true)
    }
}
