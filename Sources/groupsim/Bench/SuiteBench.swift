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

    @Option(help: "The deterministic mode's seeds, one (7) or a range (1-20): each gets the library once, and every verdict must be real time's.")
    var seeds: String = "1"

    var seedRange: ClosedRange<UInt64>? {
        let parts = seeds.split(separator: "-", omittingEmptySubsequences: false).map { UInt64($0) }
        switch parts.count {
        case 1: return parts[0].map { $0...$0 }
        case 2: if let low = parts[0], let high = parts[1], low <= high { return low...high } else { return nil }
        default: return nil
        }
    }

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be 1 or more.") }
        guard seedRange != nil else { throw ValidationError("--seeds takes a seed (7) or a range (1-20).") }
    }

    func run() throws {
        ProcessGuard.installCleanupHandlers()
        let loaded = try scenarios.load()
        let executable = try RunCommand.ownExecutable()
        func key(_ outcome: RunOutcome) -> String { "\(outcome.plan.info.scenario) / \(outcome.plan.info.variant)" }
        func verdict(_ outcome: RunOutcome) -> String {
            guard outcome.harnessError == nil else { return "harness error" }
            let verdict = TraceChecker.check(outcome.trace).verdict
            return verdict.matched ? "matched" : "not matched (found \(verdict.foundText.isEmpty ? "none" : verdict.foundText))"
        }
        // Real time once, with the files' own seeds.
        let realPlans = loaded.flatMap { scenario in scenario.runs().map { RunPlan(run: $0, summary: scenario.summary, mode: .realTime) } }
        var start = MonotonicClock.now()
        let real = RunCommand.execute(realPlans, options: RunnerOptions(agentExecutable: executable), jobs: jobs)
        let realWall = MonotonicClock.now() - start
        let realVerdicts = Dictionary(real.map { (key($0), verdict($0)) }, uniquingKeysWith: { a, _ in a })
        print("real-time     " + String(format: "%3d runs  %8.2f s", realPlans.count, Double(realWall) / 1e9))
        let pool = AgentPool(executable: executable, target: RunCommand.poolSize(realPlans, jobs: jobs))
        defer { pool.close() }
        var walls: [UInt64] = []
        var differing: [String] = []
        for seed in seedRange! {
            let plans = loaded.flatMap { scenario in
                scenario.runs(seed: seedRange!.count == 1 && seeds == "1" ? nil : seed)
                    .map { RunPlan(run: $0, summary: scenario.summary, mode: .deterministic) }
            }
            start = MonotonicClock.now()
            let outcomes = RunCommand.execute(plans, options: RunnerOptions(agentExecutable: executable, agentPool: pool), jobs: jobs)
            walls.append(MonotonicClock.now() - start)
            for outcome in outcomes where realVerdicts[key(outcome)] != verdict(outcome) {
                differing.append("\(key(outcome)) seed \(seed): \(verdict(outcome)), real time \(realVerdicts[key(outcome)] ?? "none")")
            }
            print("deterministic " + String(format: "%3d runs  %8.2f s", plans.count, Double(walls.last!) / 1e9)
                + (seedRange!.count > 1 ? "  (seed \(seed))" : ""))
        }
        let deterministic = Double(max(1, walls.reduce(0, +) / UInt64(max(1, walls.count))))
        print(String(format: "ratio (target >= 5x): %.1fx faster deterministic", Double(realWall) / deterministic))
        print(differing.isEmpty ? "verdicts: the same in both modes, every seed"
            : "verdicts differ in \(differing.count) runs:\n  " + differing.joined(separator: "\n  "))
    }
}
