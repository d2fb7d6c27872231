import Basics

/// A process's lifecycle as the hub needs it: whether it can receive now.
public enum HubProcessState: String, Sendable, Equatable, Hashable {
    /// Not launched, exited, crashed or terminated: receives nothing, and its observers are gone.
    case notRunning = "not-running"
    /// Running in the foreground (or launching): receives at once.
    case active
    /// Running in the background: still receives at once.
    case background
    /// SIGSTOPped: receives according to its `DeliveryPolicy` when resumed.
    case suspended

    /// True for active and background, the states that receive at once.
    public var isRunning: Bool { self == .active || self == .background }
}


/// One input to `HubStateMachine`.
public enum HubInput: Sendable, Equatable {
    /// `process` starts observing `name`.
    case observe(process: String, name: String)
    /// `process` stops observing `name`.
    case unobserve(process: String, name: String)
    /// `process` posted `name` at `postedAt` (its own monotonic time).
    case post(from: String, name: String, postedAt: UInt64)
    /// `process` changed lifecycle state.
    case lifecycle(process: String, state: HubProcessState)
    /// Sets what `process` gets for posts made while it is suspended.
    case policy(process: String, policy: DeliveryPolicy)
    /// Fault: deliveries to `process` decided before `until` (monotonic ns) are dropped.
    case dropNotifications(to: String, until: UInt64)
    /// Fault: deliveries to `process` are held back `by` nanoseconds (0 ends the fault).
    case delayNotifications(to: String, by: UInt64)
    /// The runner holds back every delivery to `process` from now until `release` (a `hold-notifications`
    /// fault, or the children of a `parallel` step while they run): posts still reach it, later. Holds
    /// nest: each `release` ends one, and the last delivers. A process that stops running is held no more.
    case hold(process: String)
    /// Ends one `hold`: after the last, what was held is delivered now, in order, as the process's state allows.
    case release(process: String)
    /// Time passed: releases delayed deliveries that are due.
    case tick
}

/// A delivery the hub decided to make: send `name` to `process` now.
public struct HubDelivery: Sendable, Equatable, Hashable {
    /// The receiving process.
    public var process: String
    /// The notification's name.
    public var name: String
    /// The posting process.
    public var poster: String
    /// When the poster posted (its monotonic ns), carried to the receiver for latency.
    public var postedAt: UInt64
    /// When the hub decided to deliver.
    public var at: UInt64

    /// True when the receiver posted it itself (Darwin delivers those too).
    public var isOwnPost: Bool { process == poster }

    /// Creates a delivery.
    public init(process: String, name: String, poster: String, postedAt: UInt64, at: UInt64) {
        self.process = process
        self.name = name
        self.poster = poster
        self.postedAt = postedAt
        self.at = at
    }
}

/// One thing the hub did, for the run's trace.
public struct HubRecord: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// What happened.
    public var kind: HubDecision
    /// The process concerned: the receiver, or the poster for `.posted`, the observer for `.observed`.
    public var process: String
    /// The notification's name.
    public var name: String
    /// The posting process, for records about a post.
    public var poster: String?
    /// The post's own time, for records about a post.
    public var postedAt: UInt64?
    /// When the hub recorded it.
    public var at: UInt64

    /// Creates a record.
    public init(kind: HubDecision, process: String, name: String, poster: String? = nil, postedAt: UInt64? = nil, at: UInt64) {
        self.kind = kind
        self.process = process
        self.name = name
        self.poster = poster
        self.postedAt = postedAt
        self.at = at
    }

    public var description: String {
        "\(kind.rawValue) \(name) -> \(process)" + (poster.map { " (from \($0))" } ?? "") + " at \(at)"
    }
}

/// What one input made the hub do.
public struct HubOutput: Sendable, Equatable {
    /// Deliveries to send now, in order.
    public var deliveries: [HubDelivery] = []
    /// Trace records, in order (each delivery also appears as a `.delivered` record).
    public var records: [HubRecord] = []

    /// An empty output.
    public init() {}

    mutating func append(_ other: HubOutput) {
        deliveries += other.deliveries
        records += other.records
    }
}
