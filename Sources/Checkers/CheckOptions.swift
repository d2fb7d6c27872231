/// Knobs of the checkers that the contract leaves to the harness.
public struct CheckOptions: Sendable, Hashable {
    /// How far apart a commit and a read may be recorded and still count as simultaneous.
    ///
    /// A writer records `saveCommitted` just after COMMIT returns and a reader records `observed`
    /// just after its read, so a read recorded a hair after a commit may still have run before it,
    /// and a read may show a value whose commit is recorded a hair later. Within this window neither
    /// is judged against the other. Default 1 ms (the recording gap measured on one machine is tens
    /// of microseconds).
    public var raceSlackNanos: UInt64

    public init(raceSlackNanos: UInt64 = 1_000_000) {
        self.raceSlackNanos = raceSlackNanos
    }
}
