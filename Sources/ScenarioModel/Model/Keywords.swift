import Basics

// An error a step expects (`expect-error:`) is an `ErrorKind` a step may expect: when it happens it is
// the step's outcome, not an anomaly. The words are the kinds' raw values, as the trace writes them.
extension ErrorKind: ScenarioKeyword {
    static var accepted: [ErrorKind] { allCases.filter(\.isExpectable) }
}

extension AnomalyKind: ScenarioKeyword {}
