import Basics
import Trace

/// An error a step ended with that no anomaly class covers (`not-found`, `timeout`, `other`) and no
/// `expect-error` announced: reported beside the anomalies so the runner can judge the harness.
public struct UnexpectedError: Sendable, Hashable, Codable {
    public var process: String
    public var step: Int?
    public var location: String?
    public var kind: ErrorKind
    public var message: String
    public var t: UInt64

    public init(process: String, step: Int?, location: String?, kind: ErrorKind, message: String, t: UInt64) {
        self.process = process
        self.step = step
        self.location = location
        self.kind = kind
        self.message = message
        self.t = t
    }
}

/// Turns failed operations into `conflict`, `busy`, `read-only` and `expired-token` anomalies.
///
/// One failure is often recorded more than once (the save's `saveFailed`, an `error`, the step's
/// `stepEnded`, an expired `historyFetched`), so errors are gathered per process and step and each
/// kind is reported as many times as its most detailed source recorded it. A kind that the step
/// expected (`expect-error`, recorded with `expected: true`) is never an anomaly.
struct ErrorChecker {
    private enum Source: Int, Comparable {
        case saveFailed, error, history, stepEnded
        static func < (a: Source, b: Source) -> Bool { a.rawValue < b.rawValue }
    }

    private struct Candidate {
        var source: Source
        var record: ErrorRecord
        var t: UInt64
        var conflict: ConflictRecord?
        var history: HistoryFetch?
    }

    let context: RunContext
    private var groups: [StepKey: [Candidate]] = [:]
    /// Group keys in the order first seen, so flushing at the end is deterministic.
    private var order: [StepKey] = []
    private var lastConflict: [String: ConflictRecord] = [:]
    private(set) var unexpected: [UnexpectedError] = []

    init(context: RunContext) {
        self.context = context
    }

    mutating func conflict(_ record: ConflictRecord, process: String) {
        lastConflict[process] = record
    }

    mutating func saveFailed(_ record: ErrorRecord, process: String, step: Int?, t: UInt64) {
        add(Candidate(source: .saveFailed, record: record, t: t, conflict: lastConflict.removeValue(forKey: process)), process: process, step: step)
    }

    mutating func error(_ record: ErrorRecord, process: String, step: Int?, t: UInt64) {
        add(Candidate(source: .error, record: record, t: t), process: process, step: step)
    }

    mutating func historyFetched(_ fetch: HistoryFetch, process: String, step: Int?, t: UInt64) {
        guard fetch.expired else { return }
        let record = ErrorRecord(kind: .expiredToken, message: "history after token \(fetch.tokenBefore.map(String.init) ?? "nil") was purged")
        add(Candidate(source: .history, record: record, t: t, history: fetch), process: process, step: step)
    }

    mutating func stepEnded(_ record: ErrorRecord?, process: String, step: Int?, t: UInt64, into anomalies: inout [Anomaly]) {
        let key = StepKey(process: process, step: step)
        if let record { add(Candidate(source: .stepEnded, record: record, t: t), process: process, step: step) }
        if let candidates = groups.removeValue(forKey: key) { flush(candidates, key: key, into: &anomalies) }
    }

    /// Reports what is still gathered (steps whose end the process never recorded).
    mutating func flushAll(into anomalies: inout [Anomaly]) {
        for key in order {
            if let candidates = groups.removeValue(forKey: key) { flush(candidates, key: key, into: &anomalies) }
        }
        order = []
    }

    private mutating func add(_ candidate: Candidate, process: String, step: Int?) {
        let key = StepKey(process: process, step: step)
        if groups[key] == nil { order.append(key) }
        groups[key, default: []].append(candidate)
    }

    private mutating func flush(_ candidates: [Candidate], key: StepKey, into anomalies: inout [Anomaly]) {
        let expectedKinds = Set(candidates.filter(\.record.expected).map(\.record.kind))
        var byKind: [ErrorKind: [Candidate]] = [:]
        var kinds: [ErrorKind] = []
        for candidate in candidates where !expectedKinds.contains(candidate.record.kind) {
            if byKind[candidate.record.kind] == nil { kinds.append(candidate.record.kind) }
            byKind[candidate.record.kind, default: []].append(candidate)
        }
        for kind in kinds {
            let all = byKind[kind]!
            // The most detailed source that recorded the most failures of this kind speaks for them all.
            let sources = Set(all.map(\.source)).sorted()
            let best = sources.max { a, b in
                let ca = all.count { $0.source == a }, cb = all.count { $0.source == b }
                return ca != cb ? ca < cb : a > b
            }!
            for candidate in all where candidate.source == best {
                report(candidate, key: key, into: &anomalies)
            }
        }
    }

    private mutating func report(_ candidate: Candidate, key: StepKey, into anomalies: inout [Anomaly]) {
        let process = key.process, step = key.step, t = candidate.t
        let record = candidate.record
        let detail = record.message.isEmpty ? "" : ": \(record.message)"
        let operation = candidate.source == .saveFailed ? "save" : "step"
        let when = context.at(t)
        switch record.kind {
        case .conflict:
            let conflict = candidate.conflict
            let explanation = conflict.map { conflict in
                if let constraint = conflict.constraint {
                    let value = conflict.cachedValues[constraint].map { " \($0)" } ?? ""
                    return "\(process)'s save failed at \(when) on a constraint conflict: its new \(conflict.object) has the \(constraint)\(value) "
                        + "of \(conflict.existing ?? "a row") already in the store (version \(conflict.storeVersion)), and merge policy \(conflict.policy) does not resolve it."
                }
                // A row deleted in the store since the process read it has no version there (-1).
                let store = conflict.storeVersion < 0 ? "another process had deleted it from the store"
                    : "the store version \(conflict.storeVersion)"
                return "\(process)'s save failed at \(when) on an optimistic-locking conflict on \(conflict.object): it had version \(conflict.cachedVersion), \(store) (merge policy \(conflict.policy))."
            } ?? "\(process)'s \(operation) failed at \(when) on \(record.message.contains("constraint") ? "a constraint conflict" : "an optimistic-locking conflict")\(detail)."
            anomalies.append(context.anomaly(
                .conflict, process: process, step: step, t: t, object: conflict?.object,
                seen: conflict.map { "version \($0.cachedVersion)" } ?? record.message,
                expected: conflict.map { $0.storeVersion < 0 ? "deleted" : "version \($0.storeVersion)" }, explanation: explanation))
        case .busy:
            // A deferred transaction's writes never wait: SQLite calls the busy handler only for a
            // transaction that holds nothing yet. (A checkpoint's busy, which does wait, is described the
            // same way for such a process; no scenario combines the two yet.)
            let deferred = context.info.processes.first { $0.name == process }?.writeTransactions == .deferred
            let how = deferred
                ? "at once: its deferred transaction had already read, and SQLite does not wait for the write lock then, whatever the busy timeout"
                : "after its busy timeout"
            anomalies.append(context.anomaly(
                .busy, process: process, step: step, t: t, seen: record.message,
                explanation: "\(process)'s \(operation) failed at \(when) with SQLITE_BUSY \(how)\(detail)."))
        case .readOnly:
            anomalies.append(context.anomaly(
                .readOnly, process: process, step: step, t: t, seen: record.message,
                explanation: "\(process)'s \(operation) failed at \(when) because the store is read-only to this process"
                    + (record.message.hasPrefix("the store is read-only to this process")
                        ? String(record.message.dropFirst("the store is read-only to this process".count)) : detail) + "."))
        case .expiredToken:
            let explanation = candidate.history.map {
                "\(process) fetched history at \(when) after the transactions it needed were purged (its token: \($0.tokenBefore.map(String.init) ?? "none")); it merged nothing."
            } ?? "\(process)'s history fetch failed at \(when) because its token had expired\(detail)."
            anomalies.append(context.anomaly(
                .expiredToken, process: process, step: step, t: t, seen: record.message, explanation: explanation))
        case .foreignToken:
            anomalies.append(context.anomaly(
                .foreignToken, process: process, step: step, t: t, seen: record.message,
                explanation: "\(process) fetched history at \(when) with a token saved for the store this one replaced (restored or recreated, it has a new identifier), so it merged nothing."))
        case .storeLoadFailed:
            anomalies.append(context.anomaly(
                .storeLoadFailed, process: process, step: step, t: t, seen: record.message,
                explanation: "\(process)'s \(operation) failed at \(when) on a store it could not load or read, where Core Data's loadPersistentStores or fetch reports an error\(detail)."))
        case .notFound, .validation, .syncFailed, .alreadyLeeched, .timeout, .other:
            // No anomaly names these (`ErrorKind.anomaly` is nil): a report lists them as unexpected errors.
            unexpected.append(UnexpectedError(
                process: process, step: step, location: context.location(step), kind: record.kind,
                message: record.message, t: t))
        }
    }
}

extension ErrorChecker: TraceJudge {
    static var sees: EventKinds { [.conflict, .saveFailed, .error, .historyFetched, .stepEnded] }

    mutating func see(_ event: inout JudgedEvent, into findings: inout CheckFindings) {
        switch event.kind {
        case .conflict(let record): conflict(record, process: event.process)
        case .saveFailed(let record): saveFailed(record, process: event.process, step: event.step, t: event.t)
        case .error(let record): error(record, process: event.process, step: event.step, t: event.t)
        case .historyFetched(let fetch): historyFetched(fetch, process: event.process, step: event.step, t: event.t)
        case .stepEnded(let record): stepEnded(record, process: event.process, step: event.step, t: event.t, into: &findings.anomalies)
        default: break
        }
    }

    mutating func finish(into findings: inout CheckFindings) {
        flushAll(into: &findings.anomalies)
        findings.unexpectedErrors = unexpected
    }
}
