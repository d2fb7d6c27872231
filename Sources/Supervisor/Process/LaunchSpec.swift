/// How to start one child process: argv only, never a shell.
///
/// ```swift
/// let spec = LaunchSpec(
///     process: "share",
///     executable: "/proc/self/exe",
///     arguments: ["agent", "--role", "share", "--process", "share"],
///     stderrPath: sandbox + "/share.stderr")
/// ```
public struct LaunchSpec: Sendable, Equatable {
    /// Where stderr goes.
    public enum StandardError: Sendable, Equatable {
        /// Appended to this file (created if missing), for the report.
        case file(String)
        /// The runner's own stderr.
        case inherit
        /// `/dev/null`.
        case discard
    }

    /// The scenario's name for the process; every error names it.
    public var process: String
    /// The executable's path (not searched in `PATH`).
    public var executable: String
    /// Arguments after argv[0].
    public var arguments: [String]
    /// Variables added to (or replacing) the runner's environment.
    public var environment: [String: String]
    /// Where the child's stderr goes.
    public var standardError: StandardError
    /// The child's working directory; the runner's when nil.
    public var workingDirectory: String?

    /// Creates a spec; stderr is inherited unless given.
    public init(
        process: String, executable: String, arguments: [String] = [],
        environment: [String: String] = [:], standardError: StandardError = .inherit,
        workingDirectory: String? = nil
    ) {
        self.process = process
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.standardError = standardError
        self.workingDirectory = workingDirectory
    }
}
