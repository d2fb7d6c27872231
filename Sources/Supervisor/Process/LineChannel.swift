#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Basics
import Synchronization

/// Newline-delimited messages (JSON lines) over one connected stream socket: the runner's end of
/// a child's stdin and stdout.
///
/// Reads wait at most a timeout and fail with an error naming the process and what was awaited;
/// writes never raise SIGPIPE (a dead child is an error, not the runner's death).
/// ```swift
/// try channel.writeLine(#"{"step":3,"action":"save"}"#)
/// let ack = try channel.readLine(timeout: .seconds(5), awaiting: "acknowledge step 3")
/// ```
public final class LineChannel: Sendable {
    private struct ReadState: ~Copyable {
        var buffer: [UInt8] = []
        var atEnd = false
    }

    /// The process at the other end, for errors.
    public let process: String
    /// The connected socket (SOCK_STREAM, close-on-exec).
    public let descriptor: Int32
    private let reading = Mutex(ReadState())
    private let writing = Mutex(())
    private let isClosed = Atomic<Bool>(false)

    /// Wraps `descriptor`, which the channel owns and closes.
    public init(descriptor: Int32, process: String) {
        self.descriptor = descriptor
        self.process = process
    }

    deinit { close() }

    /// Reads the next line (without its newline), waiting at most `timeout`.
    ///
    /// - Throws: `SupervisorError.timedOut` or `.endOfOutput`, naming `awaiting`.
    public func readLine(timeout: Duration, awaiting: String) throws(SupervisorError) -> String {
        let deadline = ContinuousClock.now + timeout
        let line = try nextLine(awaiting: awaiting) {
            let remaining = deadline - ContinuousClock.now
            return remaining > .zero ? Self.milliseconds(remaining) : nil
        }
        guard let line else { throw .timedOut(process: process, awaiting: awaiting, after: timeout) }
        return line
    }

    /// The next line if one is in already (buffered, or readable without waiting), nil otherwise.
    ///
    /// - Throws: `SupervisorError.endOfOutput`, naming `awaiting`, once the child has closed its end.
    public func readLineIfReady(awaiting: String) throws(SupervisorError) -> String? {
        try nextLine(awaiting: awaiting) { 0 }
    }

    /// The next buffered line, reading the socket for more while `wait` gives how long a poll may wait
    /// (in milliseconds; 0 looks once without waiting); nil once it gives none, or a look found nothing.
    private func nextLine(awaiting: String, wait: () -> Int32?) throws(SupervisorError) -> String? {
        try reading.withLock { state throws(SupervisorError) -> String? in
            while true {
                if let newline = state.buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: state.buffer[..<newline], as: UTF8.self)
                    state.buffer.removeSubrange(...newline)
                    return line
                }
                if state.atEnd { throw .endOfOutput(process: process, awaiting: awaiting) }
                guard let milliseconds = wait() else { return nil }
                var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
                let ready = poll(&descriptors, 1, milliseconds)
                if ready < 0 && errno != EINTR {
                    throw .systemCall(process: process, operation: "poll", errno: errno)
                }
                guard ready > 0 else {
                    if milliseconds == 0 { return nil }
                    continue
                }
                var chunk = [UInt8](repeating: 0, count: 16 * 1024)
                let count = read(descriptor, &chunk, chunk.count)
                if count > 0 {
                    state.buffer += chunk[..<count]
                } else if count == 0 || errno == ECONNRESET {
                    state.atEnd = true
                } else if errno != EINTR && errno != EAGAIN {
                    throw .systemCall(process: process, operation: "read", errno: errno)
                }
            }
        }
    }

    /// Writes `line` and a newline, waiting at most `timeout` for room (a stopped child reads nothing).
    public func writeLine(_ line: String, timeout: Duration = .seconds(5)) throws(SupervisorError) {
        let bytes = Array((line + "\n").utf8)
        let deadline = ContinuousClock.now + timeout
        try writing.withLock { _ throws(SupervisorError) in
            var offset = 0
            while offset < bytes.count {
                let sent = bytes[offset...].withUnsafeBytes {
                    send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                }
                if sent >= 0 {
                    offset += sent
                    continue
                }
                switch errno {
                case EINTR:
                    continue
                case EAGAIN, EWOULDBLOCK:
                    let remaining = deadline - ContinuousClock.now
                    guard remaining > .zero else {
                        throw .timedOut(process: process, awaiting: "read its input", after: timeout)
                    }
                    var descriptors = [pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)]
                    _ = poll(&descriptors, 1, Self.milliseconds(remaining))
                case let code:
                    throw .writeFailed(process: process, errno: code)
                }
            }
        }
    }

    /// Signals end of input to the child (it reads end-of-file); reading stays possible.
    public func closeWriting() {
        _ = shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Closes the socket; later calls do nothing.
    public func close() {
        guard !isClosed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        SystemCalls.closeDescriptor(descriptor)
    }

    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let total = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: max(0, total))
    }
}
