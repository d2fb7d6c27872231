import Trace

/// The latency tracker as a judge of the second pass: on a long trace it makes its pass and its report on
/// a thread of its own (`JudgeThread`), started as soon as the first pass has numbered the trace, beside
/// the oracle and the other judges; the report joins the findings in the tracker's turn to finish. It
/// writes nothing else to the findings, so the result is the one a pass in line gives.
final class LatencyJudge: AnyJudge {
    private let tracker: JudgeBox<LatencyTracker>
    private let thread: JudgeThread?
    /// The report made apart: written by the thread, read once it has been joined.
    private let outcome: Outcome

    private final class Outcome {
        var report: LatencyReport?
    }

    /// Judges in line, or (`apart`) on a thread of its own over `events`, with `lastEvents` as the
    /// findings will hold them; when no thread can be made, in line after all.
    init(_ tracker: LatencyTracker, events: [TraceEvent], end: UInt64, lastEvents: [String: UInt64], apart: Bool) {
        let tracker = JudgeBox(tracker), outcome = Outcome()
        self.tracker = tracker
        self.outcome = outcome
        thread = !apart ? nil : JudgeThread {
            var findings = CheckFindings(end: end, lastEvents: lastEvents)
            TraceChecker.judge(events, by: [tracker], into: &findings)
            tracker.finish(into: &findings)
            outcome.report = findings.latency
        }
        super.init(sees: thread == nil ? LatencyTracker.sees : [])
    }

    override func see(_ event: inout JudgedEvent, into findings: inout CheckFindings) {
        tracker.see(&event, into: &findings)
    }

    override func finish(into findings: inout CheckFindings) {
        guard let thread else { return tracker.finish(into: &findings) }
        thread.join()
        findings.latency = outcome.report ?? findings.latency
    }
}
