/// One committed save on its way to one reader: when it was committed, when the reader was notified,
/// when a refresh of the reader covered it, and when the reader first showed it.
public struct Propagation: Sendable, Hashable, Codable {
    public var writer: String
    public var reader: String
    public var store: String
    /// The writer's step that saved.
    public var step: Int?
    /// The first object of the save (the one a timeline labels it with).
    public var object: String
    public var committedAt: UInt64
    /// The first notification the reader received after the commit.
    public var notifiedAt: UInt64?
    /// The end of the reader's first refresh that started after the commit.
    public var refreshedAt: UInt64?
    /// The reader's first read (or count) showing the save; nil if it never did.
    public var seenAt: UInt64?

    public init(
        writer: String, reader: String, store: String, step: Int?, object: String, committedAt: UInt64,
        notifiedAt: UInt64? = nil, refreshedAt: UInt64? = nil, seenAt: UInt64? = nil
    ) {
        self.writer = writer
        self.reader = reader
        self.store = store
        self.step = step
        self.object = object
        self.committedAt = committedAt
        self.notifiedAt = notifiedAt
        self.refreshedAt = refreshedAt
        self.seenAt = seenAt
    }

    /// Commit to first read showing it.
    public var latency: UInt64? { seenAt.map { $0 - committedAt } }
}

/// Change-propagation latency from one writer to one reader.
public struct PairLatency: Sendable, Hashable, Codable {
    public var writer: String
    public var reader: String
    /// Commit to the first read showing the save.
    public var visible: LatencySummary?
    /// Commit to the first notification received (when the reader received any).
    public var notified: LatencySummary?
    /// Commit to the end of the first refresh that covered it (when the reader refreshed).
    public var refreshed: LatencySummary?
    /// Saves the reader looked for (read the object or counted its entity after the commit) but never showed.
    public var unseen: Int
    /// Bars of the `visible` histogram.
    public var buckets: [LatencyBucket]

    public init(
        writer: String, reader: String, visible: LatencySummary?, notified: LatencySummary?,
        refreshed: LatencySummary?, unseen: Int, buckets: [LatencyBucket]
    ) {
        self.writer = writer
        self.reader = reader
        self.visible = visible
        self.notified = notified
        self.refreshed = refreshed
        self.unseen = unseen
        self.buckets = buckets
    }
}

/// Every pair's latency, all pairs together, and each save's propagation.
public struct LatencyReport: Sendable, Hashable, Codable {
    /// Ordered by writer, then reader.
    public var pairs: [PairLatency]
    /// Every pair's `visible` samples together.
    public var overall: LatencySummary?
    public var overallBuckets: [LatencyBucket]
    /// Each save to each reader that showed it or looked for it, in commit order.
    public var propagations: [Propagation]

    public init(pairs: [PairLatency] = [], overall: LatencySummary? = nil, overallBuckets: [LatencyBucket] = [], propagations: [Propagation] = []) {
        self.pairs = pairs
        self.overall = overall
        self.overallBuckets = overallBuckets
        self.propagations = propagations
    }
}
