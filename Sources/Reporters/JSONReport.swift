import Basics
import Checkers
import Foundation
import Trace

/// `report.json`: one run in a stable, versioned schema (`schemaVersion: 2`), documented in
/// `Docs/Reports.md` and `Docs/report.schema.json`. Times are nanoseconds relative to the run's first
/// event; keys are sorted so the same run always writes the same bytes.
public enum JSONReport {
    /// The schema version this code writes. Additive changes keep it; anything else bumps it.
    public static let schemaVersion = 2

    public static func render(_ run: ReportedRun, options: ReportOptions = ReportOptions()) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(Document(run, options: options))
        data.append(0x0A)
        return data
    }

    /// The document, as a value (for tests and for tools that embed it).
    public static func document(_ run: ReportedRun, options: ReportOptions = ReportOptions()) -> Document {
        Document(run, options: options)
    }

    public struct Document: Codable, Sendable, Equatable {
        public var schemaVersion: Int
        public var generatedAt: String?
        public var run: Run
        public var verdict: VerdictDoc
        public var processes: [ProcessDoc]
        public var steps: [StepDoc]
        public var anomalies: [AnomalyDoc]
        public var latency: LatencyDoc
        public var refresh: [RefreshDoc]
        public var unexpectedErrors: [ErrorDoc]
        /// Each store's growth over the run (history, file and `-wal` sizes); absent in traces that
        /// predate it.
        public var stores: [StoreGrowth]?
        /// What the harness noted (a reload the budget refused, where an intent ran, a restore); absent
        /// when nothing was.
        public var notes: [NoteDoc]?

        /// The counts of an expectation with counts, by kind; nil for the other forms.
        static func counts(_ expected: Expectation) -> [String: String]? {
            guard case .counts(let counts) = expected else { return nil }
            return Dictionary(counts.map { ($0.key, $0.bound) }, uniquingKeysWith: { a, _ in a })
        }

        init(_ reported: ReportedRun, options: ReportOptions) {
            let result = reported.result, info = result.info
            schemaVersion = JSONReport.schemaVersion
            generatedAt = options.generatedAt
            run = Run(
                scenario: info.scenario, variant: info.variant, label: reported.label, file: info.file,
                summary: info.summary, seed: info.seed, mode: info.mode.rawValue, replay: options.replayCommand(info),
                expected: info.expected.names, expectedCounts: Self.counts(info.expected), staleToleranceNs: info.staleToleranceNanos,
                latencyBudget: info.latencyBudget.map { BudgetDoc(p50Ns: $0.p50, p90Ns: $0.p90, p99Ns: $0.p99, maxNs: $0.max) },
                growthLimits: info.growthLimits, durationNs: result.end - result.origin, events: result.eventCount)
            stores = result.growth.isEmpty ? nil : result.growth
            notes = reported.notes.isEmpty ? nil : reported.notes.map { NoteDoc(step: $0.step, process: $0.process, text: $0.text) }
            verdict = VerdictDoc(
                matched: result.verdict.matched,
                found: Dictionary(uniqueKeysWithValues: result.verdict.found.map { ($0.key.rawValue, $0.value) }),
                missing: result.verdict.missing.map(\.rawValue), unexpected: result.verdict.unexpected.map(\.rawValue),
                brokenCounts: result.verdict.brokenCounts.isEmpty ? nil : zip(result.verdict.brokenCounts, result.verdict.brokenFound).map {
                    BrokenCountDoc(kind: $0.kind.rawValue, process: $0.process, expected: $0.bound, found: $1)
                })
            processes = info.processes.map { ProcessDoc(name: $0.name, role: $0.role.rawValue, store: $0.store, settings: $0.settings) }
            steps = info.steps.map { StepDoc(index: $0.index, process: $0.process, location: $0.location.fileAndLine, text: $0.text) }
            anomalies = result.anomalies.map { a in
                AnomalyDoc(
                    kind: a.kind.rawValue, process: a.process, step: a.step, location: a.location, object: a.object,
                    property: a.property, seen: a.seen, expected: a.expected, atNs: result.offset(a.t),
                    cause: a.cause.map { CauseDoc(process: $0.process, atNs: result.offset($0.t), version: $0.version, step: $0.step) },
                    explanation: a.explanation)
            }
            func buckets(_ list: [LatencyBucket]) -> [BucketDoc] {
                list.map { BucketDoc(lowerNs: $0.lower, upperNs: $0.upper, count: $0.count) }
            }
            latency = LatencyDoc(
                refreshed: result.latency.refreshed.map(SummaryDoc.init),
                shown: result.latency.shown.map(SummaryDoc.init),
                pairs: result.latency.pairs.map { pair in
                    PairDoc(
                        writer: pair.writer, reader: pair.reader, refreshed: pair.refreshed.map(SummaryDoc.init),
                        shown: pair.shown.map(SummaryDoc.init), notified: pair.notified.map(SummaryDoc.init),
                        unrefreshed: pair.unrefreshed, unseen: pair.unseen,
                        refreshedBuckets: buckets(pair.refreshedBuckets), shownBuckets: buckets(pair.shownBuckets))
                },
                propagations: result.latency.propagations.count,
                headline: result.latency.headline.map { PairNameDoc(writer: $0.writer, reader: $0.reader) })
            refresh = result.refreshCosts.map { RefreshDoc(process: $0.process, count: $0.count, totalNs: $0.totalNanos) }
            unexpectedErrors = result.unexpectedErrors.map {
                ErrorDoc(process: $0.process, step: $0.step, location: $0.location, kind: $0.kind.rawValue, message: $0.message, atNs: result.offset($0.t))
            }
        }
    }

    public struct Run: Codable, Sendable, Equatable {
        public var scenario: String
        public var variant: String
        public var label: String
        public var file: String
        public var summary: String
        public var seed: UInt64
        /// `real-time` or `deterministic` (every time in the report is then virtual).
        public var mode: String
        public var replay: String
        /// `[]` for `pass`, else the anomaly names the run must show.
        public var expected: [String]
        /// For `expect: { stale-read: 1, busy: 0 }`: each kind's count as written (`1`, `0`, `1+`).
        public var expectedCounts: [String: String]?
        public var staleToleranceNs: UInt64
        public var latencyBudget: BudgetDoc?
        /// The run's `limits:` on store growth (sizes in bytes), if any.
        public var growthLimits: GrowthLimits?
        public var durationNs: UInt64
        public var events: Int
    }

    public struct NoteDoc: Codable, Sendable, Equatable {
        public var step: Int?
        public var process: String
        public var text: String
    }

    public struct BudgetDoc: Codable, Sendable, Equatable {
        public var p50Ns: UInt64?
        public var p90Ns: UInt64?
        public var p99Ns: UInt64?
        public var maxNs: UInt64?
    }

    public struct VerdictDoc: Codable, Sendable, Equatable {
        public var matched: Bool
        public var found: [String: Int]
        public var missing: [String]
        public var unexpected: [String]
        /// The counts the run broke, with what it found (only for an expectation with counts).
        public var brokenCounts: [BrokenCountDoc]?
    }

    public struct BrokenCountDoc: Codable, Sendable, Equatable {
        public var kind: String
        /// The process the count is of; absent for a count of every process's.
        public var process: String?
        public var expected: String
        public var found: Int
    }

    public struct ProcessDoc: Codable, Sendable, Equatable {
        public var name: String
        public var role: String
        public var store: String
        public var settings: [String: String]
    }

    public struct StepDoc: Codable, Sendable, Equatable {
        public var index: Int
        public var process: String?
        public var location: String
        public var text: String
    }

    public struct AnomalyDoc: Codable, Sendable, Equatable {
        public var kind: String
        public var process: String
        public var step: Int?
        public var location: String?
        public var object: String?
        public var property: String?
        public var seen: String?
        public var expected: String?
        public var atNs: UInt64
        public var cause: CauseDoc?
        public var explanation: String
    }

    public struct CauseDoc: Codable, Sendable, Equatable {
        public var process: String
        public var atNs: UInt64
        public var version: Int64
        public var step: Int?
    }

    public struct SummaryDoc: Codable, Sendable, Equatable {
        public var count: Int
        public var minNs: UInt64
        public var p50Ns: UInt64
        public var p90Ns: UInt64
        public var p99Ns: UInt64
        public var maxNs: UInt64

        init(_ s: LatencySummary) {
            count = s.count
            minNs = s.min
            p50Ns = s.p50
            p90Ns = s.p90
            p99Ns = s.p99
            maxNs = s.max
        }
    }

    public struct BucketDoc: Codable, Sendable, Equatable {
        public var lowerNs: UInt64
        public var upperNs: UInt64
        public var count: Int
    }

    /// One writer → reader pair. `refreshed` (commit to the refresh that brought the save) is the
    /// headline; `shown` (commit to the first read showing it) is the contract's latency.
    public struct PairDoc: Codable, Sendable, Equatable {
        public var writer: String
        public var reader: String
        public var refreshed: SummaryDoc?
        public var shown: SummaryDoc?
        public var notified: SummaryDoc?
        public var unrefreshed: Int
        public var unseen: Int
        public var refreshedBuckets: [BucketDoc]
        public var shownBuckets: [BucketDoc]
    }

    public struct LatencyDoc: Codable, Sendable, Equatable {
        /// Every pair's `refreshed` samples together: the headline.
        public var refreshed: SummaryDoc?
        /// Every pair's `shown` samples together.
        public var shown: SummaryDoc?
        public var pairs: [PairDoc]
        /// How many (save, live reader) propagations were followed.
        public var propagations: Int
        /// The pair a one-line summary shows (`LatencyReport.headline`).
        public var headline: PairNameDoc?
    }

    public struct PairNameDoc: Codable, Sendable, Equatable {
        public var writer: String
        public var reader: String
    }

    public struct RefreshDoc: Codable, Sendable, Equatable {
        public var process: String
        public var count: Int
        public var totalNs: UInt64
    }

    public struct ErrorDoc: Codable, Sendable, Equatable {
        public var process: String
        public var step: Int?
        public var location: String?
        public var kind: String
        public var message: String
        public var atNs: UInt64
    }
}
