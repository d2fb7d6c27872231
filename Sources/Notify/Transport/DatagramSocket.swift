#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Basics
import Synchronization

/// A Unix-domain datagram socket (`AF_UNIX`, `SOCK_DGRAM`), optionally bound to a path.
///
/// Datagrams between two sockets on one machine are reliable and ordered; a send to a path with
/// no socket behind it fails at once, which is how stale observers are found and removed.
final class DatagramSocket: Sendable {
    /// What became of one datagram.
    enum SendResult: Equatable, Sendable {
        case sent
        /// Nobody is bound at the path (`ENOENT`, `ECONNREFUSED`): the receiver is gone.
        case noReceiver
        /// The receiver's queue is full (`EAGAIN`); only for non-blocking sends.
        case full
        case failed(errno: Int32)
    }

    /// The file descriptor; valid until `close()`.
    let descriptor: Int32
    /// The path the socket is bound to, removed again by `close()`.
    let path: String?
    private let isClosed = Atomic<Bool>(false)

    /// The largest datagram a receive accepts; names and metadata stay far below it.
    static let maximumDatagram = 4096

    /// Creates a socket and binds it to `path` (replacing a stale socket file left there).
    init(bindingTo path: String?, sendTimeout: Duration? = nil) throws(NotifyError) {
        #if canImport(Glibc)
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #else
        let type = SOCK_DGRAM
        #endif
        let descriptor = socket(AF_UNIX, type, 0)
        guard descriptor >= 0 else { throw .lastError("socket(AF_UNIX, SOCK_DGRAM)") }
        self.descriptor = descriptor
        self.path = path
        if let path {
            do throws(NotifyError) {
                unlink(path)
                let result = try UnixSocketAddress.with(path) { bind(descriptor, $0, $1) }
                guard result == 0 else { throw NotifyError.lastError("bind(\(path))") }
            } catch {
                SystemCalls.closeDescriptor(descriptor)
                throw error
            }
        }
        if let sendTimeout {
            let nanoseconds = MonotonicClock.nanoseconds(sendTimeout)
            var value = timeval(
                tv_sec: Int(nanoseconds / 1_000_000_000),
                tv_usec: Int((nanoseconds % 1_000_000_000) / 1000))
            setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    deinit { close() }

    /// Sends `bytes` to the socket bound at `destination`; non-blocking unless `blocking`.
    func send(_ bytes: [UInt8], to destination: String, blocking: Bool = false) -> SendResult {
        let flags: Int32 = blocking ? 0 : Int32(MSG_DONTWAIT)
        do {
            return try UnixSocketAddress.with(destination) { address, length -> SendResult in
                while true {
                    let sent = bytes.withUnsafeBytes {
                        sendto(descriptor, $0.baseAddress, $0.count, flags, address, length)
                    }
                    if sent >= 0 { return .sent }
                    switch errno {
                    case EINTR: continue
                    case ENOENT, ECONNREFUSED, ENOTDIR: return .noReceiver
                    case EAGAIN, EWOULDBLOCK, ENOBUFS: return .full
                    case let code: return .failed(errno: code)
                    }
                }
            }
        } catch {
            return .failed(errno: ENAMETOOLONG)
        }
    }

    /// Receives one datagram without blocking; nil when none is waiting.
    func receive() -> (bytes: [UInt8], sender: String?)? {
        var buffer = [UInt8](repeating: 0, count: Self.maximumDatagram)
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in
                withUnsafeMutablePointer(to: &address) { pointer in
                    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        recvfrom(descriptor, raw.baseAddress, raw.count, Int32(MSG_DONTWAIT), $0, &length)
                    }
                }
            }
            if count >= 0 {
                return (Array(buffer.prefix(count)), UnixSocketAddress.path(of: address, length: length))
            }
            if errno == EINTR { continue }
            return nil
        }
    }

    /// Closes the descriptor and removes the bound path; later calls do nothing.
    func close() {
        guard !isClosed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if let path { unlink(path) }
        SystemCalls.closeDescriptor(descriptor)
    }
}
