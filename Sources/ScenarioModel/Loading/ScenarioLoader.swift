import Foundation
import Yams

/// Reads, decodes and validates scenario files.
///
/// ```swift
/// let scenario = try ScenarioLoader.load(contentsOf: URL(fileURLWithPath: "Scenarios/refresh.yaml"))
/// for run in scenario.runs(seed: 42) { ... }
/// ```
/// Every entry point throws ``ScenarioErrors`` holding every problem found, sorted by position.
public enum ScenarioLoader {
    /// Reads and validates one file. Errors name the file relative to the working directory when it
    /// lies under it.
    ///
    /// - Throws: ``ScenarioErrors`` with every problem in the file (or one saying it could not be read).
    public static func load(contentsOf url: URL) throws(ScenarioErrors) -> Scenario {
        let file = displayPath(of: url)
        let text: String
        if let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int, size > Limits.fileBytes {
            throw ScenarioErrors([ScenarioError(file: file, line: 1, column: 1,
                message: "the file is \(size) bytes, more than the \(Limits.fileBytes) a scenario may have; split it, or generate the load with a workload step.")])
        }
        if url.lastPathComponent.unicodeScalars.contains("\u{FFFD}") && !FileManager.default.fileExists(atPath: url.path) {
            throw ScenarioErrors([ScenarioError(file: file, line: 1, column: 1,
                message: "the file's name is not UTF-8 (shown with \u{FFFD} where its bytes are not), and GroupSim reads names as UTF-8; rename it.")])
        }
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw ScenarioErrors([ScenarioError(file: file, line: 1, column: 1,
                message: "the file could not be read (\(error.localizedDescription)); check that it exists and is UTF-8 text.")])
        }
        return try parse(yaml: text, file: file)
    }

    /// Decodes and validates YAML text; `file` names it in errors and gives the default scenario name.
    ///
    /// - Throws: ``ScenarioErrors`` with every problem in the text.
    public static func parse(yaml: String, file: String) throws(ScenarioErrors) -> Scenario {
        try ScenarioDecoder(file: file).decode(yaml: yaml).get()
    }

    /// `parse`, without walking the steps through the lifecycle (`LifecycleCheck`): for tests of how a
    /// step decodes, whose steps need not run.
    static func parseSteps(yaml: String, file: String) throws(ScenarioErrors) -> Scenario {
        let decoder = ScenarioDecoder(file: file)
        decoder.checksLifecycle = false
        return try decoder.decode(yaml: yaml).get()
    }

    /// Every `*.yaml` and `*.yml` file under `urls` (folders searched recursively; files taken as they
    /// are), sorted by path, without duplicates.
    public static func discover(in urls: [URL]) -> [URL] {
        var found: [URL] = []
        let manager = FileManager.default
        for url in urls {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: url.path, isDirectory: &isDirectory) else { continue }
            guard isDirectory.boolValue else {
                found.append(url)
                continue
            }
            let enumerator = manager.enumerator(at: url, includingPropertiesForKeys: nil)
            while let next = enumerator?.nextObject() as? URL {
                if ["yaml", "yml"].contains(next.pathExtension.lowercased()) {
                    found.append(next)
                }
            }
        }
        var seen = Set<String>()
        return found
            .filter { seen.insert($0.standardizedFileURL.path).inserted }
            .sorted { $0.standardizedFileURL.path < $1.standardizedFileURL.path }
    }

    /// Loads every scenario under `urls` (see ``discover(in:)``) and checks that names are unique.
    ///
    /// - Throws: ``ScenarioErrors`` with the problems of every file, and every name used twice.
    public static func loadAll(in urls: [URL]) throws(ScenarioErrors) -> [Scenario] {
        let (scenarios, errors) = loadEach(in: urls)
        if let errors { throw errors }
        return scenarios
    }

    /// Loads every scenario under `urls`, keeping the valid ones beside the errors of the others (a
    /// file whose name another valid file already uses is an error too): for commands that report on
    /// every file, such as `validate` and `list`.
    public static func loadEach(in urls: [URL]) -> (scenarios: [Scenario], errors: ScenarioErrors?) {
        var scenarios: [Scenario] = []
        var errors: [ScenarioError] = []
        var firstFile: [String: String] = [:]
        for url in discover(in: urls) {
            do {
                let scenario = try load(contentsOf: url)
                if let other = firstFile[scenario.name] {
                    let (line, column) = positionOfName(in: url)
                    errors.append(ScenarioError(file: scenario.file, line: line, column: column,
                        message: "the scenario name '\(scenario.name)' is also used by \(other); give one of them another name."))
                    continue
                }
                firstFile[scenario.name] = scenario.file
                scenarios.append(scenario)
            } catch {
                errors += error.errors
            }
        }
        return (scenarios, errors.isEmpty ? nil : ScenarioErrors(errors))
    }

    /// The summaries `groupsim list` shows, for every scenario under `urls`.
    public static func summaries(in urls: [URL]) throws(ScenarioErrors) -> [ScenarioSummary] {
        try loadAll(in: urls).map(\.summaryLine)
    }

    /// Where a valid file's `name:` value is (1:1 when the name comes from the file name).
    private static func positionOfName(in url: URL) -> (line: Int, column: Int) {
        guard let text = try? String(contentsOf: url, encoding: .utf8),
              let root = try? Yams.compose(yaml: text).map(YAMLNode.init),
              let name = root["name"] else { return (1, 1) }
        return (name.line, name.column)
    }

    /// The path relative to the working directory when the file lies under it, else as given.
    static func displayPath(of url: URL) -> String {
        let path = url.standardizedFileURL.path
        let directory = FileManager.default.currentDirectoryPath
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : url.path
    }
}
