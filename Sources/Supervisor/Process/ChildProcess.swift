#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Basics
import Foundation
import Synchronization

/// A real child process: spawned with `posix_spawn` (argv only, never a shell) into its own
/// process group, its stdin and stdout one socket pair carrying JSON lines, its stderr in a file.
///
/// ```swift
/// let child = try ChildProcess.spawn(LaunchSpec(process: "app", executable: agentPath,
///                                               arguments: ["agent", "--process", "app"],
///                                               standardError: .file(sandbox + "/app.stderr")))
/// let ready = try child.readLine(timeout: .seconds(5), awaiting: "say it is ready")
/// try child.signal(.stop)          // suspend
/// try child.signal(.continue)      // resume
/// child.kill()                     // crash: SIGKILL the group, reap
/// ```
/// Every child is registered until reaped, so `ProcessGuard.killAllChildren()` (run by the cleanup
/// handlers) leaves none behind. A reaped child is never signalled again (its pid may be reused).
public final class ChildProcess: SupervisedProcess {
    public let process: String
    public let pid: Int32
    /// The runner's end of the child's stdin and stdout.
    public let channel: LineChannel
    /// The file the child's stderr goes to, if captured.
    public let standardErrorPath: String?
    /// Reaping state: nil while the child has not been reaped. Signals are sent under this lock,
    /// so a signal never reaches a pid that was reaped and reused.
    private let reaped = Mutex<ProcessExit?>(nil)

    private init(process: String, pid: Int32, channel: LineChannel, standardErrorPath: String?) {
        self.process = process
        self.pid = pid
        self.channel = channel
        self.standardErrorPath = standardErrorPath
    }

    /// Spawns `spec` and registers the child for cleanup.
    public static func spawn(_ spec: LaunchSpec) throws(SupervisorError) -> ChildProcess {
        var pair: [Int32] = [-1, -1]
        #if canImport(Glibc)
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #else
        let type = SOCK_STREAM
        #endif
        guard socketpair(AF_UNIX, type, 0, &pair) == 0 else {
            throw .systemCall(process: spec.process, operation: "socketpair", errno: errno)
        }
        let (runnerEnd, childEnd) = (pair[0], pair[1])
        let result = SpawnThread.shared.run { PosixSpawn.spawn(spec, stdio: childEnd) }
        SystemCalls.closeDescriptor(childEnd)
        switch result {
        case let .failure(error):
            SystemCalls.closeDescriptor(runnerEnd)
            throw error
        case let .success(pid):
            var standardErrorPath: String?
            if case let .file(path) = spec.standardError { standardErrorPath = path }
            let child = ChildProcess(
                process: spec.process, pid: pid,
                channel: LineChannel(descriptor: runnerEnd, process: spec.process),
                standardErrorPath: standardErrorPath)
            ChildRegistry.shared.add(child)
            return child
        }
    }

    public func writeLine(_ line: String) throws(SupervisorError) {
        try channel.writeLine(line)
    }

    public func readLine(timeout: Duration, awaiting: String) throws(SupervisorError) -> String {
        try channel.readLine(timeout: timeout, awaiting: awaiting)
    }

    public func readLineIfReady(awaiting: String) throws(SupervisorError) -> String? {
        try channel.readLineIfReady(awaiting: awaiting)
    }

    public func closeInput() {
        channel.closeWriting()
    }

    public func signal(_ signal: ProcessSignal) throws(SupervisorError) {
        try reaped.withLock { status throws(SupervisorError) in
            if let status { throw .alreadyExited(process: process, status: status) }
            // The group first (the child's own children), then the child itself.
            _ = SystemCalls.sendSignal(signal.number, to: -pid)
            guard SystemCalls.sendSignal(signal.number, to: pid) == 0 else {
                throw .systemCall(process: process, operation: "kill(\(signal))", errno: errno)
            }
        }
    }

    public func wait(timeout: Duration) throws(SupervisorError) -> ProcessExit {
        let deadline = ContinuousClock.now + timeout
        var pause: UInt32 = 100
        while true {
            if let status = exitStatus() { return status }
            guard ContinuousClock.now < deadline else {
                throw .timedOut(process: process, awaiting: "exit", after: timeout)
            }
            usleep(pause)
            pause = min(pause * 2, 5_000)
        }
    }

    public func exitStatus() -> ProcessExit? {
        let status = reaped.withLock { reaped -> ProcessExit? in
            if let reaped { return reaped }
            var raw: Int32 = 0
            let result = waitpid(pid, &raw, WNOHANG)
            guard result == pid else { return nil }
            reaped = ProcessExit(waitStatus: raw)
            return reaped
        }
        if status != nil { ChildRegistry.shared.remove(pid) }
        return status
    }

    public func kill() {
        reaped.withLock { reaped in
            guard reaped == nil else { return }
            _ = SystemCalls.sendSignal(SIGKILL, to: -pid)
            _ = SystemCalls.sendSignal(SIGKILL, to: pid)
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
            reaped = ProcessExit(waitStatus: raw)
        }
        ChildRegistry.shared.remove(pid)
    }

    public func standardErrorOutput() -> String {
        guard let path = standardErrorPath, let data = FileManager.default.contents(atPath: path) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }
}
