import ArgumentParser
import Basics
import Explorer
import Foundation
import Runner
import ScenarioModel
import Supervisor

/// `groupsim bench explore`: schedules per minute for a 3-process, 20-step scenario, and the time to
/// shrink a 600-operation workload counterexample.
struct ExploreBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: "Measure explore: schedules per minute, and shrinking a 600-operation workload counterexample.",
        discussion: "Build in release for meaningful numbers: swift run -c release groupsim bench explore")

    @Option(help: "Schedules to run.")
    var schedules = 300

    @Option(help: "How many schedules run at once.")
    var jobs = 2

    func run() throws {
        ProcessGuard.installCleanupHandlers()
        let executable = try RunCommand.ownExecutable()
        let pool = AgentPool(executable: executable, target: 3 * jobs)
        defer { pool.close() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("groupsim-bench-explore-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }

        let scenario = try ScenarioLoader.parse(yaml: ExploreBenchScenarios.twentySteps, file: "bench.yaml")
        var explorer = Explorer(executable: executable, pool: pool, runs: schedules, firstSeed: 1, reportDirectory: directory)
        explorer.jobs = jobs
        // Schedules only: the counterexamples they find are not shrunk here.
        explorer.maximumCounterexamples = 0
        var start = MonotonicClock.now()
        let explored = explorer.explore(scenario, source: ExploreBenchScenarios.twentySteps)
        let seconds = Double(MonotonicClock.now() - start) / 1e9
        let ran = explored.reduce(0) { $0 + $1.schedules + $1.undecided }
        print(String(format: "3 processes, 20 steps: %d schedules in %.1f s = %.0f per minute (target >= 1,000), %d jobs; %d did not match",
                     ran, seconds, Double(ran) / seconds * 60, jobs, explored.reduce(0) { $0 + $1.failing }))

        let workload = try ScenarioLoader.parse(yaml: ExploreBenchScenarios.workload, file: "workload.yaml")
        var shrinking = Explorer(executable: executable, pool: pool, runs: 1, firstSeed: 1, reportDirectory: directory)
        shrinking.maximumCounterexamples = 1
        start = MonotonicClock.now()
        let found = shrinking.explore(workload, source: ExploreBenchScenarios.workload)
        let shrinkSeconds = Double(MonotonicClock.now() - start) / 1e9
        guard let example = found.first?.counterexamples.first else {
            print("the workload scenario showed no counterexample to shrink")
            throw ExitCode(2)
        }
        print(String(format: "600-operation workload: %d explicit steps shrunk to %d in %.1f s with %d candidates (target <= 15 steps, < 60 s)",
                     example.stepsBefore, example.stepsAfter, shrinkSeconds, example.shrinkAttempts))
    }
}

/// The scenarios the explore benchmark runs.
enum ExploreBenchScenarios {
    static let twentySteps = """
    summary: Explore benchmark.
    store: { group: group.bench, name: Bench, model: { Note: { title: string, rank: int = 0 } } }
    processes:
      app: { role: host, refresh: history }
      share: { role: share }
      action: { role: action }
    explore:
      suspend: [app]
      crash: [share]
      drop-notifications: [app]
    steps:
      - app: launch
      - share: launch
      - action: launch
      - app: { insert: Note, id: n1, set: { title: A } }
      - app: save
      - app: { fetch: Note }
      - share: { update: n1, set: { title: B } }
      - share: save
      - action: { insert: Note, id: n2, set: { title: C } }
      - action: save
      - app: { read: n1, expect: { title: B }, within: 1s }
      - app: { count: Note, expect: 2, within: 1s }
      - share: { update: n1, set: { rank: 2 } }
      - share: save
      - action: { update: n2, set: { rank: 3 } }
      - action: save
      - app: { read: n2, expect: { rank: 3 }, within: 1s }
      - share: exit
      - action: exit
      - app: { read: n1, expect: { rank: 2 }, within: 1s }
    """

    /// A buggy app (no refresh) under a 600-operation workload: the first schedule fails.
    static let workload = """
    summary: Explore shrinking benchmark.
    store: { group: group.bench, name: Bench, model: { Note: { title: string } } }
    processes:
      app: { role: host }
      share: { role: share }
    steps:
      - app: launch
      - share: launch
      - workload: { processes: [app, share], entity: Note, rate: 600/s, duration: 1s, keys: 50 }
    """
}
