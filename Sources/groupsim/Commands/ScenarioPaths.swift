import ArgumentParser
import Basics
import Foundation
import Runner
import ScenarioModel

/// The scenario files or folders a command takes.
struct ScenarioPaths: ParsableArguments {
    @Argument(help: "Scenario files, or folders to search for *.yaml files.")
    var paths: [String] = ["Scenarios"]

    /// Loads every scenario, or prints every error (file:line:column) and exits with code 2.
    func load() throws -> [Scenario] {
        try Self.load(paths)
    }

    /// Loads the scenarios in `paths` (files or folders), or prints every error and exits with code 2.
    static func load(_ paths: [String]) throws -> [Scenario] {
        let urls = try existing(paths)
        do throws(ScenarioErrors) {
            let loaded = try ScenarioLoader.loadAll(in: urls)
            if let errors = refusingOverlongWaits((loaded, nil)).errors { throw errors }
            return loaded
        } catch {
            printError(error.description)
            printError("\(counted(error.errors.count, "error")); nothing was run.")
            throw ExitCode(2)
        }
    }

    /// The valid scenarios in the paths, and the errors of the invalid files (for commands that go on
    /// with the good files and report the bad ones).
    func loadEach() throws -> (scenarios: [Scenario], errors: ScenarioErrors?) {
        Self.refusingOverlongWaits(ScenarioLoader.loadEach(in: try Self.existing(paths)))
    }

    /// Refuses, as validation does, a file whose waits on the real clock add up to more than a run may only
    /// once the reloads the system runs on its own are counted (`RunPlan.overlongWait`), at the step where
    /// they do, in its base run or any variant.
    static func refusingOverlongWaits(_ loaded: (scenarios: [Scenario], errors: ScenarioErrors?))
        -> (scenarios: [Scenario], errors: ScenarioErrors?)
    {
        var kept: [Scenario] = []
        var errors = loaded.errors?.errors ?? []
        for scenario in loaded.scenarios {
            let overlong = scenario.runs().lazy.compactMap { run -> ScenarioError? in
                let plan = RunPlan(run: run, summary: scenario.summary)
                guard let (step, total) = plan.overlongWait else { return nil }
                return ScenarioError(file: scenario.file, line: step.location.line, column: step.location.column,
                                     message: plan.overlongWaitMessage(total))
            }.first
            if let overlong { errors.append(overlong) } else { kept.append(scenario) }
        }
        return (kept, errors.isEmpty ? nil : ScenarioErrors(errors))
    }

    /// The paths as URLs, or an error (exit code 2) for one that does not exist or holds no scenario.
    static func existing(_ paths: [String]) throws -> [URL] {
        let urls = paths.map { URL(fileURLWithPath: $0) }
        for (path, url) in zip(paths, urls) where !FileManager.default.fileExists(atPath: url.path) {
            if let raw = rawArgument(decodingTo: path), String(validating: raw, as: UTF8.self) == nil {
                printError("\(VisibleText.escapedFileName(raw)): the name is not UTF-8, and GroupSim reads names as UTF-8; rename it.")
            } else {
                printError("\(VisibleText.escaped(path)): no such file or folder; give a scenario file or a folder of them.")
            }
            throw ExitCode(2)
        }
        guard !ScenarioLoader.discover(in: urls).isEmpty else {
            printError("\(paths.map(VisibleText.escaped).joined(separator: ", ")): no scenario files (*.yaml) found.")
            throw ExitCode(2)
        }
        return urls
    }
}

/// The bytes of the command-line argument that decodes (lossily, as Swift's arguments are) to `text`: a
/// name that is not UTF-8 reaches the program with U+FFFD in it, and only its bytes say what it was.
func rawArgument(decodingTo text: String) -> [UInt8]? {
    guard text.unicodeScalars.contains("\u{FFFD}") else { return nil }
    for index in 1..<Int(CommandLine.argc) {
        guard let pointer = CommandLine.unsafeArgv[index] else { continue }
        let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
        if String(decoding: bytes, as: UTF8.self) == text { return bytes }
    }
    return nil
}

/// Refuses a store path given on the command line whose name is not UTF-8 (it reached the program with
/// U+FFFD in it, so the file it names cannot be opened), naming its bytes; `command` starts the line.
func refuseNameThatIsNotUTF8(_ path: String, command: String) throws {
    guard !FileManager.default.fileExists(atPath: path), let raw = rawArgument(decodingTo: path),
          String(validating: raw, as: UTF8.self) == nil else { return }
    printError("\(command): \(VisibleText.escapedFileName(raw)): the name is not UTF-8, and GroupSim reads names as UTF-8; "
        + "rename it (or copy the store to a name that is).")
    throw ExitCode(1)
}

/// Writes a line to stderr.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// `1 error`, `2 errors`: a count with its noun.
func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}
