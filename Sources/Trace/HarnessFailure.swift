/// Why the harness could not decide a run (exit code 2): a process that did not start or answer, a
/// timeout, a step it could not carry out. Names the step's `file:line` and the process, when known.
///
/// The runner throws it and ends the run's trace with it (`harnessFailed`); the checkers then give
/// the run no verdict, whatever its trace showed before the failure.
public struct HarnessFailure: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The scenario step (`file:line`) being executed, when there was one.
    public var location: String?
    public var process: String?
    public var message: String

    public init(location: String? = nil, process: String? = nil, message: String) {
        self.location = location
        self.process = process
        self.message = message
    }

    public var description: String {
        (location.map { "\($0): " } ?? "") + (process.map { "process '\($0)': " } ?? "") + message
    }
}
