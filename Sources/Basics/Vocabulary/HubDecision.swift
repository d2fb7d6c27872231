/// What the notification hub did, as its records (and the trace's `notificationRouted`) say.
public enum HubDecision: String, Sendable, Hashable, Codable, CaseIterable {
    /// `process` posted `name`.
    case posted
    /// `name` was delivered to `process`.
    case delivered
    /// Held for `process` while suspended, delivered at resume (policy coalesce or queue).
    case queued
    /// Folded into a delivery already held for suspended `process` (policy coalesce).
    case coalesced
    /// Lost because `process` was suspended (policy drop).
    case droppedWhileSuspended = "dropped-while-suspended"
    /// Lost because `process` is not running; it had observed `name` in an earlier launch,
    /// or was holding it when it stopped running.
    case droppedNotRunning = "dropped-not-running"
    /// Lost to a `drop-notifications` fault.
    case droppedByFault = "dropped-by-fault"
    /// Held back by a `delay-notifications` fault.
    case delayed
    /// Held back by the runner until it releases `process` (a `hold-notifications` fault, or a `parallel`
    /// step whose children run together), then delivered.
    case held
    /// A delayed delivery found `process` no longer observing `name`.
    case droppedNotObserving = "dropped-not-observing"
    /// The transport found no socket for `process` (it died before the hub heard of it).
    case undeliverable
    /// `process` started observing `name`.
    case observed
    /// `process` stopped observing `name`.
    case unobserved
    /// An observe from a process the hub does not consider running, ignored.
    case observeIgnored = "observe-ignored"
}

extension HubDecision {
    /// Whether the delivery never reached the process.
    public var isLoss: Bool {
        switch self {
        case .droppedWhileSuspended, .droppedNotRunning, .droppedByFault, .droppedNotObserving, .undeliverable: true
        default: false
        }
    }
}
