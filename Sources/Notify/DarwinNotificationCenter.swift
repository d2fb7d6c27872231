
/// One notification as an observer sees it: a name and no payload.
///
/// Besides the name, the transport carries metadata for the trace, never for the app's logic:
/// when the post happened (monotonic nanoseconds, comparable across processes), who posted,
/// and whether the post came from the observer's own process (Darwin delivers those too).
public struct NotificationDelivery: Sendable, Equatable, Hashable {
    /// The notification's name.
    public var name: String
    /// When the poster called `post`, from `MonotonicClock.now()` in its process.
    public var postedAt: UInt64
    /// When this process received it, from `MonotonicClock.now()`.
    public var receivedAt: UInt64
    /// The posting process: its scenario name through the hub, its pid in direct mode.
    public var poster: String
    /// True when this process posted it itself.
    public var isOwnPost: Bool

    /// Creates a delivery record.
    public init(name: String, postedAt: UInt64, receivedAt: UInt64, poster: String, isOwnPost: Bool) {
        self.name = name
        self.postedAt = postedAt
        self.receivedAt = receivedAt
        self.poster = poster
        self.isOwnPost = isOwnPost
    }

    /// Nanoseconds from the post to its receipt.
    public var latency: UInt64 { receivedAt >= postedAt ? receivedAt - postedAt : 0 }
}

/// A registration made by `addObserver`, passed back to `removeObserver`.
public struct NotificationObserver: Sendable, Hashable {
    let identifier: UInt64
    /// The name observed.
    public let name: String
}

/// Darwin notification center semantics: post a name, observe a name; no payload, no sender;
/// delivered only to observers registered at the time of the post, never replayed later.
///
/// Handlers run on the center's receiving thread, one at a time, in the order deliveries arrive;
/// keep them short (hand the work to your own queue). Observers in the posting process receive
/// its posts too, marked `isOwnPost`.
///
/// ```swift
/// let center = try DirectNotificationCenter(directory: notifyDirectory)
/// let observer = try center.addObserver("com.example.notes.didSave") { delivery in
///     queue.enqueue(.refresh(postedAt: delivery.postedAt))
/// }
/// try center.post("com.example.notes.didSave")
/// try center.removeObserver(observer)
/// ```
public protocol DarwinNotificationCenter: AnyObject, Sendable {
    /// Posts `name` to every observer registered now, in any process.
    func post(_ name: String) throws

    /// Registers `handler` for `name` from now on; posts made before this call are never replayed.
    func addObserver(
        _ name: String, handler: @escaping @Sendable (NotificationDelivery) -> Void
    ) throws -> NotificationObserver

    /// Stops delivering to `observer`; removing one twice does nothing.
    func removeObserver(_ observer: NotificationObserver) throws

    /// Removes every observer and releases the center's socket and thread.
    func close()
}

extension DarwinNotificationCenter {
    /// The deliveries of `name` as an async sequence; leaving the loop removes the observer.
    ///
    /// ```swift
    /// for await delivery in try center.notifications(named: "didSave") { ... }
    /// ```
    public func notifications(named name: String) throws -> AsyncStream<NotificationDelivery> {
        let (stream, continuation) = AsyncStream.makeStream(of: NotificationDelivery.self)
        let observer = try addObserver(name) { continuation.yield($0) }
        continuation.onTermination = { [weak self] _ in try? self?.removeObserver(observer) }
        return stream
    }
}
