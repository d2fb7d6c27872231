#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Basics
import Foundation
import Synchronization

/// A dedicated thread that waits on one datagram socket and tells its owner when to read.
///
/// The thread sleeps in `poll` until a datagram arrives, `wake()` is called, or the timeout
/// returned by `timeout` (milliseconds, -1 for none) passes. When the socket is readable it calls
/// `onReadable`, which drains the socket itself (the hub drains under its lock, so datagrams and
/// the runner's calls are applied in one order); after every wake-up it calls `onWake`, which the
/// hub uses to release delayed deliveries and retry full queues.
final class ReceiveLoop: Sendable {
    private let socket: DatagramSocket
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let loopThread = Mutex<pthread_t?>(nil)
    private let timeout: @Sendable () -> Int32
    private let onReadable: @Sendable () -> Void
    private let onWake: @Sendable () -> Void

    init(
        socket: DatagramSocket,
        timeout: @escaping @Sendable () -> Int32 = { -1 },
        onReadable: @escaping @Sendable () -> Void,
        onWake: @escaping @Sendable () -> Void = {}
    ) throws(NotifyError) {
        // A socket pair rather than a pipe: close-on-exec is set atomically at creation, so a
        // child spawned by another thread at this moment cannot inherit it.
        var descriptors: [Int32] = [0, 0]
        #if canImport(Glibc)
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        guard socketpair(AF_UNIX, type, 0, &descriptors) == 0 else { throw .lastError("socketpair") }
        #else
        guard socketpair(AF_UNIX, SOCK_STREAM, 0, &descriptors) == 0 else { throw .lastError("socketpair") }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        #endif
        self.socket = socket
        self.wakeRead = descriptors[0]
        self.wakeWrite = descriptors[1]
        self.timeout = timeout
        self.onReadable = onReadable
        self.onWake = onWake
    }

    deinit {
        SystemCalls.closeDescriptor(wakeRead)
        SystemCalls.closeDescriptor(wakeWrite)
    }

    /// Starts the thread, named `name` for debuggers.
    func start(name: String) {
        let thread = Thread { [self] in
            loopThread.withLock { $0 = pthread_self() }
            run()
            finished.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Makes the thread leave `poll` at once (to recompute its timeout, or to stop).
    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Stops the thread and waits for it to finish, unless called from the thread itself.
    func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wake()
        let onLoopThread = loopThread.withLock { thread in thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
        if !onLoopThread { finished.wait() }
    }

    private func run() {
        var descriptors = [
            pollfd(fd: socket.descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
        ]
        while !stopping.load(ordering: .acquiring) {
            descriptors[0].revents = 0
            descriptors[1].revents = 0
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout())
            if ready < 0 && errno != EINTR { break }
            if descriptors[1].revents != 0 {
                var scratch = [UInt8](repeating: 0, count: 64)
                while read(wakeRead, &scratch, scratch.count) > 0 {}
            }
            if stopping.load(ordering: .acquiring) { break }
            if descriptors[0].revents != 0 {
                onReadable()
            }
            onWake()
        }
    }
}
