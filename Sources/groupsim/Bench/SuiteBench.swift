import ArgumentParser
import Basics
import Checkers
import Foundation
import Runner
import ScenarioModel
import Supervisor

/// `groupsim bench suite`: the bundled scenarios run in real time and in the deterministic mode, one
/// after the other in one invocation: wall time of each, the ratio, and whether every run got the same
/// verdict both ways.
struct SuiteBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suite",
        abstract: "Run the scenarios in both modes and print the wall time of each and their ratio.",
        discussion: "Build in release for meaningful numbers: swift run -c release groupsim bench suite")

    @OptionGroup var scenarios: ScenarioPaths

    @Option(help: "How many runs to execute at once, in both modes.")
    var jobs: Int = 1

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be 1 or more.") }
    }

    func run() throws {
        ProcessGuard.installCleanupHandlers()
        let loaded = try scenarios.load()
        let executable = try RunCommand.ownExecutable()
        var verdicts: [RunMode: [String: Bool]] = [:]
        var wall: [RunMode: UInt64] = [:]
        for mode in RunMode.allCases {
            let plans = loaded.flatMap { scenario in
                scenario.runs().map { RunPlan(run: $0, summary: scenario.summary, mode: mode) }
            }
            let pool = mode == .deterministic ? AgentPool(executable: executable, target: RunCommand.poolSize(plans, jobs: jobs)) : nil
            defer { pool?.close() }
            let start = MonotonicClock.now()
            let outcomes = RunCommand.execute(plans, options: RunnerOptions(agentExecutable: executable, agentPool: pool), jobs: jobs)
            wall[mode] = MonotonicClock.now() - start
            for outcome in outcomes {
                let key = "\(outcome.plan.info.scenario) / \(outcome.plan.info.variant)"
                verdicts[mode, default: [:]][key] = TraceChecker.check(outcome.trace).verdict.matched
            }
            let name = mode.rawValue.padding(toLength: 14, withPad: " ", startingAt: 0)
            print(name + String(format: "%3d runs  %8.2f s", plans.count, Double(wall[mode]!) / 1e9))
        }
        let real = Double(wall[.realTime] ?? 0), deterministic = Double(max(wall[.deterministic] ?? 1, 1))
        print(String(format: "ratio (target >= 5x): %.1fx faster deterministic", real / deterministic))
        let differing = (verdicts[.realTime] ?? [:]).filter { verdicts[.deterministic]?[$0.key] != $0.value }.keys.sorted()
        print(differing.isEmpty ? "verdicts: the same in both modes"
            : "verdicts differ in \(differing.count) runs: \(differing.joined(separator: ", "))")
    }
}
