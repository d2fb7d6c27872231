import ArgumentParser
import Basics
import Foundation
import Runner
import ScenarioModel
import Supervisor
import Trace

/// `groupsim bench costs`: what each thing an agent does costs in real time on this machine, measured
/// from real-time runs, beside the figures the deterministic mode charges in virtual time (`CostModel`).
/// How those figures were found, and how to check they still hold.
struct CostsBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "costs",
        abstract: "Measure what launches, exits, saves and fetches cost in real time, beside the deterministic mode's costs.",
        discussion: "Build in release for meaningful numbers: swift run -c release groupsim bench costs")

    @Option(help: "Real-time runs measured (after one warm-up run).")
    var iterations = 10

    func validate() throws {
        guard iterations > 0 else { throw ValidationError("Give a positive --iterations.") }
    }

    func run() throws {
        ProcessGuard.installCleanupHandlers()
        let executable = try RunCommand.ownExecutable()
        let plan = try RunnerBenchCommand.plan(Self.scenario)
        var samples: [String: [UInt64]] = [:]
        for iteration in 0...iterations {
            let outcome = ScenarioRunner.execute(plan, options: RunnerOptions(agentExecutable: executable))
            if let error = outcome.harnessError { throw ValidationError("the benchmark scenario failed: \(error)") }
            guard iteration > 0 else { continue }
            for (keyword, durations) in Self.stepDurations(outcome.trace) { samples[keyword, default: []] += durations }
        }
        let median = { (keyword: String) in RunnerBenchCommand.percentile(samples[keyword] ?? [], 0.5) }
        let request = median("update")
        let measured = CostModel(
            launch: median("launch"), exit: median("exit"), request: request,
            commit: median("save") > request ? median("save") - request : 0,
            storeRead: median("fetch") > request ? median("fetch") - request : 0,
            row: median("batch-insert") > median("save") ? (median("batch-insert") - median("save")) / Self.batchRows : 0,
            firstRequest: median("first update") > request ? median("first update") - request : 0)
        let used = CostModel.measured
        print("Real-time medians of \(iterations) runs (this machine) and the deterministic mode's costs:")
        for (name, real, virtual) in [
            ("launch (spawn, open the store, ready)", measured.launch, used.launch),
            ("exit", measured.exit, used.exit),
            ("request (an edit in memory)", measured.request, used.request),
            ("+ commit (a save)", measured.commit, used.commit),
            ("+ store read (a fetch)", measured.storeRead, used.storeRead),
            ("+ each row of a batch insert", measured.row, used.row),
            ("+ a process's first, after its launch", measured.firstRequest, used.firstRequest),
        ] {
            print("  " + name.padding(toLength: 40, withPad: " ", startingAt: 0)
                + "real \(RunnerBenchCommand.ms(real))   virtual \(RunnerBenchCommand.ms(virtual))")
        }
        let notified = Self.deliveryLatencies(samplesFrom: plan, executable: executable)
        print("  notification, post to received           real p50 \(RunnerBenchCommand.ms(RunnerBenchCommand.percentile(notified, 0.5)))"
            + "   p99 \(RunnerBenchCommand.ms(RunnerBenchCommand.percentile(notified, 0.99)))"
            + "   handled by \(RunnerBenchCommand.ms(used.delivery)) in virtual time")
    }

    /// Each step's duration (its start to its end, as the runner records them), by the step's keyword; a
    /// process's first step after its launch is counted apart, as `first <keyword>`.
    static func stepDurations(_ trace: RunTrace) -> [String: [UInt64]] {
        var keywords: [Int: String] = [:]
        var launched: Set<String> = []
        for step in trace.info.steps {
            let keyword = step.text.split(separator: " ").dropFirst().first.map(String.init) ?? ""
            guard let process = step.process else { continue }
            keywords[step.index] = launched.remove(process) != nil ? "first \(keyword)" : keyword
            if keyword == "launch" { launched.insert(process) }
        }
        var started: [Int: UInt64] = [:]
        var result: [String: [UInt64]] = [:]
        for event in trace.events where event.process != "hub" {
            guard let step = event.step else { continue }
            switch event.kind {
            case .stepStarted: started[step] = event.t
            case .stepEnded:
                if let start = started[step], let keyword = keywords[step] { result[keyword, default: []].append(event.t - start) }
            default: break
            }
        }
        return result
    }

    /// Post-to-receipt latencies of the save notifications in a few more runs.
    static func deliveryLatencies(samplesFrom plan: RunPlan, executable: String) -> [UInt64] {
        var latencies: [UInt64] = []
        for _ in 0..<3 {
            let outcome = ScenarioRunner.execute(plan, options: RunnerOptions(agentExecutable: executable))
            for event in outcome.trace.events {
                if case .notificationReceived(let note) = event.kind, let posted = note.postedAt, event.t >= posted {
                    latencies.append(event.t - posted)
                }
            }
        }
        return latencies
    }

    /// Two processes that launch, edit, save, fetch and exit, several times over.
    static let scenario = """
    summary: Cost calibration.
    store:
      group: group.bench
      name: Bench
      model:
        Note:
          title: string
        Row:
          title: string
    processes:
      app: { role: host, refresh: history }
      share: { role: share }
    steps:
      - app: launch
      - app: { insert: Note, id: n1, set: { title: A } }
      - app: save
      - app: { fetch: Note }
    """ + (1...5).map { round in """

      - share: launch
      - share: { update: n1, set: { title: S\(round) } }
      - share: { update: n1, set: { title: T\(round) } }
      - share: save
      - share: { fetch: Note }
      - share: exit
      - app: { update: n1, set: { title: A\(round) } }
      - app: save
      - app: { fetch: Note }
      - app: { batch-insert: Row, count: \(batchRows), set: { title: B } }
    """ }.joined()

    /// The rows of the calibration's batch inserts.
    static let batchRows: UInt64 = 10_000
}
