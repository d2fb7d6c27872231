import ArgumentParser
import Basics
import Foundation
import Reporters
import Runner
import ScenarioModel
import Supervisor
import Synchronization
import Trace

/// `groupsim run <files or folders>...`: runs every variant of every scenario and writes reports.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run scenarios (every variant, one real process per app or extension) and write reports.",
        discussion: "Exit status: 0 when every run matched its expectation, 1 when some did not, 2 when the harness could not decide (an invalid file, a process that failed to start, a timeout)."
    )

    @OptionGroup var scenarios: ScenarioPaths

    @Option(help: "Run only this variant of each scenario.")
    var variant: String?

    @Option(help: "The root seed (overrides each scenario's `seed`).")
    var seed: UInt64?

    @Option(name: .customLong("report-dir"), help: "Where reports are written.")
    var reportDir: String = "Reports"

    @Flag(help: "Keep each run's sandbox (stores, traces, logs) and print where it is.")
    var keep = false

    @Option(help: "How many runs to execute at once.")
    var jobs: Int = 1

    @Flag(help: "Deterministic mode: one agent acts at a time, in an order drawn from the seed, on virtual time; the same file, variant and seed give the same trace.")
    var deterministic = false

    @Option(help: "text (a line per run, coloured on a terminal unless NO_COLOR is set) or json (one object per run on stdout).")
    var format: OutputFormat = .text

    @Option(help: "Run only this machine's share of the runs, n/m (1-based, like 1/4): a stable split by scenario and variant name, for a CI matrix.",
            transform: Shard.argument)
    var shard: Shard?

    @Flag(name: .shortAndLong, help: "Print only the runs that did not match, and the summary.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Also print every anomaly of every run and where its report is.")
    var verbose = false

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be 1 or more.") }
        guard !(quiet && verbose) else { throw ValidationError("--quiet and --verbose contradict each other; give one.") }
    }

    var mode: RunMode { deterministic ? .deterministic : .realTime }

    func run() throws {
        ProcessGuard.installCleanupHandlers()
        let loaded = try scenarios.load()
        var plans: [RunPlan] = []
        for scenario in loaded {
            if let variant {
                guard let run = scenario.run(variant: variant, seed: seed) else { continue }
                plans.append(RunPlan(run: run, summary: scenario.summary, mode: mode))
            } else {
                plans += scenario.runs(seed: seed).map { RunPlan(run: $0, summary: scenario.summary, mode: mode) }
            }
        }
        guard !plans.isEmpty else {
            let known = Array(Set(loaded.flatMap { $0.runs().map(\.variant) })).sorted()
            printError("no scenario has a variant named '\(variant ?? "")'" + Suggestion.hint(for: variant ?? "", in: known))
            throw ExitCode(2)
        }
        if let shard {
            plans = plans.filter { shard.contains("\($0.info.scenario)/\($0.info.variant)") }
            guard !plans.isEmpty else {
                printError("Shard \(shard) has no runs.")
                return
            }
        }
        let executable = try Self.ownExecutable()
        let pool = deterministic ? AgentPool(executable: executable, target: Self.poolSize(plans, jobs: jobs)) : nil
        defer { pool?.close() }
        let options = RunnerOptions(agentExecutable: executable, keep: keep, agentPool: pool)
        let reportDirectory = URL(fileURLWithPath: reportDir)
        let printer = RunPrinter(json: format == .json, verbosity: quiet ? .quiet : verbose ? .verbose : .normal,
                                 reportDirectory: reportDirectory)
        let checked = Mutex<[Int: ReportedRun]>([:])
        let keepFailure = Mutex<(any Error)?>(nil)
        let outcomes = Self.execute(plans, options: options, jobs: jobs) { index, outcome in
            if !outcome.interrupted { PhaseStall.point(.checking) }
            let run = outcome.interrupted ? nil : ReportedRun(checking: outcome.trace)
            if let run {
                checked.withLock { $0[index] = run }
                do { try ReportSession.keep(outcome, of: run, under: reportDirectory) } catch { keepFailure.withLock { $0 = $0 ?? error } }
            }
            printer.finished(index, outcome, as: run)
        }
        if let error = keepFailure.withLock({ $0 }) { throw error }
        let runs = checked.withLock { done in outcomes.indices.compactMap { done[$0] } }
        let session = ReportSession(outcomes: outcomes, runs: runs, reportDirectory: reportDirectory, json: format == .json)
        let status = try session.finish()
        if let interrupted = ProcessGuard.interruptedExitStatus { throw ExitCode(interrupted) }
        if status != 0 { throw ExitCode(status) }
    }

    /// Runs the plans, `jobs` at a time, keeping their order in the result. On a terminal, a
    /// progress line on stderr says how far the run is.
    static func execute(_ plans: [RunPlan], options: RunnerOptions, jobs: Int,
                        onFinished: @escaping @Sendable (Int, RunOutcome) -> Void = { _, _ in }) -> [RunOutcome] {
        let results = Mutex<[Int: RunOutcome]>([:])
        let next = Atomic<Int>(0)
        let progress = Progress(total: plans.count)
        DispatchQueue.concurrentPerform(iterations: min(jobs, plans.count)) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                // After a signal no new run starts.
                guard index < plans.count, ProcessGuard.interruption == nil else { return }
                progress.started(plans[index].info)
                let outcome = ScenarioRunner.execute(plans[index], options: options)
                results.withLock { $0[index] = outcome }
                progress.clear()
                onFinished(index, outcome)
                progress.finished()
            }
        }
        progress.clear()
        return results.withLock { done in plans.indices.compactMap { done[$0] } }
    }

    /// How many standby agents the deterministic mode keeps: enough for the largest run, for each job.
    static func poolSize(_ plans: [RunPlan], jobs: Int) -> Int {
        (plans.map(\.run.processes.count).max() ?? 1) * jobs
    }

    /// This executable's path, which the runner starts again as `groupsim agent`.
    static func ownExecutable() throws -> String {
        guard let path = SystemCalls.ownExecutablePath() else { throw ExitCode(2) }
        return path
    }
}

extension Shard {
    /// `--shard i/n` read as a shard, or the usage as the error.
    static func argument(_ text: String) throws -> Shard {
        guard let shard = Shard(parsing: text) else { throw ValidationError(Shard.usage) }
        return shard
    }
}
