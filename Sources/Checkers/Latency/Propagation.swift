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
    /// The end of the reader's first refresh that began after the commit and brought it (see `LatencyTracker`).
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

/// Change-propagation latency from one writer to one reader, by stage.
public struct PairLatency: Sendable, Hashable, Codable {
    public var writer: String
    public var reader: String
    /// Commit to the end of the refresh that brought the save into the reader's context: the headline.
    public var refreshed: LatencySummary?
    /// Commit to the first read (or count) showing the save; the contract's latency, which budgets judge.
    public var shown: LatencySummary?
    /// Commit to the first notification received (when the reader received any).
    public var notified: LatencySummary?
    /// Saves no refresh of the reader brought (it has no strategy that refreshes, or every refresh missed them).
    public var unrefreshed: Int
    /// Saves the reader looked for (read the object or counted its entity after the commit) but never showed.
    public var unseen: Int
    /// Bars of the `refreshed` histogram.
    public var refreshedBuckets: [LatencyBucket]
    /// Bars of the `shown` histogram.
    public var shownBuckets: [LatencyBucket]

    public init(
        writer: String, reader: String, refreshed: LatencySummary?, shown: LatencySummary?, notified: LatencySummary?,
        unrefreshed: Int, unseen: Int, refreshedBuckets: [LatencyBucket], shownBuckets: [LatencyBucket]
    ) {
        self.writer = writer
        self.reader = reader
        self.refreshed = refreshed
        self.shown = shown
        self.notified = notified
        self.unrefreshed = unrefreshed
        self.unseen = unseen
        self.refreshedBuckets = refreshedBuckets
        self.shownBuckets = shownBuckets
    }
}

/// Every pair's latency, all pairs together, and each save's propagation.
public struct LatencyReport: Sendable, Hashable, Codable {
    /// Ordered by writer, then reader.
    public var pairs: [PairLatency]
    /// The pair a one-line summary shows when there are several: one whose saves no refresh of the
    /// reader ever brought (the most of them), else the slowest to refresh (highest `refreshed` p99).
    public var headline: LatencyPair?
    /// Every pair's `refreshed` samples together: the headline.
    public var refreshed: LatencySummary?
    /// Every pair's `shown` samples together.
    public var shown: LatencySummary?
    public var refreshedBuckets: [LatencyBucket]
    public var shownBuckets: [LatencyBucket]
    /// Each save to each reader that showed it, looked for it or was refreshed with it, in commit order.
    public var propagations: [Propagation]

    public init(
        pairs: [PairLatency] = [], headline: LatencyPair? = nil, refreshed: LatencySummary? = nil, shown: LatencySummary? = nil,
        refreshedBuckets: [LatencyBucket] = [], shownBuckets: [LatencyBucket] = [], propagations: [Propagation] = []
    ) {
        self.pairs = pairs
        self.headline = headline
        self.refreshed = refreshed
        self.shown = shown
        self.refreshedBuckets = refreshedBuckets
        self.shownBuckets = shownBuckets
        self.propagations = propagations
    }
}

/// A writer and a reader.
public struct LatencyPair: Sendable, Hashable, Codable {
    public var writer: String
    public var reader: String

    public init(writer: String, reader: String) {
        self.writer = writer
        self.reader = reader
    }
}

extension LatencyReport {
    /// The headline pair's latency, when there is one.
    public var headlinePair: PairLatency? {
        headline.flatMap { h in pairs.first { $0.writer == h.writer && $0.reader == h.reader } }
    }
}
