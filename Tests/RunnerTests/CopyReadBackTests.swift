import Basics
import Runner
import Testing
import TestSupport
import Trace

/// A `copy-store` step costs what copying the store's files costs, in both modes: the runner sets the copy
/// aside and reads it back for the data-loss check once the run is over. Found by review 97 and 98: reading
/// a 20,000-row copy back inside the step took 50-130 ms in real time (a device copies such a store in a few
/// milliseconds), so a notification delayed 30 or 60 ms reached the reader before its next step in real time,
/// and after it in virtual time, where a copy costs a commit.
@Suite(.serialized, .spawnsProcesses) struct CopyReadBackTests {
    static let yaml = """
        summary: A store copy does not hold the next step up while the harness reads it back.
        store:
          group: group.example.notes
          name: Notes
          model:
            Note: { title: string, rank: int }
        processes:
          app: { role: host, refresh: history }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A, rank: 0 } }
          - app: save
          - app: { batch-insert: Note, count: 10000, set: { title: Bulk, rank: 1 } }
          - app: { fetch: Note, where: "rank == 0" }
          - share: launch
          - fault: { delay-notifications: app, by: 100ms }
          - share: { update: n1, set: { title: B } }
          - share: save
          - share: { copy-store: backup, with-wal: true }
          - app: { read: n1, expect: { title: B }, now: true }
        expect: [stale-read]
        """

    /// The read comes long before the notification in both modes: the copy of 10,000 rows takes a few
    /// milliseconds, against 100 ms of delay (reading it back inside the step took longer than that in a
    /// debug build). The copy is still judged: its `verified` event holds every row, in the copy's step,
    /// fixed from when the step was sent.
    @Test(arguments: [RunMode.realTime, .deterministic])
    func theReadAfterACopyComesBeforeADelayedNotification(mode: RunMode) throws {
        let outcome = try RunHarness.single(Self.yaml, mode: mode, seed: 1)
        #expect(outcome.harnessError == nil)
        #expect(OneWorldTests.verdictText(outcome) == #"matched ["stale-read"]"#)
        let copyStep = try #require(outcome.plan.info.steps.first { $0.text.contains("copy-store") }?.index)
        let verified = outcome.trace.events.compactMap { event -> (TraceEvent, VerificationRecord)? in
            if case .verified(let record) = event.kind { (event, record) } else { nil }
        }
        #expect(verified.count == 1)
        let (event, record) = try #require(verified.first)
        #expect(event.step == copyStep && event.process == "share")
        #expect(record.contents?.objects.count == 10_001)
        let sent = try #require(outcome.trace.events.first { $0.step == copyStep && $0.kind == .stepStarted }?.t)
        #expect(event.start.map { $0 >= sent } == true && event.t >= (event.start ?? .max))
    }
}
