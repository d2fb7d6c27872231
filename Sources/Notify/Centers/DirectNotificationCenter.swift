#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Basics
import Foundation
import Synchronization

/// Numbers the centers a process opens, so two centers in one process never share a socket.
private let centerInstances = Atomic<UInt64>(0)

/// A peer-to-peer Darwin notification center: processes that share `directory` notify each other
/// directly, with no hub in between.
///
/// Each center binds one datagram socket, `<directory>/sockets/<pid>-<n>.sock`. Observing a name
/// adds a symlink to that socket under `<directory>/names/<name-key>/`; posting sends one datagram
/// to every link there, so only observers registered at the time of the post receive it. Links
/// whose socket is gone (the process exited or crashed) are removed by the first post that meets
/// them. The kernel queues datagrams for a SIGSTOPped process, so this center cannot drop or
/// coalesce for a suspended observer: the runner uses `NotifyHub` for that.
public final class DirectNotificationCenter: DarwinNotificationCenter {
    /// What one `post` reached.
    public struct PostReport: Sendable, Equatable {
        /// Observers the datagram was handed to.
        public var delivered = 0
        /// Registrations left by processes that are gone, removed now.
        public var removedStale = 0
        /// Observers whose queue stayed full for `fullQueueRetry` (a stopped or stuck process).
        public var droppedFull = 0

        /// Creates a report.
        public init(delivered: Int = 0, removedStale: Int = 0, droppedFull: Int = 0) {
            self.delivered = delivered
            self.removedStale = removedStale
            self.droppedFull = droppedFull
        }
    }

    /// The shared notify directory.
    public let directory: String
    /// How long a post keeps retrying an observer whose receive queue is full.
    public let fullQueueRetry: Duration
    private let socket: DatagramSocket
    private let loop: ReceiveLoop
    private let observers = ObserverTable()
    private let entryName: String
    private let processIdentifier: String

    /// Opens a center in `directory` (created if needed) and starts its receiving thread.
    ///
    /// - Throws: `NotifyError.pathTooLong` when `directory` is too long for socket paths.
    public init(directory: String, fullQueueRetry: Duration = .milliseconds(10)) throws {
        let instance = centerInstances.add(1, ordering: .relaxed).newValue
        self.directory = directory
        self.fullQueueRetry = fullQueueRetry
        self.processIdentifier = String(getpid())
        self.entryName = "\(getpid())-\(instance)"
        // The longest path a post sends to: a registration link for a name key.
        try UnixSocketAddress.validate(
            "\(directory)/names/\(SocketPaths.key(for: String(repeating: "x", count: 32)))/\(entryName)")
        try Self.makeDirectories("\(directory)/sockets")
        try Self.makeDirectories("\(directory)/names")
        let socket = try DatagramSocket(bindingTo: "\(directory)/sockets/\(entryName).sock")
        let observers = observers
        let processIdentifier = processIdentifier
        self.socket = socket
        self.loop = try ReceiveLoop(socket: socket) {
            while let (bytes, _) = socket.receive() {
                let receivedAt = MonotonicClock.now()
                guard case let .deliver(name, poster, postedAt) = WireMessage(decoding: bytes) else { continue }
                observers.dispatch(NotificationDelivery(
                name: name, postedAt: postedAt, receivedAt: receivedAt,
                    poster: poster, isOwnPost: poster == processIdentifier))
            }
        }
        loop.start(name: "notify.direct")
    }

    deinit { close() }

    public func post(_ name: String) throws {
        _ = try postReporting(name)
    }

    /// Posts `name` and reports how many observers it reached.
    @discardableResult
    public func postReporting(_ name: String) throws -> PostReport {
        let postedAt = MonotonicClock.now()
        try WireMessage.validate(name)
        let folder = nameFolder(name)
        let entries = SystemCalls.listDirectory(folder)
        let message = WireMessage.deliver(name: name, poster: processIdentifier, postedAt: postedAt).encoded
        var report = PostReport()
        for entry in entries.sorted() {
            let path = "\(folder)/\(entry)"
            switch sendRetryingWhileFull(message, to: path) {
            case .sent: report.delivered += 1
            case .noReceiver:
                unlink(path)
                report.removedStale += 1
            case .full: report.droppedFull += 1
            case .failed: unlink(path); report.removedStale += 1
            }
        }
        return report
    }

    public func addObserver(
        _ name: String, handler: @escaping @Sendable (NotificationDelivery) -> Void
    ) throws -> NotificationObserver {
        try WireMessage.validate(name)
        let (observer, isFirst) = observers.add(name, handler: handler)
        if isFirst {
            do {
                try register(name)
            } catch {
                _ = observers.remove(observer)
                throw error
            }
        }
        return observer
    }

    public func removeObserver(_ observer: NotificationObserver) throws {
        guard let (name, wasLast) = observers.remove(observer), wasLast else { return }
        unlink("\(nameFolder(name))/\(entryName)")
    }

    public func close() {
        for name in observers.removeAll() {
            unlink("\(nameFolder(name))/\(entryName)")
        }
        loop.stop()
        socket.close()
    }

    private func nameFolder(_ name: String) -> String {
        "\(directory)/names/\(SocketPaths.key(for: name))"
    }

    private func register(_ name: String) throws {
        let folder = nameFolder(name)
        try Self.makeDirectories(folder)
        let link = "\(folder)/\(entryName)"
        unlink(link)
        guard let target = socket.path, symlink(target, link) == 0 else {
            throw NotifyError.lastError("symlink(\(link))")
        }
    }

    private func sendRetryingWhileFull(_ message: [UInt8], to path: String) -> DatagramSocket.SendResult {
        let deadline = MonotonicClock.now() + MonotonicClock.nanoseconds(fullQueueRetry)
        var pause: UInt32 = 50
        while true {
            let result = socket.send(message, to: path)
            guard result == .full, MonotonicClock.now() < deadline else { return result }
            usleep(pause)
            pause = min(pause * 2, 1000)
        }
    }
}

extension DirectNotificationCenter {
    /// Creates `path` and its parents, or throws naming the directory that could not be made.
    static func makeDirectories(_ path: String) throws(NotifyError) {
        if let failure = SystemCalls.makeDirectories(path) {
            throw .systemCall(operation: "mkdir(\(failure.path))", errno: failure.errno)
        }
    }
}
