import Basics
import Trace

/// A committed write an anomaly refers to: who committed what, when.
public struct CommitReference: Sendable, Hashable, Codable {
    /// The process whose save committed it.
    public var process: String
    /// When the commit was recorded (CLOCK_MONOTONIC ns).
    public var t: UInt64
    /// The row version after that save.
    public var version: Int64
    /// The step that saved, when known.
    public var step: Int?

    public init(process: String, t: UInt64, version: Int64, step: Int? = nil) {
        self.process = process
        self.t = t
        self.version = version
        self.step = step
    }
}

/// One thing that went wrong in a run, with everything an engineer needs to find and understand it.
///
/// ```swift
/// anomaly.explanation
/// // app read n1.title = "A" at 412 ms, but share committed "B" at 230 ms (version 2); the view kept the old row snapshot.
/// ```
public struct Anomaly: Sendable, Hashable, Codable {
    public var kind: AnomalyKind
    /// The process it happened in (for store-level anomalies: the store, e.g. `group:x`).
    public var process: String
    /// The step index in `RunInfo.steps`, when the anomaly belongs to one.
    public var step: Int?
    /// Where that step was written: `file:line`.
    public var location: String?
    /// The object (scenario id or `Entity#pk`), when one is concerned.
    public var object: String?
    /// The property, when one is concerned.
    public var property: String?
    /// What was seen (a value as `TraceValue.description` prints it, a count, an error message).
    public var seen: String?
    /// What was committed or expected instead.
    public var expected: String?
    /// When it happened (CLOCK_MONOTONIC ns, same clock as the trace).
    public var t: UInt64
    /// The commit the anomaly is judged against (the newer value a stale read missed, the value a
    /// lost update replaced, the insert a view missed), when there is one.
    public var cause: CommitReference?
    /// One sentence an engineer understands without reading the trace.
    public var explanation: String

    public init(
        kind: AnomalyKind, process: String, step: Int? = nil, location: String? = nil,
        object: String? = nil, property: String? = nil, seen: String? = nil, expected: String? = nil,
        t: UInt64, cause: CommitReference? = nil, explanation: String
    ) {
        self.kind = kind
        self.process = process
        self.step = step
        self.location = location
        self.object = object
        self.property = property
        self.seen = seen
        self.expected = expected
        self.t = t
        self.cause = cause
        self.explanation = explanation
    }
}
