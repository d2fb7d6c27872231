import Basics
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Appends events to a JSON-lines file, one `write(2)` per event, so that a process killed with
/// SIGKILL loses nothing it had already recorded; or, for the process that collects the run's trace
/// (the runner and its hub), keeps them in memory, where nothing has to be encoded and read back.
///
/// Not thread-safe: each process records from one thread (the agent's main loop), or guards it.
public final class TraceRecorder {
    private let fd: Int32
    /// Sorted keys: a line ends with its `type` (which `TraceFastDecoding` looks for).
    private let encoder = WireEncoder(sortsKeys: true)
    /// The events recorded, when they are kept in memory.
    public private(set) var events: [TraceEvent] = []
    /// The process name stamped on every event.
    public let process: String

    /// When events are stamped that give no time of their own.
    private let clock: () -> UInt64

    /// Opens (creating or appending to) the file at `path`; events are stamped by `clock` (the
    /// machine's monotonic clock, unless a deterministic run's virtual one).
    public init(path: String, process: String, clock: @escaping () -> UInt64 = { MonotonicClock.now() }) throws {
        self.clock = clock
        fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw TraceFileError(file: path, line: 0, message: "cannot open for writing (errno \(errno))")
        }
        self.process = process
    }

    /// Keeps the events in memory (`events`), stamped by `clock`.
    public init(process: String, clock: @escaping () -> UInt64 = { MonotonicClock.now() }) {
        self.clock = clock
        fd = -1
        self.process = process
    }

    deinit { if fd >= 0 { close(fd) } }

    /// Records an event now (CLOCK_MONOTONIC) or at `t`, on behalf of `subject` (the runner
    /// records a process's lifecycle and steps under that process's name) or of its own process.
    /// `start` is when an operation with a duration was invoked (see `TraceEvent.start`).
    /// How many events it keeps in memory: where the next one goes (`insert(_:step:at:start:as:position:)`).
    public var count: Int { events.count }

    /// Puts an event it kept in memory at `position` among those recorded before it, as if recorded then:
    /// what was judged later of a moment already past (a copy's contents, read back once the run is over)
    /// keeps its place among the events of that moment.
    public func insert(_ kind: TraceEventKind, step: Int?, at t: UInt64, start: UInt64?, as subject: String?, position: Int) {
        precondition(fd < 0, "only a recorder that keeps its events in memory inserts")
        let event = TraceEvent(t: t, start: start, process: subject ?? process, step: step, kind: kind)
        events.insert(event, at: Swift.min(Swift.max(position, 0), events.count))
    }

    public func record(_ kind: TraceEventKind, step: Int? = nil, at t: UInt64? = nil, start: UInt64? = nil, as subject: String? = nil) {
        let event = TraceEvent(t: t ?? clock(), start: start, process: subject ?? process, step: step, kind: kind)
        guard fd >= 0 else {
            events.append(event)
            return
        }
        var data: [UInt8] = []
        guard (try? event.appendLine(to: &data, encoder: encoder)) != nil else { return }
        data.append(0x0A)
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n <= 0 { if errno == EINTR { continue } else { return } }
                offset += n
            }
        }
    }
}
