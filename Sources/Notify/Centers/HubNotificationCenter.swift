#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Basics
import Synchronization

/// Numbers the hub clients a process opens, so each gets its own socket.
private let clientInstances = Atomic<UInt64>(0)

/// An agent's notification center when the runner's `NotifyHub` decides delivery.
///
/// Posts and registrations go to the hub as datagrams; deliveries come back on this center's own
/// socket, `<socketDirectory>/c-<pid>-<n>.sock`. The center names its process (the scenario's
/// process name), which is how the hub applies that process's lifecycle, policy and faults.
/// ```swift
/// let center = try HubNotificationCenter(hubSocketPath: hubPath, process: "app")
/// _ = try center.addObserver("didSave") { delivery in
///     if !delivery.isOwnPost { refresh() }
/// }
/// ```
/// `addObserver` returns once the hub's socket holds the registration, so a post anyone makes
/// afterwards reaches it.
public final class HubNotificationCenter: DarwinNotificationCenter {
    /// The scenario process this center speaks for.
    public let process: String
    /// The hub's socket.
    public let hubSocketPath: String
    private let socket: DatagramSocket
    private let loop: ReceiveLoop
    private let observers = ObserverTable()

    /// Opens a center that speaks for `process` through the hub at `hubSocketPath`.
    ///
    /// - Parameters:
    ///   - socketDirectory: where to bind this center's socket; defaults to the hub's directory.
    ///   - sendTimeout: how long a post or registration may wait for room in the hub's queue.
    public init(
        hubSocketPath: String, process: String, socketDirectory: String? = nil,
        sendTimeout: Duration = .seconds(2)
    ) throws {
        try WireMessage.validate(process)
        let instance = clientInstances.add(1, ordering: .relaxed).newValue
        let directory = socketDirectory ?? Self.directory(of: hubSocketPath)
        self.process = process
        self.hubSocketPath = hubSocketPath
        let socket = try DatagramSocket(bindingTo: "\(directory)/c-\(getpid())-\(instance).sock", sendTimeout: sendTimeout)
        let observers = observers
        self.socket = socket
        self.loop = try ReceiveLoop(socket: socket) {
            while let (bytes, _) = socket.receive() {
                let receivedAt = MonotonicClock.now()
                guard case let .deliver(name, poster, postedAt) = WireMessage(decoding: bytes) else { continue }
                observers.dispatch(NotificationDelivery(
                name: name, postedAt: postedAt, receivedAt: receivedAt,
                    poster: poster, isOwnPost: poster == process))
            }
        }
        loop.start(name: "notify.client")
    }

    deinit { close() }

    public func post(_ name: String) throws {
        try WireMessage.validate(name)
        try send(.post(process: process, name: name, postedAt: MonotonicClock.now()))
    }

    public func addObserver(
        _ name: String, handler: @escaping @Sendable (NotificationDelivery) -> Void
    ) throws -> NotificationObserver {
        try WireMessage.validate(name)
        let (observer, isFirst) = observers.add(name, handler: handler)
        if isFirst {
            do {
                try send(.observe(process: process, name: name))
            } catch {
                _ = observers.remove(observer)
                throw error
            }
        }
        return observer
    }

    public func removeObserver(_ observer: NotificationObserver) throws {
        guard let (name, wasLast) = observers.remove(observer), wasLast else { return }
        try send(.unobserve(process: process, name: name))
    }

    public func close() {
        for name in observers.removeAll() {
            try? send(.unobserve(process: process, name: name))
        }
        loop.stop()
        socket.close()
    }

    private func send(_ message: WireMessage) throws {
        switch socket.send(message.encoded, to: hubSocketPath, blocking: true) {
        case .sent: return
        case .noReceiver: throw NotifyError.systemCall(operation: "send to the hub at \(hubSocketPath)", errno: ECONNREFUSED)
        case .full: throw NotifyError.systemCall(operation: "send to the hub at \(hubSocketPath)", errno: EAGAIN)
        case let .failed(code): throw NotifyError.systemCall(operation: "send to the hub at \(hubSocketPath)", errno: code)
        }
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
