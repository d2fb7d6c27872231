import Basics

/// One step of a scenario: what to do, which process does it, where the file says so, and the error it
/// expects, if any.
///
/// The runner sends steps to child processes as JSON; every step round-trips through `JSONEncoder`.
public struct ScenarioStep: Sendable, Hashable, Codable {
    /// Where the step starts in the file: its key (the process or control word).
    public var location: SourceLocation
    /// The process the step applies to, or nil for a control step (`sleep`, `parallel`, `clock`,
    /// `workload`, `fault`).
    public var process: String?
    /// What the step does.
    public var step: Step
    /// The error the step expects (`expect-error:`), which is then its outcome rather than an anomaly.
    public var expectError: ErrorKind?
    /// The variants the step runs in (`only-in:`); nil runs it in every variant.
    public var onlyIn: [String]?
    /// The variants that run their own version of this step instead (a step's `variants:`).
    public var exceptIn: [String]?
    /// The process's background context the action runs through (`context: bg`), made on first use;
    /// nil for its view context.
    public var context: String?
    /// For a `count` of a widget's `on-reload:` or an extension's `on-push:` written with a list
    /// (`expect: [3, 2]`): the count each reload or push expects, the n-th the n-th (the last for every
    /// one after it). The step's own `expected` is the first.
    public var perReload: [Int]?

    /// Creates a step.
    public init(location: SourceLocation, process: String?, step: Step, expectError: ErrorKind? = nil,
                onlyIn: [String]? = nil, exceptIn: [String]? = nil) {
        self.location = location
        self.process = process
        self.step = step
        self.expectError = expectError
        self.onlyIn = onlyIn
        self.exceptIn = exceptIn
    }

    /// Whether the step runs in the variant named `variant`.
    public func runs(in variant: String) -> Bool {
        (onlyIn.map { $0.contains(variant) } ?? true) && !(exceptIn?.contains(variant) ?? false)
    }
}
