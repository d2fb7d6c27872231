import ArgumentParser
import Basics
import Explorer
import Foundation
import Runner
import ScenarioModel
import Supervisor

/// `groupsim explore <files or folders>...`: many seeded schedules of every variant in the
/// deterministic mode; each schedule that does not match the variant's expectation is shrunk to a
/// minimal scenario file.
struct ExploreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: "Run many seeded schedules of each variant and shrink the failing ones to scenario files.",
        discussion: """
            A schedule varies when each notification is handled (between other steps, or after the receiver's \
            own next steps, up to the file's late-notifications, 2 by default), the order of parallel steps and \
            whether one starts before or after a sibling's write commits, and \
            (strategies random and pct) inserts the perturbations the file's explore: section allows (suspend, \
            background, crash, terminate, drop-notifications, delay-notifications). Each counterexample is shrunk, \
            written with schedule: as-written, and run --real-time-runs times in real time. Exit status: 0 when \
            nothing failed; 1 when a schedule failed that no file pins, or a counterexample reproduces in real time \
            at least once (any counterexample with --strict); 2 when the input was invalid or a schedule run again \
            gave another trace. Reports: explore.html, explore.md, explore.json and junit.xml in the report \
            directory; counterexamples under <scenario>/<variant>/.
            """)

    @Argument(help: "Scenario files, or folders to search for *.yaml files.")
    var paths: [String] = ["Scenarios"]

    @Option(help: "Schedules per variant (the exhaustive strategy stops there too).")
    var runs: Int = 200

    @Option(help: "How schedules are chosen: random, pct (probabilistic concurrency testing) or exhaustive (every one in turn).")
    var strategy: StrategyName = .random

    @Option(help: "For --strategy pct: the depth of the bugs sought (ordering constraints), 1 or more.")
    var depth: Int = 3

    @Option(name: .customLong("real-time-runs"), help: "How many times each counterexample is run in real time.")
    var realTimeRuns: Int = 5

    @Flag(help: "Fail on counterexamples that reproduce only in the deterministic mode too.")
    var strict = false

    @Option(name: .customLong("time-limit"), help: "How long the whole explore may take (e.g. 10m), shared evenly by the variants.")
    var timeLimit: String?

    @Option(help: "The first schedule seed.")
    var seed: UInt64 = 1

    @Option(help: "This machine's share of the seeds, i/n (1-based, as run --shard): disjoint seeds for each of n machines.",
            transform: Shard.argument)
    var shard: Shard = .whole

    @Option(name: .customLong("report-dir"), help: "Where reports and counterexamples are written.")
    var reportDir: String = "Reports/explore"

    @Option(help: "How many schedules to run at once.")
    var jobs: Int = 2

    @Option(parsing: .upToNextOption, help: "Join the explore.json of these report directories (from shards) into one report.")
    var merge: [String] = []

    func validate() throws {
        guard runs >= 1 else { throw ValidationError("--runs must be 1 or more.") }
        guard jobs >= 1 else { throw ValidationError("--jobs must be 1 or more.") }
        guard depth >= 1 else { throw ValidationError("--depth must be 1 or more.") }
        guard realTimeRuns >= 0 else { throw ValidationError("--real-time-runs must be 0 or more.") }
        if let timeLimit, (try? ScenarioModel.Duration(parsing: timeLimit)) == nil {
            throw ValidationError("--time-limit takes a duration like 10m or 90s.")
        }
    }

    /// How `--strategy` is written.
    enum StrategyName: String, ExpressibleByArgument, CaseIterable { case random, pct, exhaustive }

    var parsedStrategy: ExploreStrategy {
        switch strategy {
        case .random: .random
        case .pct: .pct(depth: depth)
        case .exhaustive: .exhaustive
        }
    }

    func run() throws {
        ProcessGuard.installCleanupHandlers()
        let root = URL(fileURLWithPath: reportDir)
        if !merge.isEmpty {
            let reports = try merge.map { directory in
                try JSONDecoder().decode(ExploreReport.self, from: Data(contentsOf: URL(fileURLWithPath: directory).appendingPathComponent("explore.json")))
            }
            let merged = ExploreReport.merge(reports)
            try merged.write(to: root)
            merged.consoleLines.forEach { print($0) }
            print("Report: \(root.appendingPathComponent("explore.html").path)")
            if merged.nondeterministic || merged.undecidedVariants { throw ExitCode(2) }
            if merged.foundFailures { throw ExitCode(1) }
            return
        }
        let scenarios = try ScenarioPaths.load(paths)
        let executable = try RunCommand.ownExecutable()
        let pool = AgentPool(executable: executable, target: (scenarios.map(\.processes.count).max() ?? 2) * jobs)
        defer { pool.close() }
        let part = shard
        var explorer = Explorer(executable: executable, pool: pool, runs: runs, firstSeed: seed, shard: part,
                                reportDirectory: root)
        explorer.jobs = jobs
        explorer.strategy = parsedStrategy
        explorer.realTimeRuns = realTimeRuns
        // --time-limit is shared out evenly: each variant gets its part, so none is left unexplored.
        let limit = timeLimit.flatMap { try? ScenarioModel.Duration(parsing: $0) }.map { UInt64(max(0, $0.nanoseconds)) }
        let variantCount = max(1, scenarios.reduce(0) { $0 + $1.runs().count })
        explorer.variantBudget = limit.map { $0 / UInt64(variantCount) }
        let onTerminal = isatty(STDERR_FILENO) == 1
        var variants: [VariantExploration] = []
        for scenario in scenarios {
            let source = (try? String(contentsOfFile: scenario.file, encoding: .utf8)) ?? ""
            explorer.progress = { variant, done in
                guard onTerminal else { return }
                FileHandle.standardError.write(Data("\r\u{1B}[K\(scenario.name) / \(variant): schedule \(done) of \(runs)".utf8))
            }
            let found = explorer.explore(scenario, source: source)
            if onTerminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            let report = ExploreReport(firstSeed: seed, shards: [part.description], variants: found,
                                       strategy: explorer.strategy, strict: strict)
            report.consoleLines.forEach { print($0) }
            variants += found
            if ProcessGuard.interruption != nil { break }
        }
        let report = ExploreReport(firstSeed: seed, shards: [part.description], variants: variants,
                                   strategy: explorer.strategy, strict: strict)
        try report.write(to: root)
        print("Report: \(root.appendingPathComponent("explore.html").path)")
        if let interrupted = ProcessGuard.interruptedExitStatus { throw ExitCode(interrupted) }
        if report.nondeterministic || report.undecidedVariants { throw ExitCode(2) }
        if report.foundFailures { throw ExitCode(1) }
    }
}
