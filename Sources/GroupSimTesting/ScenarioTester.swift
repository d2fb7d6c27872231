import Basics
import Checkers
import Foundation
import Reporters
import Runner
import ScenarioModel
import Supervisor
#if canImport(Testing)
import Testing
#endif

/// Runs GroupSim scenarios from a Swift test (Swift Testing or XCTest) and gives each run's verdict as
/// a value, with the message to fail the test with.
///
/// ```swift
/// import GroupSimTesting
/// import Testing
///
/// @Test(arguments: ScenarioTester.scenarioFiles(in: "Scenarios"))
/// func scenario(_ file: String) throws {
///     try ScenarioTester().expectMatches(file: file)
/// }
/// ```
///
/// `expectMatches` records a test issue for each run that does not match, with its anomalies'
/// explanations and the replay command, and attaches the run's report.html; `run(file:)` gives the
/// results as values instead, for tests that assert on them.
///
/// Agents are real processes: the tester starts the `groupsim` executable as `groupsim agent`. It
/// looks for it in `GROUPSIM_EXECUTABLE`, then beside the test binary (where `swift build` puts the
/// products of the package under test and its dependencies), then on `PATH`. Build it first in a
/// package that depends on GroupSim: `swift build --product groupsim`.
public struct ScenarioTester: Sendable {
    /// Deterministic by default in tests: the same seed gives the same verdict and trace, and runs are
    /// fast. Real time measures real latency and lock races.
    public var mode: RunMode = .deterministic
    /// The root seed; the scenario's own (or 1) when nil.
    public var seed: UInt64?
    /// Where each run's reports (report.html, report.json, junit.xml) are written; none when nil.
    public var reportDirectory: URL?
    /// The `groupsim` executable the agents run.
    public var agentExecutable: String

    /// A tester using the `groupsim` executable at `agentExecutable`, or the one found as described above.
    public init(agentExecutable: String? = nil) throws {
        guard let executable = agentExecutable ?? Self.findExecutable() else {
            throw TesterError(description: "no groupsim executable found: build it (swift build --product groupsim) "
                + "or set GROUPSIM_EXECUTABLE to its path")
        }
        self.agentExecutable = executable
    }

    /// Every run of the scenario file (each variant, or only `variant`).
    /// - Throws: the file's validation errors (`file:line:column: error: ...`), or an unknown variant.
    public func run(file: String, variant: String? = nil) throws -> [ScenarioResult] {
        if file.hasPrefix(Self.noScenariosPrefix) {
            throw TesterError(description: "\(file) (no *.yaml under it): check the folder given to scenarioFiles(in:); "
                + "a relative one is found from the test file's package root")
        }
        return try run(ScenarioLoader.load(contentsOf: URL(fileURLWithPath: file)), variant: variant)
    }

    /// Every run of a scenario given as text (`name` is the file name errors and reports use).
    public func run(yaml: String, named name: String = "inline.yaml", variant: String? = nil) throws -> [ScenarioResult] {
        try run(ScenarioLoader.parse(yaml: yaml, file: name), variant: variant)
    }

    /// The scenario files (`*.yaml`) under `folder`, sorted: the arguments of a parameterized test.
    ///
    /// A relative `folder` is found from the package of the calling test file (the first directory up
    /// from it that holds `Package.swift`), whatever directory the tests run in; the current directory
    /// when there is none. A folder with no scenario files gives one argument that names it, so that the
    /// test fails saying so (`run(file:)` throws) instead of running no case and passing.
    public static func scenarioFiles(in folder: String, from caller: String = #filePath) -> [String] {
        let url = resolve(folder, from: caller)
        let files = ScenarioLoader.discover(in: [url]).map(\.path).sorted()
        return files.isEmpty ? [noScenariosPrefix + url.path] : files
    }

    /// The argument `scenarioFiles(in:)` gives for a folder without scenarios.
    static let noScenariosPrefix = "no scenario files in "

    /// `folder` as an absolute path: relative ones from the caller's package root.
    static func resolve(_ folder: String, from caller: String) -> URL {
        guard !folder.hasPrefix("/") else { return URL(fileURLWithPath: folder) }
        var directory = URL(fileURLWithPath: caller).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory.appendingPathComponent(folder)
            }
            directory = directory.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: folder)
    }

    private func run(_ scenario: Scenario, variant: String?) throws -> [ScenarioResult] {
        let runs: [ScenarioRun]
        if let variant {
            guard let run = scenario.run(variant: variant, seed: seed) else {
                throw TesterError(description: "\(scenario.file): no variant named '\(variant)'"
                    + Suggestion.hint(for: variant, in: scenario.runs().map(\.variant)))
            }
            runs = [run]
        } else {
            runs = scenario.runs(seed: seed)
        }
        let options = RunnerOptions(agentExecutable: agentExecutable)
        return try runs.map { run in
            let outcome = ScenarioRunner.execute(RunPlan(run: run, summary: scenario.summary, mode: mode), options: options)
            let reported = ReportedRun(checking: outcome.trace)
            var directory: URL?
            if let reportDirectory {
                directory = ReportWriter.directory(for: reported.info, under: reportDirectory)
                try ReportWriter.writeRun(reported, to: directory!)
            }
            if !reported.result.verdict.matched { try Self.attachReport(of: reported, written: directory) }
            return ScenarioResult(reported.result, report: directory)
        }
    }

    /// Inside a Swift Testing test, attaches the report.html of a run that did not match (written to a
    /// scratch folder when the tester keeps no reports); elsewhere does nothing.
    private static func attachReport(of run: ReportedRun, written directory: URL?) throws {
        #if canImport(Testing)
        guard Test.current != nil else { return }
        let folder = directory ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("groupsim-attachment-\(UUID().uuidString)", isDirectory: true)
        defer { if directory == nil { try? FileManager.default.removeItem(at: folder) } }
        if directory == nil { try ReportWriter.writeRun(run, to: folder) }
        let page = try Data(contentsOf: folder.appendingPathComponent("report.html"))
        Attachment.record([UInt8](page), named: Escape.pathComponent("\(run.info.scenario)-\(run.info.variant)") + ".html")
        #endif
    }

    #if canImport(Testing)
    /// Runs every run of the file (or only `variant`) and records a test issue, at the caller's line, for
    /// each that does not match: its verdict, its anomalies' explanations and the replay command. The
    /// report.html of each such run is attached to the test.
    /// - Throws: the file's validation errors, or an unknown variant.
    @discardableResult
    public func expectMatches(file: String, variant: String? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [ScenarioResult] {
        let results = try run(file: file, variant: variant)
        for result in results where !result.matched {
            Issue.record(Comment(rawValue: result.failureMessage), sourceLocation: sourceLocation)
        }
        return results
    }
    #endif

    /// `GROUPSIM_EXECUTABLE`, then `groupsim` beside this test binary, then on `PATH`.
    static func findExecutable() -> String? {
        let manager = FileManager.default
        if let given = ProcessInfo.processInfo.environment["GROUPSIM_EXECUTABLE"], manager.isExecutableFile(atPath: given) {
            return given
        }
        var directory = URL(fileURLWithPath: SystemCalls.ownExecutablePath() ?? CommandLine.arguments[0]).deletingLastPathComponent()
        // On macOS the test binary is inside an .xctest bundle: climb to the products directory.
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("groupsim").path
            if manager.isExecutableFile(atPath: candidate) { return candidate }
            directory.deleteLastPathComponent()
        }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(folder)/groupsim"
            if manager.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

/// One run's verdict, for a test to assert on.
public struct ScenarioResult: Sendable, CustomStringConvertible {
    public let scenario: String
    public let variant: String
    /// Whether the run showed what its variant expects.
    public let matched: Bool
    /// Set when the harness could not carry the run through: no verdict.
    public let harnessFailure: String?
    /// Every anomaly found, in time order.
    public let anomalies: [Anomaly]
    /// The command that replays the run exactly.
    public let replay: String
    /// Where the run's reports were written, when the tester writes them.
    public let report: URL?
    /// What to fail a test with: the verdict, the anomalies' explanations, and the replay command.
    public let failureMessage: String

    init(_ result: CheckResult, report: URL?) {
        scenario = result.info.scenario
        variant = result.info.variant
        matched = result.verdict.matched
        harnessFailure = result.verdict.harnessFailure?.description
        anomalies = result.anomalies
        replay = ConsoleReport.replayCommand(result.info)
        self.report = report
        failureMessage = ConsoleReport.lines(result).joined(separator: "\n")
            + (report.map { "\n  report: \($0.appendingPathComponent("report.html").path)" } ?? "")
    }

    public var description: String { failureMessage }
}

/// Why a tester could not run a scenario.
public struct TesterError: Error, CustomStringConvertible, Sendable {
    public var description: String
}
