import Trace

/// Classifies each failed `read`/`count` check: a check failed because of a stale, missed or phantom
/// read found at the same step is explained by that anomaly; a failed count with a `where:` predicate
/// (not judged by id) is a `missed-insert` when short and a `missed-delete` when over; anything else is
/// an `unmet-expectation`.
struct ExpectationChecker {
    private struct Failed {
        var record: CheckRecord
        var key: StepKey
        var t: UInt64
    }

    let context: RunContext
    private var failed: [Failed] = []
    /// Objects whose unsaved changes ended with their process (`unsaved-changes-lost`), and when first.
    private var lostUnsaved: [String: UInt64] = [:]

    init(context: RunContext) {
        self.context = context
    }

    mutating func check(_ record: CheckRecord, process: String, step: Int?, t: UInt64) {
        guard !record.passed else { return }
        failed.append(Failed(record: record, key: StepKey(process: process, step: step), t: t))
    }

    /// `object`'s unsaved changes ended with its process at `t`: a read of it expecting them, later, is
    /// explained by that loss.
    mutating func lost(_ object: String, at t: UInt64) {
        if lostUnsaved[object] == nil { lostUnsaved[object] = t }
    }

    func classify(explained: Set<StepKey>, predicateSteps: Set<StepKey>, into anomalies: inout [Anomaly]) {
        for check in failed where !explained.contains(check.key) {
            let record = check.record, process = check.key.process, step = check.key.step, t = check.t
            if record.kind == .read, let lostAt = lostUnsaved[record.subject], lostAt <= t { continue }
            let within = record.withinNanos == 0 ? "" : " within \(DurationText.format(record.withinNanos))"
            if record.kind == .count, let want = record.expectedCount, let got = record.actualCount {
                if predicateSteps.contains(check.key), want != got {
                    let short = got < want
                    anomalies.append(context.anomaly(
                        short ? .missedInsert : .missedDelete, process: process, step: step, t: t,
                        seen: "\(got) \(record.subject)", expected: "\(want) \(record.subject)",
                        explanation: "\(process) counted \(got) \(record.subject) at \(context.at(t)) where \(want) were expected\(within): the view \(short ? "is missing objects committed elsewhere" : "still holds objects deleted elsewhere")."))
                    continue
                }
                anomalies.append(context.anomaly(
                    .unmetExpectation, process: process, step: step, t: t,
                    seen: "\(got) \(record.subject)", expected: "\(want) \(record.subject)",
                    explanation: "\(process) counted \(got) \(record.subject) at \(context.at(t)) where \(want) were expected\(within), and no missed insert or delete explains it."))
                continue
            }
            if record.kind == .expectError {
                anomalies.append(context.anomaly(
                    .unmetExpectation, process: process, step: step, t: t,
                    seen: "no error", expected: record.subject,
                    explanation: "\(process)'s step at \(context.at(t)) was expected to fail with \(record.subject), but it succeeded."))
                continue
            }
            if record.kind == .purge, let want = record.expectedCount, let got = record.actualCount {
                anomalies.append(context.anomaly(
                    .unmetExpectation, process: process, step: step, t: t, seen: "\(got) deleted", expected: "\(want) deleted",
                    explanation: "\(process)'s purge-history at \(context.at(t)) deleted \(got) history transaction\(got == 1 ? "" : "s") where \(want) \(want == 1 ? "was" : "were") expected."))
                continue
            }
            if record.kind == .state {
                anomalies.append(context.anomaly(
                    .unmetExpectation, process: process, step: step, t: t, object: record.subject,
                    seen: Self.render(record.actual), expected: Self.render(record.expected),
                    explanation: "\(process)'s \(record.subject) was \(Self.render(record.actual)) at \(context.at(t)) where \(Self.render(record.expected)) was expected\(within)."))
                continue
            }
            if record.kind == .results {
                let property = record.expected.keys.sorted().first { key in record.actual[key].map { !$0.matches(record.expected[key]!) } ?? true }
                anomalies.append(context.anomaly(
                    .unmetExpectation, process: process, step: step, t: t, object: record.subject, property: property,
                    seen: Self.render(record.actual.filter { record.expected[$0.key] != nil }), expected: Self.render(record.expected),
                    explanation: "\(process)'s fetched-results controller \(record.subject) held \(Self.render(record.actual)) at "
                        + "\(context.at(t)) where \(Self.render(record.expected)) was expected\(within), and no missed insert or delete explains it."))
                continue
            }
            if record.kind == .readAbsent {
                anomalies.append(context.anomaly(
                    .unmetExpectation, process: process, step: step, t: t, object: record.subject,
                    seen: Self.render(record.actual), expected: "absent",
                    explanation: "\(process) expected \(record.subject) to be gone from its view at \(context.at(t))\(within), but it still shows \(Self.render(record.actual))."))
                continue
            }
            let property = record.expected.keys.sorted().first { key in
                guard let want = record.expected[key] else { return false }
                return !(record.actual[key].map { $0.matches(want) } ?? false)
            } ?? record.expectedRelated?.keys.sorted().first { record.actualRelated?[$0] != record.expectedRelated?[$0] }
            let wanted = Self.render(record.expected, record.expectedRelated)
            // A read that found no object records no values: say so, rather than showing an empty object.
            let absent = record.actual.isEmpty && (record.actualRelated ?? [:]).isEmpty && !(record.expected.isEmpty && record.expectedRelated == nil)
            let seen = absent ? "no \(record.subject)" : Self.render(record.actual, record.actualRelated)
            let outcome = absent ? "but \(record.subject) is not in its view" : "but saw \(seen)"
            anomalies.append(context.anomaly(
                .unmetExpectation, process: process, step: step, t: t, object: record.subject, property: property,
                seen: seen, expected: wanted,
                explanation: "\(process) read \(record.subject) at \(context.at(t)) expecting \(wanted)\(within) \(outcome), and no stale, missed or phantom read explains it."))
        }
    }

    /// `{rank: 1, title: "B"}`, with relationships as id lists (`tags: [t1, t2]`).
    static func render(_ values: TraceValues, _ related: [String: [String]]? = nil) -> String {
        let related = related ?? [:]
        let parts = values.keys.sorted().map { "\($0): \(values[$0]!)" }
            + related.keys.sorted().map { "\($0): " + RelatedText.render(related[$0]!) }
        return "{" + parts.joined(separator: ", ") + "}"
    }
}

extension ExpectationChecker: TraceJudge {
    static var sees: EventKinds { [.check, .lifecycle] }

    mutating func see(_ event: inout JudgedEvent, into findings: inout CheckFindings) {
        switch event.kind {
        case .check(let record): check(record, process: event.process, step: event.step, t: event.t)
        case .lifecycle(let change): for object in change.unsaved ?? [] { lost(object, at: event.t) }
        default: break
        }
    }

    /// After the read and count checkers have said which steps their anomalies explain.
    mutating func finish(into findings: inout CheckFindings) {
        classify(explained: findings.explainedSteps, predicateSteps: findings.predicateSteps, into: &findings.anomalies)
    }
}
