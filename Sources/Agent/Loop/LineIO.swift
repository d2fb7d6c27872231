import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads newline-delimited messages from a file descriptor without blocking the event loop:
/// the loop polls the descriptor, calls `fill()` when it is readable, and takes the complete lines
/// with `nextLine()`; lines it does not take stay for the next reader of the stream.
final class LineReader {
    let fd: Int32
    private var buffer: [UInt8] = []
    private var lines: [String] = []
    private(set) var isClosed = false

    init(fd: Int32) {
        self.fd = fd
    }

    /// Reads what is available (one `read(2)`), keeping its complete lines.
    func fill() {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n == 0 { isClosed = true }
        if n > 0 { buffer.append(contentsOf: chunk[0..<n]) }
        while let newline = buffer.firstIndex(of: 0x0A) {
            lines.append(String(decoding: buffer[..<newline], as: UTF8.self))
            buffer.removeSubrange(...newline)
        }
    }

    /// The oldest complete line not taken yet.
    func nextLine() -> String? {
        lines.isEmpty ? nil : lines.removeFirst()
    }

    /// Blocks until a complete line is there (nil at the end of the stream).
    func readLine() -> String? {
        while lines.isEmpty && !isClosed {
            _ = waitReadable([fd], timeoutNanos: nil)
            fill()
        }
        return nextLine()
    }
}

/// Writes one line at a time to a file descriptor, whole, retrying on EINTR.
struct LineWriter {
    let fd: Int32

    func write(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                #if canImport(Glibc)
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                #else
                let n = Darwin.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                #endif
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                offset += n
            }
        }
    }
}

/// Waits until one of `fds` is readable or `timeoutNanos` passes; returns the readable ones.
func waitReadable(_ fds: [Int32], timeoutNanos: UInt64?) -> [Int32] {
    var pollfds = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    let timeout: Int32 = timeoutNanos.map { Int32(min($0 / 1_000_000 + ($0 % 1_000_000 > 0 ? 1 : 0), 60_000)) } ?? -1
    let n = poll(&pollfds, nfds_t(pollfds.count), timeout)
    guard n > 0 else { return [] }
    return pollfds.filter { $0.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 }.map(\.fd)
}
