import Basics

/// A refresh strategy run (or a `refresh` step) and what it did.
public struct RefreshRecord: Sendable, Hashable, Codable {
    /// What ran.
    public var strategy: RefreshKind
    public var reason: RefreshReason
    public var inserted: Int
    public var updated: Int
    public var deleted: Int

    public init(strategy: RefreshKind, reason: RefreshReason, inserted: Int = 0, updated: Int = 0, deleted: Int = 0) {
        self.strategy = strategy
        self.reason = reason
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }
}

/// A persistent-history fetch: tokens before and after, and whether the token had expired.
public struct HistoryFetch: Sendable, Hashable, Codable {
    public var tokenBefore: Int64?
    public var tokenAfter: Int64?
    public var transactions: Int
    public var merged: Int
    public var expired: Bool

    public init(tokenBefore: Int64?, tokenAfter: Int64?, transactions: Int, merged: Int, expired: Bool) {
        self.tokenBefore = tokenBefore
        self.tokenAfter = tokenAfter
        self.transactions = transactions
        self.merged = merged
        self.expired = expired
    }
}

/// A history purge.
public struct PurgeRecord: Sendable, Hashable, Codable {
    public var policy: String
    /// Transactions strictly before this token were deleted.
    public var beforeToken: Int64?
    public var deleted: Int

    public init(policy: String, beforeToken: Int64?, deleted: Int) {
        self.policy = policy
        self.beforeToken = beforeToken
        self.deleted = deleted
    }
}

/// A notification as the hub or an agent saw it.
public struct NotificationRecord: Sendable, Hashable, Codable {
    public var name: String
    /// The sender (hub records) or nil (Darwin notifications carry no sender).
    public var from: String?
    /// The receiving process, for hub records.
    public var to: String?
    /// Monotonic time of the post, when known (for latency).
    public var postedAt: UInt64?

    public init(name: String, from: String? = nil, to: String? = nil, postedAt: UInt64? = nil) {
        self.name = name
        self.from = from
        self.to = to
        self.postedAt = postedAt
    }
}
