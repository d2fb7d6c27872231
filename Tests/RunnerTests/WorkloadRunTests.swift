import Basics
import Checkers
import Foundation
@testable import Runner
import ScenarioModel
import Testing
import TestSupport
import Trace

/// A workload touches only its own entity's objects and ids, and a key deleted and inserted again is
/// judged by its last committed state.
@Suite(.serialized, .spawnsProcesses) struct WorkloadRunTests {
    static let yaml = """
    summary: A workload beside objects that are not its own.
    store:
      group: group.test
      name: Notes
      model:
        Note:
          title: string
        Tag:
          name: string
    processes:
      app: { role: host, refresh: history }
      share: { role: share, refresh: history }
    steps:
      - app: launch
      - share: launch
      - app: { insert: Tag, id: t1, set: { name: x } }
      - app: { insert: Note, id: n1, set: { title: mine } }
      - app: save
      - workload: { processes: [share], entity: Note, mix: { insert: 2, update: 2, delete: 2, read: 1 }, rate: 400/s, duration: 300ms, keys: 3 }
      - app: { fetch: Note }
    """

    @Test(arguments: [1, 2, 3] as [UInt64])
    func aWorkloadLeavesOtherObjectsAloneAndReinsertedKeysConverge(seed: UInt64) throws {
        let scenario = try ScenarioLoader.parse(yaml: Self.yaml, file: "test.yaml")
        let run = try #require(scenario.runs(seed: seed).first)
        let outcome = ScenarioRunner.execute(RunPlan(run: run, summary: scenario.summary),
                                             options: RunnerOptions(agentExecutable: RunHarness.groupsim))
        #expect(outcome.harnessError == nil, "\(outcome.harnessError.map { "\($0)" } ?? "")")
        let commits = outcome.trace.events.compactMap { event -> SaveCommit? in
            if case .saveCommitted(let commit) = event.kind { commit } else { nil }
        }
        let touched = commits.dropFirst().flatMap(\.objects)
        #expect(!touched.contains { $0.id == "t1" || $0.id == "n1" }, "the workload wrote an object not its own")
        #expect(touched.allSatisfy { $0.entity == "Note" && $0.id.hasPrefix("k") })
        var inserts: [String: Int] = [:]
        for object in touched where object.operation == .insert { inserts[object.id, default: 0] += 1 }
        #expect(inserts.values.contains { $0 > 1 }, "three keys and many deletes insert some key again: \(inserts)")
        // One writer, so no race between writers: nothing but what the workload asked may show. (app
        // merges share's history; a read older than the stale tolerance on a loaded machine would be a
        // real outcome of timing, so only the kinds that would be harness artefacts are checked.)
        let anomalies = TraceChecker.check(outcome.trace).anomalies
        let artefacts: Set<AnomalyKind> = [.notConverged, .phantomRead, .dataLoss, .duplicate, .conflict, .missedDelete]
        #expect(!anomalies.contains { artefacts.contains($0.kind) }, "\(anomalies.map(\.explanation))")
        let stale = outcome.trace.events.filter { event in
            if case .error(let error) = event.kind { error.message.contains("inaccessible") } else { false }
        }
        #expect(stale.isEmpty, "a workload step reached a row deleted before it")
    }

    /// `crash ... during: save` armed before a workload kills the process inside one of the workload's
    /// saves: the killed save is an outcome, the other processes' operations go on, and nothing committed
    /// is lost, in both modes (the next operation on the dead process was a harness error).
    @Test(arguments: RunMode.allCases)
    func aCrashArmedBeforeAWorkloadStopsThatProcessOnly(mode: RunMode) throws {
        let yaml = """
        summary: The share extension is killed inside its first save of a workload.
        store:
          group: group.test
          name: Notes
          model:
            Note: { title: string }
        processes:
          app: { role: host, refresh: history }
          share: { role: share, refresh: history }
        steps:
          - app: launch
          - share: launch
          - fault: { crash: share, during: save }
          - workload: { processes: [app, share], entity: Note, mix: { insert: 1, read: 1 }, rate: 200/s, duration: 200ms, keys: 20 }
        """
        let outcome = try RunHarness.single(yaml, mode: mode)
        #expect(outcome.harnessError == nil, "\(outcome.harnessError.map { "\($0)" } ?? "")")
        #expect(outcome.events(of: "share").contains { if case .lifecycle(let change) = $0.kind { change.state == .crashed } else { false } })
        let anomalies = TraceChecker.check(outcome.trace).anomalies
        #expect(!anomalies.contains { $0.kind == .dataLoss }, "\(anomalies.map(\.explanation))")
    }
}
