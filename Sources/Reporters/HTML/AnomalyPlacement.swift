import Basics
import Checkers

extension CheckResult {
    /// Where the timeline draws `anomaly`, as an offset from the run's origin: where it was found, except
    /// what is judged of the run's end (a view that did not converge, a duplicate or a broken constraint in the final store),
    /// which is drawn at the end, where its text says it is. A widget's not-converged view was rendered
    /// earlier (its explanation says when); what is wrong is that it still shows it when the run ends.
    func timelineOffset(of anomaly: Anomaly) -> UInt64 {
        switch anomaly.kind {
        case .notConverged: offset(Swift.max(end, anomaly.t))
        case .duplicate where anomaly.step == nil: offset(Swift.max(end, anomaly.t))
        case .constraintViolation: offset(Swift.max(end, anomaly.t))
        default: offset(anomaly.t)
        }
    }
}
