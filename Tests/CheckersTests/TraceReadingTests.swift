import Basics
import Foundation
import Testing
@testable import Trace

/// The trace file reads back what was written, whichever reader takes a line: the fast one for commits
/// and contents, or `JSONDecoder` for the rest and for anything the fast one does not read exactly.
@Suite struct TraceReadingTests {
    /// Values that are easy to get wrong: escapes, non-ASCII text, whole doubles (written as integers),
    /// integers at the edges, an empty string.
    static let awkward: [TraceValue] = [
        .string("plain"), .string(""), .string("quote \" backslash \\ slash / tab \t newline \n"), .string("é e\u{301} 🙂 \u{1}"),
        .string("1.5"), .string("null"), .int(0), .int(-1), .int(.max), .int(.min), .double(2.5), .double(1767225600.25),
        .double(1e-7), .double(1e20), .double(-0.5), .bool(true), .bool(false), .null,
    ]

    static func events(_ random: inout SeededRandom) -> [TraceEvent] {
        func value() -> TraceValue { awkward[Int(random.next(below: UInt64(awkward.count)))] }
        func values() -> TraceValues {
            var result: TraceValues = [:]
            let suffixes = ["", "é", "\"", "\n"]
            for index in 0..<Int(random.next(below: 4)) {
                let key: String = "p" + String(index) + suffixes[index]
                result[key] = value()
            }
            return result
        }
        let operations: [ChangeOperation] = [.insert, .update, .delete]
        var objects: [CommittedObject] = []
        for index in 0..<Int(random.next(below: 6)) {
            let base: Int64? = index % 2 == 0 ? nil : Int64(index - 1)
            let pk: Int64? = index % 3 == 0 ? nil : Int64(index)
            objects.append(CommittedObject(id: "n\(index)", entity: "Note", operation: operations[index % 3], version: Int64(index),
                                           baseVersion: base, values: values(), changed: index % 2 == 0 ? [] : ["title"], pk: pk))
        }
        var states: [ObjectState] = []
        for index in 0..<Int(random.next(below: 4)) {
            let version: Int64? = index % 2 == 0 ? nil : 3
            let pk: Int64? = index == 1 ? 9 : nil
            states.append(ObjectState(id: "n\(index)", entity: "Note", version: version, values: values(), pk: pk))
        }
        let t = 1_000_000_000 + random.next(below: 1_000_000)
        return [
            TraceEvent(t: t, start: t - 5, process: "app", step: 3, kind: .saveCommitted(SaveCommit(
                store: "group:g", source: .save, token: random.next(below: 2) == 0 ? nil : 42, objects: objects,
                conflictResolved: random.next(below: 2) == 0, conflicted: random.next(below: 2) == 0 ? nil : ["n1"]))),
            TraceEvent(t: t + 1, process: "runner", kind: .finalStore(StateSnapshot(store: "group:g", objects: states))),
            TraceEvent(t: t + 2, process: "app", step: nil, kind: .finalView(StateSnapshot(store: "group:g", objects: states, absent: ["n9"]))),
            TraceEvent(t: t + 3, process: "app", step: 4, kind: .note("a note")),
        ]
    }

    @Test func everyLineReadsBackAsWrittenWhicheverReaderTakesIt() throws {
        var random = SeededRandom(seed: 11)
        let info = RunInfo(scenario: "s", variant: "v", file: "s.yaml", summary: "", seed: 1, expected: .pass,
                           staleToleranceNanos: 0, processes: [], steps: [])
        for _ in 0..<200 {
            let events = Self.events(&random)
            let data = try TraceFile.encode(RunTrace(info: info, events: events))
            let read = try TraceFile.decodeLines(data, name: "t")
            #expect(read.dropFirst().elementsEqual(events), "\(String(decoding: data, as: UTF8.self))")
            // The fast reader took the heavy lines, and agrees with JSONDecoder on each.
            for line in data.split(separator: 0x0A).dropFirst() {
                let decoded = try JSONDecoder().decode(TraceEvent.self, from: Data(line))
                let fast = Array(line).withUnsafeBufferPointer { TraceFastDecoding.event($0) }
                if case .note = decoded.kind { #expect(fast == nil) } else { #expect(fast == decoded) }
            }
        }
    }

    /// The fast writer gives the heavy kinds exactly the bytes `WireEncoder` gives them (so a fingerprint, a
    /// golden file or a diff of two traces cannot tell which wrote a line), and leaves the rest to it.
    @Test func theFastWriterWritesTheBytesTheCodableWriterWrites() throws {
        var random = SeededRandom(seed: 12)
        let encoder = WireEncoder(sortsKeys: true)
        let nonFinite = TraceEvent(t: 5, process: "app", kind: .finalStore(StateSnapshot(
            store: "own:app", objects: [ObjectState(id: "n", entity: "Note", values: ["b": .double(.nan), "B": .double(-.infinity),
                                                                                       "á": .double(.infinity), "a": .string("x")])],
            fetchedAll: ["Note"])))
        for _ in 0..<300 {
            for event in Self.events(&random) + [nonFinite] {
                var fast: [UInt8] = []
                let taken = TraceFastEncoding.append(event, to: &fast)
                if case .note = event.kind {
                    #expect(!taken && fast.isEmpty)
                    continue
                }
                #expect(taken)
                #expect(fast == (try encoder.encode(event)), "\(String(decoding: fast, as: UTF8.self))")
            }
        }
    }

    @Test func aLineTheFastReaderDoesNotReadExactlyIsLeftToJSONDecoder() throws {
        let lines = [
            #"{"data":{"store":"s","objects":[],"absent":[]},"process":"p","t":01,"type":"finalStore"}"#,
            #"{"data":{"store":"s","objects":[{"id":"a","entity":"E","values":{"x":[1]}}],"absent":[]},"process":"p","t":1,"type":"finalStore"}"#,
            #"{"data":{"store":"s","objects":[],"absent":[]},"process":"p","t":1,"type":"finalStore"} trailing"#,
            #"{"data":{"store":"s\ud800","objects":[],"absent":[]},"process":"p","t":1,"type":"finalStore"}"#,
        ]
        for line in lines {
            #expect(Array(line.utf8).withUnsafeBufferPointer { TraceFastDecoding.event($0) } == nil, "\(line)")
        }
        let whole = #"{"data":{"store":"s","objects":[{"id":"a","entity":"E","values":{"x":1.0,"y":"\u00e9\n"}}],"absent":[]},"process":"p","t":7,"type":"finalStore"}"#
        let fast = try #require(Array(whole.utf8).withUnsafeBufferPointer { TraceFastDecoding.event($0) })
        #expect(fast == (try JSONDecoder().decode(TraceEvent.self, from: Data(whole.utf8))))
        #expect(fast.kind == .finalStore(StateSnapshot(store: "s", objects: [ObjectState(id: "a", entity: "E", values: ["x": .int(1), "y": .string("é\n")])])))
    }

    @Test func aTornLastLineIsIgnoredAndABrokenLineInsideIsNamed() throws {
        let good = #"{"data":"n","process":"p","t":1,"type":"note"}"#
        #expect(try TraceFile.decodeLines(Data((good + "\n" + #"{"data":"#).utf8), name: "t").count == 1)
        #expect(throws: TraceFileError.self) { try TraceFile.decodeLines(Data((#"{"data":"# + "\n" + good + "\n").utf8), name: "t") }
    }
}
