import Basics

/// A running child as the runner drives it: JSON lines in and out, signals, and its exit.
///
/// `ChildProcess` is the real one; a test double can implement it in-process. Every wait takes a
/// timeout and names what it awaited, so a hung child ends in an error, never a hung run.
public protocol SupervisedProcess: AnyObject, Sendable {
    /// The scenario's name for the process.
    var process: String { get }
    /// The OS process id (a fake may return any unique number).
    var pid: Int32 { get }

    /// Sends one line (a JSON message) to the child's stdin.
    func writeLine(_ line: String) throws(SupervisorError)
    /// Reads the child's next stdout line, waiting at most `timeout`.
    func readLine(timeout: Duration, awaiting: String) throws(SupervisorError) -> String
    /// The child's next stdout line if it is in already, nil without waiting otherwise.
    func readLineIfReady(awaiting: String) throws(SupervisorError) -> String?
    /// Closes the child's stdin, so it reads end-of-file.
    func closeInput()
    /// Sends `signal` to the child and everything in its process group.
    func signal(_ signal: ProcessSignal) throws(SupervisorError)
    /// Waits at most `timeout` for the child to exit, and reaps it.
    func wait(timeout: Duration) throws(SupervisorError) -> ProcessExit
    /// The exit status if the child has exited (reaping it), nil while it runs. Never blocks.
    func exitStatus() -> ProcessExit?
    /// SIGKILLs the child's process group and reaps the child; does nothing once reaped.
    func kill()
    /// What the child wrote to stderr, when captured to a file.
    func standardErrorOutput() -> String
}

/// Starts children: `PosixSpawnLauncher` for real processes; tests may inject their own.
public protocol ProcessLauncher: Sendable {
    /// Starts the process `spec` describes.
    func launch(_ spec: LaunchSpec) throws(SupervisorError) -> any SupervisedProcess
}

/// Starts real child processes with `posix_spawn`.
public struct PosixSpawnLauncher: ProcessLauncher {
    /// Creates a launcher.
    public init() {}

    public func launch(_ spec: LaunchSpec) throws(SupervisorError) -> any SupervisedProcess {
        try ChildProcess.spawn(spec)
    }
}
