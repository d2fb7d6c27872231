import Basics

/// One thing that happened during a run, on the one monotonic clock every process shares.
///
/// Agents and the runner record events; the runner merges them in time order into `trace.jsonl`,
/// one JSON object per line: `{"t":…,"process":"app","step":4,"type":"observed","data":{…}}`.
public struct TraceEvent: Sendable, Hashable, Codable {
    /// CLOCK_MONOTONIC nanoseconds: comparable across processes on one machine. For an operation
    /// with a duration (a read, a count, a commit), when it completed.
    public var t: UInt64
    /// For an operation with a duration, when it was invoked: the operation took effect somewhere in
    /// `start...t`. For a commit, `start` is taken just before COMMIT while the write lock is held, so
    /// commits to one store are in the order of their `start`. Nil for an instant (`start == t`).
    public var start: UInt64?
    /// The process that recorded it (`runner` and `hub` for the harness itself).
    public var process: String
    /// The index of the step in progress (see `RunInfo.steps`), when there is one.
    public var step: Int?
    public var kind: TraceEventKind

    public init(t: UInt64, start: UInt64? = nil, process: String, step: Int? = nil, kind: TraceEventKind) {
        self.t = t
        self.start = start
        self.process = process
        self.step = step
        self.kind = kind
    }

    private enum CodingKeys: String, CodingKey { case t, start, process, step, type, data }

    /// When the operation was invoked: `start`, or `t` for an instant.
    public var invokedAt: UInt64 { start ?? t }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        t = try container.decode(UInt64.self, forKey: .t)
        start = try container.decodeIfPresent(UInt64.self, forKey: .start)
        process = try container.decode(String.self, forKey: .process)
        step = try container.decodeIfPresent(Int.self, forKey: .step)
        let type = try container.decode(String.self, forKey: .type)
        kind = try TraceEventKind.decode(type: type, from: container, key: .data)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(t, forKey: .t)
        try container.encodeIfPresent(start, forKey: .start)
        try container.encode(process, forKey: .process)
        try container.encodeIfPresent(step, forKey: .step)
        try container.encode(kind.type, forKey: .type)
        try kind.encodePayload(into: &container, key: .data)
    }
}

/// What a trace event says. Each case's name is its `type` in `trace.jsonl`.
public enum TraceEventKind: Sendable, Hashable {
    /// The run's header; always the first event.
    case runStarted(RunInfo)
    case lifecycle(LifecycleChange)
    case stepStarted
    case stepEnded(ErrorRecord?)
    case saveCommitted(SaveCommit)
    case saveFailed(ErrorRecord)
    case conflict(ConflictRecord)
    case notificationPosted(NotificationRecord)
    case notificationReceived(NotificationRecord)
    /// The hub's decisions (delivered, dropped, coalesced, queued, delayed...).
    case notificationRouted(NotificationRecord, decision: HubDecision)
    case refreshStarted(RefreshRecord)
    case refreshEnded(RefreshRecord)
    case historyFetched(HistoryFetch)
    case purged(PurgeRecord)
    case sqlRead(entity: String, rows: Int)
    case faultFulfilled(object: String, source: ReadSource)
    case snapshotDropped(object: String)
    case observed(Observation)
    case counted(CountObservation)
    case check(CheckRecord)
    case error(ErrorRecord)
    case verified(VerificationRecord)
    /// A store's contents at the end (after every live process's final refresh).
    case finalStore(StateSnapshot)
    /// How far a store grew during the run (history, file and `-wal` sizes), measured by the runner
    /// before the processes exit.
    case storeGrowth(StoreGrowth)
    /// A live process's view at the end.
    case finalView(StateSnapshot)
    /// Free text for the report (stderr lines of a process, harness notes).
    case note(String)
    /// Something the harness could not do as the scenario asked (a workload's rate not reached, a
    /// notification that never arrived): the verdict stands, but the report says so.
    case warning(String)
    /// The harness could not carry the run through (the last event of such a run): no verdict.
    case harnessFailed(HarnessFailure)
}
