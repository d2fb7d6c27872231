import Basics
import Foundation

/// A whole run's events in time order, with the run's header.
public struct RunTrace: Sendable {
    public var info: RunInfo
    /// Every event, ordered by `t` (ties keep the order they were recorded in).
    public var events: [TraceEvent]

    public init(info: RunInfo, events: [TraceEvent]) {
        self.info = info
        self.events = events
    }

    /// Merges per-process event streams into one, ordered by time; each stream must already be in order.
    public static func merge(_ streams: [[TraceEvent]]) -> [TraceEvent] {
        var all = streams.flatMap { $0 }
        // A stable sort keeps same-instant events in recording order within a stream.
        let indexed = all.enumerated().sorted { a, b in
            a.element.t != b.element.t ? a.element.t < b.element.t : a.offset < b.offset
        }
        all = indexed.map(\.element)
        return all
    }
}

/// Reads and writes `trace.jsonl`: one event per line.
public enum TraceFile {
    /// Writes the header (as a `runStarted` event at the time of the first event) and then every event.
    public static func write(_ trace: RunTrace, to url: URL) throws {
        try encode(trace).write(to: url, options: .atomic)
    }

    /// The file's bytes: the header, then one event per line.
    public static func encode(_ trace: RunTrace) throws -> Data {
        Data(try bytes(of: trace))
    }

    /// The file's bytes, as `encode` gives them.
    static func bytes(of trace: RunTrace) throws -> [UInt8] {
        let encoder = WireEncoder(sortsKeys: true)
        var bytes: [UInt8] = []
        let header = TraceEvent(t: trace.events.first?.t ?? 0, process: "runner", kind: .runStarted(trace.info))
        for event in [header] + trace.events {
            try event.appendLine(to: &bytes, encoder: encoder)
            bytes.append(0x0A)
        }
        return bytes
    }

    /// A fingerprint of the file's bytes (FNV-1a, 64 bits, in hex): two runs that wrote the same trace have
    /// the same one. How a replay shows that the deterministic mode gave the same run again.
    public static func fingerprint(_ trace: RunTrace) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in (try? bytes(of: trace)) ?? [] {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return String(hash, radix: 16)
    }

    /// Decodes the events of a JSON-lines file; a line that fails names its line number.
    public static func readEvents(from url: URL) throws -> [TraceEvent] {
        try decodeLines(Data(contentsOf: url), name: url.path)
    }

    /// Decodes JSON-lines text; blank lines are skipped, and a torn last line (a killed writer) is ignored.
    public static func decodeLines(_ text: String, name: String) throws -> [TraceEvent] {
        try decodeLines(Data(text.utf8), name: name)
    }

    /// Decodes JSON-lines bytes, split at each newline byte (a newline inside a JSON string is always
    /// escaped); blank lines are skipped, and a torn last line (a killed writer) is ignored.
    public static func decodeLines(_ data: Data, name: String) throws -> [TraceEvent] {
        let decoder = WireDecoder()
        var events: [TraceEvent] = []
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            let bytes = buffer.bindMemory(to: UInt8.self)
            var start = 0
            var number = 0
            while start < bytes.count {
                let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
                number += 1
                defer { start = end + 1 }
                let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
                guard !line.isEmpty else { continue }
                if let event = TraceFastDecoding.event(line) {
                    events.append(event)
                    continue
                }
                do {
                    events.append(try decoder.decode(TraceEvent.self, from: line))
                } catch {
                    // The last line, with no newline after it: torn by a writer killed mid-write.
                    if end == bytes.count { break }
                    throw TraceFileError(file: name, line: number, message: "\(error)")
                }
            }
        }
        return events
    }

    /// Reads a whole trace: the `runStarted` header and the events after it.
    public static func read(from url: URL) throws -> RunTrace {
        var events = try readEvents(from: url)
        guard let first = events.first, case .runStarted(let info) = first.kind else {
            throw TraceFileError(file: url.path, line: 1, message: "the first event is not runStarted")
        }
        events.removeFirst()
        return RunTrace(info: info, events: events)
    }
}

/// A trace file that could not be read.
public struct TraceFileError: Error, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var message: String

    public var description: String { "\(file):\(line): cannot read trace event: \(message)" }
}
