import Basics
import Checkers
import Foundation
@testable import Runner
import ScenarioModel
import Testing
import TestSupport
import Trace

/// The deterministic mode end to end: a run is a function of the file, the variant and the seed;
/// time is virtual; one agent acts at a time; notifications arrive at points the seed chooses.
@Suite(.serialized, .spawnsProcesses) struct DeterministicModeTests {
    static let header = """
    summary: Deterministic mode.
    store:
      group: group.test
      name: Notes
      model:
        Note:
          title: string
          rank: int = 0
    """

    static let workload = header + """

    processes:
      app: { role: host, refresh: history }
      share: { role: share }
      action: { role: action }
    steps:
      - app: launch
      - share: launch
      - action: launch
      - workload: { processes: [app, share, action], entity: Note, duration: 1s, rate: 40/s, keys: 6 }
    """

    private static func bytes(_ outcome: RunOutcome) throws -> Data {
        let directory = try TemporaryDirectory(prefix: "groupsim-det")
        let url = directory.url.appendingPathComponent("trace.jsonl")
        try TraceFile.write(outcome.trace, to: url)
        return try Data(contentsOf: url)
    }

    /// 50 runs of a three-process workload with one seed write one trace, byte for byte; another seed
    /// writes another.
    @Test func aSeedReplaysTheSameTraceByteForByte() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 3)
        defer { pool.close() }
        var traces: Set<Data> = []
        for _ in 0..<50 {
            let outcome = try RunHarness.single(Self.workload, mode: .deterministic, seed: 1, pool: pool)
            #expect(outcome.harnessError == nil, "\(outcome.harnessError.map { "\($0)" } ?? "")")
            traces.insert(try Self.bytes(outcome))
        }
        #expect(traces.count == 1)
        let other = try RunHarness.single(Self.workload, mode: .deterministic, seed: 2, pool: pool)
        #expect(!traces.contains(try Self.bytes(other)), "another seed, another schedule")
        let saves = other.trace.events.filter { if case .saveCommitted = $0.kind { true } else { false } }
        #expect(saves.count > 10, "the workload ran")
    }

    /// A `within:` that never matches waits in virtual time: its last read comes after the deadline,
    /// and it fails there (no real second is slept).
    @Test func withinFailsAtItsVirtualDeadline() throws {
        let yaml = Self.header + """

        processes:
          app: { role: host }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - app: { fetch: Note }
          - share: launch
          - share: { update: n1, set: { title: B } }
          - share: save
          - app: { read: n1, expect: { title: B }, within: 2s }
        """
        let outcome = try RunHarness.single(yaml, mode: .deterministic)
        #expect(outcome.harnessError == nil)
        #expect(outcome.checks.map(\.passed) == [false])
        let step = outcome.plan.info.steps.last!.index
        let started = try #require(outcome.trace.events.first { $0.step == step && $0.kind == .stepStarted }?.t)
        let last = try #require(outcome.trace.events.last { event in
            if case .observed(let read) = event.kind { read.final && event.step == step } else { false }
        })
        #expect(last.t - started >= 2_000_000_000, "the last read is at the deadline, in virtual time")
        #expect(outcome.leftNoProcess)
    }

    /// `trigger: poll` refreshes on the runner's virtual timer: a `within:` read waits for the next poll.
    @Test func pollRefreshesRunOnVirtualTime() throws {
        let yaml = Self.header + """

        processes:
          app: { role: host, refresh: staleness, staleness: 0, trigger: poll, poll-interval: 300ms }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - app: { fetch: Note }
          - share: launch
          - share: { update: n1, set: { title: B } }
          - share: save
          - app: { read: n1, expect: { title: B }, within: 1s }
        """
        let outcome = try RunHarness.single(yaml, mode: .deterministic)
        #expect(outcome.harnessError == nil)
        #expect(outcome.checks.map(\.passed) == [true])
        let launched = try #require(outcome.events(of: "app").first { if case .lifecycle = $0.kind { true } else { false } }?.t)
        let polls = outcome.events(of: "app").compactMap { event -> UInt64? in
            if case .refreshStarted(let refresh) = event.kind, refresh.reason == .poll { event.t } else { nil }
        }
        #expect(!polls.isEmpty)
        #expect(polls.allSatisfy { $0 - launched >= 300_000_000 }, "the first poll is an interval after the launch")
    }

    /// `parallel` children run one at a time, in an order drawn from the seed.
    @Test func parallelStepsRunOneAtATimeInASeededOrder() throws {
        let yaml = Self.header + """

        processes:
          app: { role: host }
          share: { role: share }
          action: { role: action }
        steps:
          - app: launch
          - share: launch
          - action: launch
          - parallel:
              - app: { insert: Note, id: a1, set: { title: A } }
              - share: { insert: Note, id: s1, set: { title: S } }
              - action: { insert: Note, id: c1, set: { title: C } }
        """
        var orders: Set<[String]> = []
        for seed in UInt64(1)...8 {
            let outcome = try RunHarness.single(yaml, mode: .deterministic, seed: seed)
            #expect(outcome.harnessError == nil)
            let children = Set(outcome.plan.steps.last!.children.map(\.index))
            var open: Int?
            var order: [String] = []
            for event in outcome.trace.events {
                guard let step = event.step, children.contains(step) else { continue }
                if event.kind == .stepStarted {
                    #expect(open == nil, "seed \(seed): a step started while another ran")
                    open = step
                    order.append(event.process)
                } else if case .stepEnded = event.kind {
                    open = nil
                }
            }
            #expect(order.count == 3)
            orders.insert(order)
        }
        #expect(orders.count > 1, "the seed chooses the order")
    }

    /// A save's notification reaches the app at a point the seed chooses: before the poster's next
    /// step, or with the app's own next request, handled before that step's read; never after it. Both
    /// points are in the world (`explore`'s uniform choices take each); `run` takes the later one as rarely
    /// as real time hands a notification over after 2.7 ms (`CostModel.lateDelivery`).
    @Test(arguments: [ScheduleSpec.Strategy.seeded, .likely])
    func notificationsArriveAtSeededPointsBeforeTheReceiversNextStep(strategy: ScheduleSpec.Strategy) throws {
        let yaml = Self.header + """

        processes:
          app: { role: host, refresh: staleness, staleness: 0 }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - app: { fetch: Note }
          - share: launch
          - share: { update: n1, set: { title: B } }
          - share: save
          - share: { read: n1 }
          - app: { read: n1, expect: { title: B }, now: true }
        """
        var early = 0, late = 0
        for seed in UInt64(1)...10 {
            let outcome = try RunHarness.single(yaml, mode: .deterministic, seed: seed, strategy: strategy)
            #expect(outcome.checks.map(\.passed) == [true], "seed \(seed)")
            let steps = outcome.plan.info.steps
            let shareRead = steps[steps.count - 2].index, appRead = steps[steps.count - 1].index
            func start(_ index: Int) -> UInt64? { outcome.trace.events.first { $0.step == index && $0.kind == .stepStarted }?.t }
            let received = outcome.events(of: "app").compactMap { event -> UInt64? in
                if case .notificationReceived = event.kind { event.t } else { nil }
            }.last
            let at = try #require(received, "seed \(seed): the app received the share's save")
            let read = outcome.events(of: "app").first { event in
                if case .observed = event.kind { event.step == appRead } else { false }
            }?.t ?? 0
            #expect(at < read, "seed \(seed): handled before its next step read")
            if at < start(shareRead)! { early += 1 } else { late += 1 }
        }
        if strategy == .seeded {
            #expect(early > 0 && late > 0, "both delivery points occur over ten seeds (early \(early), late \(late))")
        } else {
            #expect(early >= 8, "as in real time, mostly before the poster's next step (early \(early), late \(late))")
        }
    }

    /// A sync of rows with no `uuid` value gives them new global identifiers; drawn at random, they
    /// filled the identity index in another order each run, and the stores' sizes in `storeGrowth` moved by
    /// pages between two replays of one seed (review 97). Seeded, they replay byte for byte.
    @Test func aSyncOfRowsWithoutUUIDsReplaysByteForByte() throws {
        let yaml = """
            summary: A first sync of many rows without uuid values.
            store:
              group: group.example.notes
              name: Notes
              model:
                Note: { title: string }
            processes:
              app: { role: host }
              watch: { role: watch, storage: own, sync: transfer }
            steps:
              - app: launch
              - watch: launch
              - app: { batch-insert: Note, count: 3000, set: { title: x } }
              - app: { sync: true }
              - watch: { sync: true }
              - app: { sync: true }
            """
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        defer { pool.close() }
        var traces: Set<Data> = []
        for _ in 0..<3 {
            let outcome = try RunHarness.single(yaml, mode: .deterministic, seed: 1, pool: pool)
            #expect(outcome.harnessError == nil, "\(outcome.harnessError.map { "\($0)" } ?? "")")
            traces.insert(try Self.bytes(outcome))
        }
        #expect(traces.count == 1)
    }
}
