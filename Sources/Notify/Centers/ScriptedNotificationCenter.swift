import Synchronization

/// A center with no transport: its posts and registrations are collected for someone else to route
/// (the runner's deterministic mode, which decides when each notification arrives), and deliveries
/// are handed to it, reaching its handlers at once on the caller's thread.
///
/// ```swift
/// let center = ScriptedNotificationCenter(process: "app") { clock.now() }
/// try center.post("didSave")
/// center.takeActivity()      // posts: [("didSave", t)], observing: [...]
/// center.deliver(delivery)   // calls the handlers of delivery.name now
/// ```
public final class ScriptedNotificationCenter: DarwinNotificationCenter {
    /// A post made through this center, with when it was made.
    public struct Post: Sendable, Hashable, Codable {
        public var name: String
        public var at: UInt64

        public init(name: String, at: UInt64) {
            self.name = name
            self.at = at
        }
    }

    /// What the center did since the last `takeActivity()`: posts in order, and names it started or
    /// stopped observing.
    public struct Activity: Sendable, Hashable {
        public var posts: [Post] = []
        public var observed: [String] = []
        public var unobserved: [String] = []
    }

    /// The process this center speaks for.
    public let process: String
    private let observers = ObserverTable()
    private let activity = Mutex(Activity())
    private let clock: @Sendable () -> UInt64

    /// A center for `process` whose posts are stamped by `clock`.
    public init(process: String, clock: @escaping @Sendable () -> UInt64) {
        self.process = process
        self.clock = clock
    }

    public func post(_ name: String) throws {
        try WireMessage.validate(name)
        let post = Post(name: name, at: clock())
        activity.withLock { $0.posts.append(post) }
    }

    public func addObserver(
        _ name: String, handler: @escaping @Sendable (NotificationDelivery) -> Void
    ) throws -> NotificationObserver {
        try WireMessage.validate(name)
        let (observer, isFirst) = observers.add(name, handler: handler)
        if isFirst { activity.withLock { $0.observed.append(name) } }
        return observer
    }

    public func removeObserver(_ observer: NotificationObserver) throws {
        if let (name, wasLast) = observers.remove(observer), wasLast {
            activity.withLock { $0.unobserved.append(name) }
        }
    }

    public func close() {
        let names = observers.removeAll()
        activity.withLock { $0.unobserved += names.sorted() }
    }

    /// What happened since the last call, and forgets it.
    public func takeActivity() -> Activity {
        activity.withLock { current in
            defer { current = Activity() }
            return current
        }
    }

    /// Delivers to this center's handlers of `delivery.name`, now, on the caller's thread.
    public func deliver(_ delivery: NotificationDelivery) {
        observers.dispatch(delivery)
    }
}
