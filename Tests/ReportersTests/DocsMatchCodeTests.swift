import Basics
import Foundation
import Testing

/// The lists the docs and the report schema give (roles, anomaly kinds, error kinds, trace event types)
/// are the code's: a case added or renamed in an enum fails here until the docs say it.
@Suite struct DocsMatchCodeTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private func text(_ path: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The backticked words of `text` between `start` and the next `end`.
    private func words(in text: String, after start: String, upTo end: String) throws -> [String] {
        let from = try #require(text.range(of: start), "'\(start)' is in the document")
        let to = try #require(text.range(of: end, range: from.upperBound..<text.endIndex), "'\(end)' follows it")
        return text[from.upperBound..<to.lowerBound].split(separator: "`", omittingEmptySubsequences: false)
            .enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    @Test func traceDocListsEveryRole() throws {
        let listed = try words(in: text("Docs/Trace.md"), after: "`role` is", upTo: "(`ProcessRole`)")
        #expect(Set(listed) == Set(ProcessRole.allCases.map(\.rawValue)), "\(listed)")
    }

    @Test func traceDocListsEveryErrorKind() throws {
        let listed = try words(in: text("Docs/Trace.md"), after: "`data` is an ErrorRecord: `kind`:", upTo: "`message`")
        #expect(Set(listed) == Set(ErrorKind.allCases.map(\.rawValue)), "\(listed)")
    }

    @Test func reportSchemaListsEveryAnomalyKind() throws {
        let schema = try JSONSerialization.jsonObject(with: Data(text("Docs/report.schema.json").utf8)) as? [String: Any]
        let defs = try #require(schema?["$defs"] as? [String: Any])
        let names = try #require((defs["anomalyName"] as? [String: Any])?["enum"] as? [String])
        #expect(Set(names) == Set(AnomalyKind.allCases.map(\.rawValue)))
        #expect(names.count == AnomalyKind.allCases.count, "each once")
    }

    @Test func traceDocListsEveryAnomalyKindAnExpectationNames() throws {
        let listed = try words(in: text("Docs/Trace.md"), after: "an array of anomaly names:", upTo: "- `staleToleranceNanos`")
        #expect(listed == AnomalyKind.allCases.map(\.rawValue), "in the code's order: \(listed)")
    }

    /// Reports.md's table says how each kind is found: every kind has a row (one row may name several).
    @Test func reportsDocSaysHowEveryAnomalyKindIsFound() throws {
        let rows = try text("Docs/Reports.md").split(separator: "\n").filter { $0.hasPrefix("| `") }
        let named = Set(rows.flatMap { row in
            (row.dropFirst(2).split(separator: "|").first ?? "").split(separator: "`", omittingEmptySubsequences: false)
                .enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        })
        let missing = Set(AnomalyKind.allCases.map(\.rawValue)).subtracting(named)
        #expect(missing.isEmpty, "kinds without a row in Reports.md: \(missing.sorted())")
    }

    @Test func traceDocDescribesEveryEventTypeTheDecoderReads() throws {
        // The decoder's `case "type":` lines are the types a trace may hold.
        let decoder = try text("Sources/Trace/TraceEventKind+Coding.swift")
        let decoded = Set(decoder.split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("case \""), let end = trimmed.dropFirst(6).firstIndex(of: "\"") else { return nil }
            return String(trimmed[trimmed.index(trimmed.startIndex, offsetBy: 6)..<end])
        })
        let doc = try text("Docs/Trace.md")
        let described = Set(doc.components(separatedBy: "**`").dropFirst().compactMap { $0.components(separatedBy: "`**").first })
            .union(doc.contains("### `runStarted`") ? ["runStarted"] : [])
        #expect(decoded.count >= 28)
        #expect(decoded.subtracting(described).isEmpty, "undocumented: \(decoded.subtracting(described).sorted())")
        #expect(doc.contains("one of the \(decoded.count) types below"))
    }
}
