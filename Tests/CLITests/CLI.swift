import Foundation
import TestSupport

/// Runs the built `groupsim` in a scratch directory holding copies of the CLI fixtures.
struct CLI {
    let directory: TemporaryDirectory

    /// The fixtures (`Tests/Golden/CLI/Scenarios`), copied into a fresh directory.
    init() throws {
        directory = try TemporaryDirectory(prefix: "groupsim-cli")
        let source = golden.directory.appendingPathComponent("Scenarios")
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: directory.url.appendingPathComponent(name))
        }
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Standard output, then standard error, with the scratch directory's path replaced by `<dir>`.
        var transcript: String { "$ exit \(status)\n" + stdout + (stderr.isEmpty ? "" : "--- stderr\n" + stderr) }
    }

    /// Runs `groupsim arguments…` in the scratch directory and waits for it.
    func run(_ arguments: String..., environment extra: [String: String] = [:]) throws -> Result {
        try launch(BuiltProducts.executable("groupsim"), arguments, environment: extra)
    }

    /// Runs `groupsim` with `arguments` as `sh` expands them (`"$(printf 'a\\377')"`: bytes no Swift string holds).
    func runThroughShell(_ arguments: String) throws -> Result {
        try launch("/bin/sh", ["-c", "'\(BuiltProducts.executable("groupsim"))' \(arguments)"], environment: [:])
    }

    /// Runs `command` with `sh -c` in the scratch directory (to start groupsim under another name).
    func shell(_ command: String) throws -> Result {
        try launch("/bin/sh", ["-c", command], environment: [:])
    }

    /// Where `script(1)` is, to give a command a terminal (Linux's util-linux spelling).
    static let script = "/usr/bin/script"

    /// Runs `groupsim arguments…` with a pseudo-terminal for its output, through `script -qec`.
    func runOnTerminal(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Result {
        let command = ([BuiltProducts.executable("groupsim")] + arguments).map { "'\($0)'" }.joined(separator: " ")
        return try launch(Self.script, ["-qec", command, "/dev/null"], environment: extra)
    }

    private func launch(_ executable: String, _ arguments: [String], environment extra: [String: String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory.url
        // Help text wraps at the terminal's width: fix it, whatever the machine's.
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = "80"
        // Whatever the test runner's own environment says about colour, only what a test sets counts.
        environment["NO_COLOR"] = nil
        environment.merge(extra) { $1 }
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both to the end before waiting, so a full pipe never blocks the child.
        let errorData = Data.reading(err.fileHandleForReading)
        let outputData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let root = directory.url.resolvingSymlinksInPath().path
        func clean(_ data: Data) -> String {
            String(decoding: data, as: UTF8.self)
                .replacingOccurrences(of: root, with: "<dir>")
                .replacingOccurrences(of: directory.url.path, with: "<dir>")
        }
        return Result(status: process.terminationStatus, stdout: clean(outputData), stderr: clean(errorData.wait()))
    }

    func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: directory.path(path))
    }
}

/// Expected transcripts under `Tests/Golden/CLI/`.
let golden = GoldenFiles("CLI", testFile: #filePath)

extension Data {
    /// Reads `handle` to its end on another thread; `wait()` returns what it read.
    static func reading(_ handle: FileHandle) -> PendingRead {
        let pending = PendingRead()
        pending.thread = Thread {
            pending.data = handle.readDataToEndOfFile()
            pending.done.signal()
        }
        pending.thread?.start()
        return pending
    }
}

/// A read in progress on its own thread.
final class PendingRead: @unchecked Sendable {
    var thread: Thread?
    var data = Data()
    let done = DispatchSemaphore(value: 0)

    func wait() -> Data {
        done.wait()
        return data
    }
}
