import Basics
import Checkers
import Foundation
@testable import Runner
import Testing
import TestSupport
import Trace

/// Crashes, conflicts, parallel steps, workloads, hung agents and notification faults, run by the real
/// runner with real agent processes (the refresh strategies and triggers are in EndToEndTests).
@Suite(.serialized, .spawnsProcesses) struct EndToEndFaultTests {
    static let header = EndToEndTests.header

    @Test func aCrashInsideASaveCommitsNothing() throws {
        let yaml = """
        \(Self.header)
        processes:
          app: { role: host, refresh: staleness, staleness: 0 }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - share: launch
          - share: { update: n1, set: { title: B } }
          - fault: { crash: share, during: save }
          - share: save
          - app: { fetch: Note }
          - app: { read: n1, expect: { title: A }, now: true }
        """
        let outcome = try RunHarness.single(yaml)
        #expect(outcome.harnessError == nil)
        #expect(outcome.checks.allSatisfy { $0.passed })
        let crashed = outcome.events(of: "share").contains { event in
            if case .lifecycle(let change) = event.kind { change.state == .crashed } else { false }
        }
        #expect(crashed)
        let commitsByShare = outcome.events(of: "share").filter { if case .saveCommitted = $0.kind { true } else { false } }
        #expect(commitsByShare.isEmpty)
        #expect(outcome.leftNoProcess)
    }

    @Test func anExpectedConflictIsNotAFailure() throws {
        let yaml = """
        \(Self.header)
        processes:
          app: { role: host }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - app: { fetch: Note }
          - app: { read: n1, now: true }
          - share: launch
          - share: { update: n1, set: { title: B } }
          - share: save
          - app: { update: n1, set: { rank: 2 } }
          - app: { save: true, expect-error: conflict }
        """
        let outcome = try RunHarness.single(yaml)
        #expect(outcome.harnessError == nil)
        let ended = outcome.trace.events.compactMap { event -> ErrorRecord? in
            if case .stepEnded(let error?) = event.kind { error } else { nil }
        }
        #expect(ended.map(\.kind) == [.conflict])
        #expect(ended.first?.expected == true)
    }

    @Test func newRowsNeverAppearAfterRefreshAllObjects() throws {
        let yaml = """
        \(Self.header)
        processes:
          app: { role: host, refresh: staleness, staleness: 0 }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - app: { fetch: Note }
          - share: launch
          - share: { insert: Note, id: m, set: { title: M } }
          - share: save
          - share: exit
          - app: { count: Note, expect: 2, within: 200ms }
        """
        let outcome = try RunHarness.single(yaml)
        let counts = outcome.trace.events.compactMap { event -> CountObservation? in
            if case .counted(let count) = event.kind, count.final { count } else { nil }
        }
        #expect(counts.last?.ids == ["n1"])
        #expect(outcome.checks.last?.passed == false)
    }

    @Test func parallelSavesFromTwoProcessesBothCommit() throws {
        let yaml = """
        \(Self.header)
        processes:
          app: { role: host }
          share: { role: share }
        steps:
          - app: launch
          - share: launch
          - app: { insert: Note, id: a, set: { title: A } }
          - share: { insert: Note, id: s, set: { title: S } }
          - parallel: [ { app: save }, { share: save } ]
          - app: { fetch: Note }
          - app: { count: Note, expect: 2, now: true }
        """
        let outcome = try RunHarness.single(yaml)
        #expect(outcome.harnessError == nil)
        #expect(outcome.checks.last?.passed == true)
    }

    @Test func aWorkloadRecordsEveryReadAndCommit() throws {
        let yaml = """
        \(Self.header)
        processes:
          app: { role: host, refresh: staleness, staleness: 0 }
          share: { role: host }
        steps:
          - app: launch
          - share: launch
          - app: { fetch: Note }
          - workload: { processes: [app, share], entity: Note, mix: { insert: 2, update: 2, delete: 1, read: 3 }, rate: 400/s, duration: 200ms, keys: 20 }
        """
        let outcome = try RunHarness.single(yaml)
        #expect(outcome.harnessError == nil)
        let workloadReads = outcome.trace.events.filter { if case .observed(let o) = $0.kind { o.workload } else { false } }
        let commits = outcome.trace.events.filter { if case .saveCommitted = $0.kind { true } else { false } }
        #expect(workloadReads.count > 10)
        #expect(commits.count > 10)
    }

    @Test func aHungAgentAtLaunchEndsInATimeoutNamingTheProcess() throws {
        let yaml = """
        \(Self.header)
        processes:
          hang-at-launch: { role: host }
        steps:
          - hang-at-launch: launch
        """
        let outcomes = try RunHarness.run(yaml, executable: RunHarnessPaths.testpeer, launchTimeout: .milliseconds(300))
        let error = try #require(outcomes.first?.harnessError)
        #expect(error.process == "hang-at-launch")
        #expect(error.location == "test.yaml:12")
        #expect(outcomes.first?.leftNoProcess == true)
    }

    @Test func aHungAgentDuringAStepEndsInATimeoutNamingTheStep() throws {
        let yaml = """
        \(Self.header)
        processes:
          app: { role: host, busy-timeout: 10ms }
        steps:
          - app: launch
          - app: save
        """
        let outcomes = try RunHarness.run(yaml, executable: RunHarnessPaths.testpeer, stepTimeout: .milliseconds(300))
        let error = try #require(outcomes.first?.harnessError)
        #expect(error.process == "app")
        #expect(error.location == "test.yaml:13")
        #expect(error.message.contains("save"))
        #expect(outcomes.first?.leftNoProcess == true)
    }
}

enum RunHarnessPaths {
    static var testpeer: String { RunHarness.groupsim.replacingOccurrences(of: "/groupsim", with: "/testpeer") }
}

extension EndToEndTests {
    @Test func anExpectedErrorThatDoesNotHappenIsRecordedAsAFailedCheck() throws {
        let yaml = """
        \(Self.header)
        processes:
          app: { role: host }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: { save: true, expect-error: conflict }
        """
        let outcome = try RunHarness.single(yaml)
        #expect(outcome.harnessError == nil)
        #expect(outcome.checks.map(\.kind) == [.expectError])
        #expect(outcome.checks.first?.passed == false)
    }
}

extension EndToEndTests {
    @Test func unsavedEditsAtTheEndAreNotAnomalies() throws {
        let yaml = """
        \(Self.header)
        processes:
          app: { role: host }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - app: { fetch: Note }
          - app: { update: n1, set: { title: "edited, not saved" } }
          - app: { insert: Note, id: n2, set: { title: never saved } }
        """
        let outcome = try RunHarness.single(yaml)
        let result = TraceChecker.check(outcome.trace)
        #expect(result.anomalies.isEmpty, "\(result.anomalies.map(\.explanation))")
        let view = outcome.trace.events.compactMap { event -> StateSnapshot? in
            if case .finalView(let view) = event.kind { view } else { nil }
        }.first
        #expect(view?.objects.map(\.id) == ["n1"])
        #expect(view?.objects.first?.values["title"] == nil)
    }
}

extension EndToEndTests {
    @Test func aCrashInsideASaveRunningInParallelDoesNotStallTheOtherSave() throws {
        let yaml = """
        \(Self.header)
        processes:
          app: { role: host, busy-timeout: 3s }
          share: { role: share }
        steps:
          - app: launch
          - share: launch
          - app: { insert: Note, id: a, set: { title: A } }
          - share: { insert: Note, id: s, set: { title: S } }
          - fault: { crash: share, during: save }
          - parallel: [ { app: save }, { share: save } ]
        """
        let start = ContinuousClock.now
        let outcome = try RunHarness.single(yaml)
        #expect(outcome.harnessError == nil)
        let errors = outcome.trace.events.compactMap { event -> ErrorRecord? in
            if case .stepEnded(let error?) = event.kind { error } else { nil }
        }
        #expect(errors.isEmpty, "the app's save waited on the killed save's lock: \(errors)")
        #expect(ContinuousClock.now - start < .seconds(3))
        #expect(outcome.leftNoProcess)
    }
}

extension EndToEndTests {
    @Test func droppedNotificationsNeverRefreshAndDelayedOnesArriveLate() throws {
        let dropped = try RunHarness.single(EndToEndTests.staleTitle(
            app: "refresh: staleness, staleness: 0",
            finalRead: "{ read: n1, expect: { title: B }, within: 200ms }")
            .replacingOccurrences(of: "  - share: launch\n", with: "  - fault: { drop-notifications: app, for: 5s }\n  - share: launch\n"))
        #expect(dropped.reads(of: "n1", by: "app").last?.values["title"] == .string("A"))
        let routed = dropped.events(of: "hub").compactMap { event -> HubDecision? in
            if case .notificationRouted(let record, let decision) = event.kind, record.to == "app", record.from == "share" { decision } else { nil }
        }
        #expect(routed == [.droppedByFault])

        let delayed = try RunHarness.single(EndToEndTests.staleTitle(
            app: "refresh: staleness, staleness: 0",
            finalRead: "{ read: n1, expect: { title: B }, within: 40ms }")
            .replacingOccurrences(of: "  - share: launch\n", with: "  - fault: { delay-notifications: app, by: 1500ms }\n  - share: launch\n")
            + "\n  - app: { read: n1, expect: { title: B }, within: 5s }")
        let titles = delayed.reads(of: "n1", by: "app").map { $0.values["title"] }
        #expect(titles == [.string("A"), .string("A"), .string("B")])
    }
}
