/// Why the harness could not decide a run (exit code 2): it names the process and the step.
public struct RunError: Error, Sendable, CustomStringConvertible {
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
        var text = ""
        if let location { text += "\(location): " }
        if let process { text += "process '\(process)': " }
        return text + message
    }
}
