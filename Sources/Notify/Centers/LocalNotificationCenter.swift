import Basics
import Synchronization

/// The shared medium of `LocalNotificationCenter`s: stands in for the machine in one process.
public final class LocalNotificationBus: Sendable {
    private let centers = Mutex<[ObjectIdentifier: LocalNotificationCenter]>([:])

    /// Creates an empty bus.
    public init() {}

    func attach(_ center: LocalNotificationCenter) {
        centers.withLock { $0[ObjectIdentifier(center)] = center }
    }

    func detach(_ center: LocalNotificationCenter) {
        _ = centers.withLock { $0.removeValue(forKey: ObjectIdentifier(center)) }
    }

    func broadcast(_ name: String, poster: String, postedAt: UInt64) {
        for center in centers.withLock({ Array($0.values) }) {
            center.receive(name, poster: poster, postedAt: postedAt)
        }
    }
}

/// An in-process test double for `DarwinNotificationCenter`: centers on one bus notify each other
/// with the same semantics (observers at the time of the post, the poster included, no replay). A
/// delivery reaches the observers during the post, on the poster's thread: what the receiver does with
/// it (an agent's inbox) decides when it is handled, and no delivery waits for a thread of the machine's
/// pool (on a loaded machine an asynchronous one waited out a test's 10 s). No sockets, no processes:
/// for agent tests that do not need a process boundary.
///
/// ```swift
/// let bus = LocalNotificationBus()
/// let app = LocalNotificationCenter(bus: bus, process: "app")
/// let share = LocalNotificationCenter(bus: bus, process: "share")
/// ```
public final class LocalNotificationCenter: DarwinNotificationCenter {
    /// The simulated process this center speaks for.
    public let process: String
    private let bus: LocalNotificationBus
    private let observers = ObserverTable()

    /// Opens a center for `process` on `bus`.
    public init(bus: LocalNotificationBus, process: String) {
        self.bus = bus
        self.process = process
        bus.attach(self)
    }

    public func post(_ name: String) throws {
        try WireMessage.validate(name)
        bus.broadcast(name, poster: process, postedAt: MonotonicClock.now())
    }

    public func addObserver(
        _ name: String, handler: @escaping @Sendable (NotificationDelivery) -> Void
    ) throws -> NotificationObserver {
        try WireMessage.validate(name)
        return observers.add(name, handler: handler).observer
    }

    public func removeObserver(_ observer: NotificationObserver) throws {
        _ = observers.remove(observer)
    }

    public func close() {
        _ = observers.removeAll()
        bus.detach(self)
    }

    func receive(_ name: String, poster: String, postedAt: UInt64) {
        // Decide at the time of the post: only handlers registered now will see it.
        guard observers.names.contains(name) else { return }
        observers.dispatch(NotificationDelivery(
            name: name, postedAt: postedAt, receivedAt: MonotonicClock.now(),
            poster: poster, isOwnPost: poster == process))
    }
}
