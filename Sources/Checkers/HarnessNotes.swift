import Trace

/// Keeps what the harness said of the run: what it could not do as asked (`warning` events, for the
/// report) and where it failed (the first `harnessFailed`: the trace stops there, and shows no verdict).
struct HarnessNotes: TraceJudge {
    static var sees: EventKinds { [.warning, .harnessFailed] }

    mutating func see(_ event: inout JudgedEvent, into findings: inout CheckFindings) {
        switch event.kind {
        case .warning(let text): findings.warnings.append("\(event.process): \(text)")
        case .harnessFailed(let failure): findings.harnessFailure = findings.harnessFailure ?? failure
        default: break
        }
    }
}
