import Foundation
import Synchronization
import TestSupport

/// A `testpeer` child started with Foundation's `Process` (NotifyTests cannot use Supervisor),
/// its stdout collected line by line on a reader thread.
final class PeerProcess: Sendable {
    private final class Lines: Sendable {
        let value = Mutex<[String]>([])
        /// Whether the reader reached the end of the output (the child and everything holding its stdout ended).
        let ended = Mutex(false)
    }

    private let process: Process
    private let lines = Lines()

    init(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.executable("testpeer"))
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        self.process = process
        try process.run()
        let reader = output.fileHandleForReading
        let lines = lines
        Thread.detachNewThread {
            var pending = Data()
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty {
                    lines.ended.withLock { $0 = true }
                    break
                }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    lines.value.withLock { $0.append(line) }
                    pending.removeSubrange(pending.startIndex...newline)
                }
            }
        }
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    var pid: Int32 { process.processIdentifier }

    /// Every line printed so far.
    var output: [String] { lines.value.withLock { $0 } }

    /// The first line starting with `prefix`, waiting up to `timeout`.
    func line(startingWith prefix: String, timeout: Duration = .seconds(5)) -> String? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let line = output.first(where: { $0.hasPrefix(prefix) }) { return line }
            usleep(1_000)
        }
        return nil
    }

    /// The exit code, waiting up to `timeout`; nil if still running. Once it exited, `output` holds every line
    /// it printed: the reader thread is waited for too (on a loaded machine it could still be behind).
    func exitCode(timeout: Duration = .seconds(5)) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning && ContinuousClock.now < deadline { usleep(1_000) }
        guard !process.isRunning else { return nil }
        while !lines.ended.withLock({ $0 }) && ContinuousClock.now < deadline + .seconds(5) { usleep(1_000) }
        return process.terminationStatus
    }

    func stop() { kill(process.processIdentifier, SIGSTOP) }
    func resume() { kill(process.processIdentifier, SIGCONT) }
}
