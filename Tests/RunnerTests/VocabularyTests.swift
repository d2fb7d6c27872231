import Checkers
import ScenarioModel
import Testing

/// The scenario language names anomalies (`AnomalyName`, what a variant expects) and the checkers report
/// them (`AnomalyKind`); the trace carries the names as strings between the two. They must stay one
/// vocabulary, in the contract's order (reports group anomalies in that order).
@Suite struct VocabularyTests {
    @Test func anomalyNamesAndKindsAreOneVocabulary() {
        #expect(AnomalyName.allCases.map(\.rawValue) == AnomalyKind.allCases.map(\.rawValue))
    }

    /// Every error a step may expect is also an anomaly name, so an unexpected one can be reported as one
    /// (`not-found` aside: the contract has no anomaly for it).
    @Test func expectedErrorsAreAnomaliesExceptNotFound() {
        let names = Set(AnomalyName.allCases.map(\.rawValue))
        let errors = ExpectedError.allCases.map(\.rawValue).filter { !names.contains($0) }
        #expect(errors == ["not-found"])
    }
}
