import ArgumentParser
import Basics
import Checkers
import Foundation
import Reporters
import Runner
import ScenarioModel
import Supervisor

/// `groupsim compare <scenario>`: the same scenario under each refresh strategy, as a matrix.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Run one scenario under each refresh strategy and write a matrix: anomalies, latency, refresh cost.",
        discussion: """
            Strategies: none, staleness:<seconds> (staleness:-1, staleness:0, staleness:2.5), history, \
            refetch, refetch:reset, refetch:refresh-refetched, and new-context and history-observer for SwiftData processes. They apply to the processes named with \
            --process (by default every host). The steps are the scenario's, as its first variant runs them; \
            the variants' own overrides are not applied.
            """
    )

    @Argument(help: "The scenario file.")
    var scenario: String

    @Option(parsing: .upToNextOption, help: ArgumentHelp(
        "The strategies to compare.",
        discussion: "Default: staleness:-1 staleness:0 history refetch refetch:reset for Core Data processes; "
            + "none new-context history history-observer for SwiftData ones."))
    var strategies: [String] = []

    /// The strategies compared by default for processes of `framework`.
    static func defaultStrategies(for framework: PersistenceFramework) -> [String] {
        switch framework {
        case .coreData: ["staleness:-1", "staleness:0", "history", "refetch", "refetch:reset"]
        case .swiftData: ["none", "new-context", "history", "history-observer"]
        }
    }

    @Option(name: .customLong("process"), help: "A process whose strategy changes (repeat for several).")
    var processes: [String] = []

    @Option(help: "The root seed.")
    var seed: UInt64?

    @Option(name: .customLong("report-dir"), help: "Where the matrix and the runs' reports are written.")
    var reportDir: String = "Reports"

    @Option(help: "How many runs to execute at once.")
    var jobs: Int = 1

    @Flag(help: "Deterministic mode: virtual time, one agent at a time in a seeded order (latency is then virtual).")
    var deterministic = false

    func validate() throws {
        for strategy in strategies where Self.settings(for: strategy) == nil {
            throw ValidationError("unknown strategy '\(strategy)'; use none, staleness:<seconds>, history, refetch, refetch:reset, "
                + "refetch:refresh-refetched or (for SwiftData processes) new-context or history-observer.")
        }
        guard jobs >= 1 else { throw ValidationError("--jobs must be 1 or more.") }
    }

    func run() throws {
        ProcessGuard.installCleanupHandlers()
        let loaded = try ScenarioPaths.load([scenario])
        guard loaded.count == 1, let scenario = loaded.first else {
            printError("compare takes one scenario file; \(self.scenario) holds \(loaded.count).")
            throw ExitCode(2)
        }
        let targets = processes.isEmpty ? scenario.processes.filter { $0.role == .host }.map(\.name) : processes
        for name in targets where scenario.process(named: name) == nil {
            printError("\(self.scenario): no process named '\(name)'; it has \(scenario.processes.map(\.name).joined(separator: ", ")).")
            throw ExitCode(2)
        }
        let frameworks = targets.compactMap { name in scenario.process(named: name).map { (name, $0.settings.framework) } }
        // By default the strategies of the processes' framework (those both have, when they differ).
        let strategies = !self.strategies.isEmpty ? self.strategies
            : Set(frameworks.map(\.1)).count > 1 ? ["none", "history"] : Self.defaultStrategies(for: frameworks.first?.1 ?? .coreData)
        for strategy in strategies {
            guard let refresh = Self.settings(for: strategy)?.compactMap({ if case .refresh(let r) = $0 { r } else { nil } }).first
            else { continue }
            for (name, framework) in frameworks where !refresh.isAvailable(in: framework) {
                let usable = RefreshStrategy.allCases.filter { $0.isAvailable(in: framework) }.map(\.rawValue)
                printError("\(self.scenario): \(strategy) is not a \(framework.displayName) strategy, and '\(name)' uses "
                    + "\(framework.displayName), whose strategies are \(usable.joined(separator: ", ")).")
                throw ExitCode(2)
            }
        }
        let base = scenario.runs(seed: seed)[0]
        let plans = strategies.map { strategy -> RunPlan in
            var run = base
            run.variant = strategy.replacingOccurrences(of: ":", with: "_")
            run.expectation = .pass
            for index in run.processes.indices {
                let declared = scenario.process(named: run.processes[index].name)!.settings
                run.processes[index].settings = targets.contains(run.processes[index].name)
                    ? declared.applying(Self.settings(for: strategy)!) : declared
            }
            return RunPlan(run: run, summary: scenario.summary, mode: deterministic ? .deterministic : .realTime)
        }
        let executable = try RunCommand.ownExecutable()
        let pool = deterministic ? AgentPool(executable: executable, target: RunCommand.poolSize(plans, jobs: jobs)) : nil
        defer { pool?.close() }
        let options = RunnerOptions(agentExecutable: executable, agentPool: pool)
        let outcomes = RunCommand.execute(plans, options: options, jobs: jobs)
        let root = URL(fileURLWithPath: reportDir).appendingPathComponent(scenario.name).appendingPathComponent("compare")
        var runs: [ReportedRun] = []
        for (strategy, outcome) in zip(strategies, outcomes) {
            let run = ReportedRun(checking: outcome.trace, label: Self.yamlText(for: strategy))
            if let failure = run.result.verdict.harnessFailure {
                printError("\(strategy): HARNESS ERROR: \(failure)")
            }
            try ReportWriter.writeRun(run, variants: [], to: root.appendingPathComponent(run.info.variant))
            runs.append(run)
        }
        let markdown = "# \(scenario.name): refresh strategies compared\n\n\(scenario.summary)\n\n"
            + "Strategies applied to: \(targets.joined(separator: ", ")).\n\n" + CompareMatrix.markdown(runs, judged: false)
            + "\n" + CompareMatrix.recommendation(CompareMatrix.rows(runs))
            + "\nRanked by fewest anomalies, then fewest saves never shown, then refreshed p99, then refresh cost.\n"
        try Data(markdown.utf8).write(to: root.appendingPathComponent("compare.md"))
        let page = ComparePage.render(scenario: scenario.name, summary: scenario.summary, runs: runs,
                                      link: { "\($0.info.variant)/report.html" })
        try Data(page.utf8).write(to: root.appendingPathComponent("compare.html"))
        print(markdown)
        print("Matrix: \(root.appendingPathComponent("compare.html").path)")
        // The index links the comparison beside the runs it already lists.
        let reports = URL(fileURLWithPath: reportDir)
        try ReportWriter.writeIndex(ReportIndex.earlierRuns(in: reports, except: []), to: reports)
        // A comparison measures; it fails only when the harness could not run a strategy through.
        if runs.contains(where: { $0.result.verdict.harnessFailure != nil }) { throw ExitCode(2) }
    }

    /// A strategy as a process's settings say it in a scenario file (`refresh: refetch, refetch: reset`),
    /// so what the matrix recommends can be pasted under `processes:`.
    static func yamlText(for strategy: String) -> String {
        guard let settings = settings(for: strategy) else { return strategy }
        return settings.map { setting -> String in
            switch setting {
            case .refresh(let refresh): "refresh: \(refresh.rawValue)"
            case .refetch(let mode): "refetch: \(mode.rawValue)"
            case .staleness(let staleness): "staleness: \(staleness.description)"
            default: "\(setting)"
            }
        }.joined(separator: ", ")
    }

    /// The settings a strategy stands for.
    static func settings(for strategy: String) -> [ProcessSetting]? {
        let parts = strategy.split(separator: ":", maxSplits: 1).map(String.init)
        switch (parts.first, parts.count > 1 ? parts[1] : nil) {
        case ("none", nil): return [.refresh(.none)]
        case ("history", nil): return [.refresh(.history)]
        case ("new-context", nil): return [.refresh(.newContext)]
        case ("history-observer", nil): return [.refresh(.historyObserver)]
        case ("refetch", nil): return [.refresh(.refetch), .refetch(.keepRegistered)]
        case ("refetch", let mode?):
            guard let mode = RefetchMode(rawValue: mode) else { return nil }
            return [.refresh(.refetch), .refetch(mode)]
        case ("staleness", let seconds?):
            guard let value = Double(seconds), value.isFinite, value < 1e9 else { return nil }
            if value < 0 { return [.refresh(.staleness), .staleness(.infinite)] }
            return [.refresh(.staleness), .staleness(.interval(.microseconds(Int64((value * 1_000_000).rounded()))))]
        default: return nil
        }
    }
}
