import ArgumentParser
import Basics
import Foundation
import Runner
import ScenarioModel
import Supervisor
import Trace

/// `groupsim bench runner`: what the harness costs around the work a scenario asks for.
///
/// Runs a 4-process, 20-step scenario end to end (sandbox, hub, four real agents, steps, final
/// refresh and store dump) and, as the baseline, the same four agents launched and doing nothing.
/// Also prints the round trip of one step (request written -> reply read), p50 and p99.
struct RunnerBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runner",
        abstract: "Measure a 4-process, 20-step scenario against 4 idle agents, and the step round trip.",
        discussion: "Build in release for meaningful numbers: swift run -c release groupsim bench runner")

    @Option(help: "Runs of each scenario measured (after one warm-up run each).")
    var iterations = 10

    @Flag(help: "Run in the deterministic mode (the 20-step scenario's runs per second are its target).")
    var deterministic = false

    func validate() throws {
        guard iterations > 0 else { throw ValidationError("Give a positive --iterations.") }
    }

    func run() throws {
        ProcessGuard.installCleanupHandlers()
        let executable = try RunCommand.ownExecutable()
        let pool = deterministic ? AgentPool(executable: executable, target: 4) : nil
        defer { pool?.close() }
        let options = RunnerOptions(agentExecutable: executable, agentPool: pool)
        let mode: RunMode = deterministic ? .deterministic : .realTime
        let idle = try Self.plan(RunnerBenchScenarios.idle, mode: mode)
        let work = try Self.plan(RunnerBenchScenarios.twentySteps, mode: mode)
        var idleTimes: [UInt64] = []
        var workTimes: [UInt64] = []
        var roundTrips: [UInt64] = []
        for iteration in 0...iterations {
            let idleOutcome = ScenarioRunner.execute(idle, options: options)
            let workOutcome = ScenarioRunner.execute(work, options: options)
            for outcome in [idleOutcome, workOutcome] where outcome.harnessError != nil {
                throw ValidationError("the benchmark scenario failed: \(outcome.harnessError!)")
            }
            guard iteration > 0 else { continue }
            idleTimes.append(idleOutcome.durationNanos)
            workTimes.append(workOutcome.durationNanos)
            roundTrips += Self.stepRoundTrips(workOutcome.trace)
        }
        let idleMedian = Self.percentile(idleTimes, 0.5)
        let workMedian = Self.percentile(workTimes, 0.5)
        print("Runner overhead (\(mode.rawValue)), median of \(iterations) runs each:")
        print("  4 idle agents (launch, final refresh, exit):   \(Self.ms(idleMedian))")
        print("  4 agents, 20 steps end to end:                  \(Self.ms(workMedian))")
        print(String(format: "  ratio (target <= 2.0x):                        %.2fx", Double(workMedian) / Double(max(idleMedian, 1))))
        print(String(format: "  20-step runs per second:                       %.1f%@", 1e9 / Double(max(workMedian, 1)),
                     deterministic ? " (target >= 20)" : ""))
        print("Step round trip (runner -> agent -> runner), \(roundTrips.count) steps\(deterministic ? ", virtual time" : ""):")
        print("  p50 \(Self.ms(Self.percentile(roundTrips, 0.5)))   p99 \(Self.ms(Self.percentile(roundTrips, 0.99)))   max \(Self.ms(roundTrips.max() ?? 0))")
        let messages = try MessageBench.measure()
        print("One step's messages (request and reply, each encoded and decoded), in this process:")
        print(String(format: "  AgentWire %.1f µs   Foundation JSON %.1f µs   (%.1fx)", messages.wireNanos / 1e3,
                     messages.foundationNanos / 1e3, messages.foundationNanos / max(messages.wireNanos, 1)))
    }

    static func plan(_ yaml: String, mode: RunMode = .realTime) throws -> RunPlan {
        let scenario = try ScenarioLoader.parse(yaml: yaml, file: "bench.yaml")
        return RunPlan(run: scenario.runs()[0], summary: scenario.summary, mode: mode)
    }

    /// The time from each agent step's start to its end (only the runner records step starts and ends).
    static func stepRoundTrips(_ trace: RunTrace) -> [UInt64] {
        var started: [Int: UInt64] = [:]
        var result: [UInt64] = []
        let agentSteps = Set(trace.info.steps.filter { step in
            step.process != nil && !["launch", "exit"].contains(step.text.split(separator: " ").dropFirst().first.map(String.init) ?? "")
        }.map(\.index))
        for event in trace.events {
            guard let step = event.step, agentSteps.contains(step) else { continue }
            switch event.kind {
            case .stepStarted: started[step] = event.t
            case .stepEnded: if let start = started[step] { result.append(event.t - start) }
            default: break
            }
        }
        return result
    }

    static func percentile(_ values: [UInt64], _ p: Double) -> UInt64 {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }

    static func ms(_ nanos: UInt64) -> String { String(format: "%.3f ms", Double(nanos) / 1e6) }
}

/// The scenarios the runner benchmark runs.
enum RunnerBenchScenarios {
    static let header = """
    summary: Runner benchmark.
    store:
      group: group.bench
      name: Bench
      model:
        Note:
          title: string
          rank: int = 0
    processes:
      app: { role: host, refresh: staleness, staleness: 0 }
      share: { role: share }
      action: { role: action }
      watch: { role: watch, storage: group }
    steps:
      - app: launch
      - share: launch
      - action: launch
      - watch: launch

    """

    static let idle = header

    /// Four launches, then sixteen steps of work across the four processes.
    static let twentySteps = header + """
      - app: { insert: Note, id: n1, set: { title: A } }
      - app: save
      - app: { fetch: Note }
      - app: { read: n1, expect: { title: A }, now: true }
      - share: { update: n1, set: { title: B } }
      - share: save
      - action: { insert: Note, id: n2, set: { title: C } }
      - action: save
      - watch: { fetch: Note }
      - watch: { count: Note, expect: 2, now: true }
      - app: { read: n1, expect: { title: B }, within: 1s }
      - share: { fetch: Note }
      - share: { read: n2, expect: { title: C }, now: true }
      - action: { update: n2, set: { rank: 3 } }
      - action: save
      - watch: { read: n1, expect: { title: B }, now: true }
    """
}
