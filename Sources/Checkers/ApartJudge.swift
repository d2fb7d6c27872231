import Trace

/// A judge of the second pass that sees its events on a thread of its own (`JudgeThread`), started as
/// soon as what it judges against is ready: on a long trace, the latency tracker beside the oracle's
/// making and the other judges, and a later part of the reads beside the earlier part.
///
/// It finishes on its thread too, into findings of its own; in its turn to finish, the checking thread
/// joins it and takes what `merge` names. What the apart judges find does not depend on the order it was
/// found in (the latency report is made whole; the reads' anomalies are sorted by what they say), so the
/// result is the one the pass in line gives.
final class ApartJudge: AnyJudge {
    private let thread: JudgeThread?
    private let box: AnyJudge
    private let range: Range<Int>
    private let outcome: Outcome
    private let merge: (inout CheckFindings, CheckFindings) -> Void

    private final class Outcome {
        var findings: CheckFindings?
    }

    /// Starts `judge` on its own thread over `events[range]`; `lastEvents` and `end` are the findings' own.
    /// When no thread can be made, the judge sees its events in line, as any other.
    init(
        _ judge: AnyJudge, events: [TraceEvent], range: Range<Int>, end: UInt64, lastEvents: [String: UInt64],
        merge: @escaping (inout CheckFindings, CheckFindings) -> Void
    ) {
        let outcome = Outcome()
        box = judge
        self.range = range
        self.outcome = outcome
        self.merge = merge
        thread = JudgeThread {
            var findings = CheckFindings(end: end, lastEvents: lastEvents)
            TraceChecker.judge(events, range, by: [judge], into: &findings)
            judge.finish(into: &findings)
            outcome.findings = findings
        }
        super.init(sees: thread == nil ? judge.sees : [])
    }

    /// Whether the judge runs on a thread of its own (else it sees its events in line).
    var isApart: Bool { thread != nil }

    override func see(_ event: inout JudgedEvent, into findings: inout CheckFindings) {
        guard range.contains(event.index) else { return }
        box.see(&event, into: &findings)
    }

    override func finish(into findings: inout CheckFindings) {
        guard let thread else { return box.finish(into: &findings) }
        thread.join()
        if let found = outcome.findings { merge(&findings, found) }
    }
}
