import Basics
import Checkers
import ScenarioModel
import Testing

/// A step's `expect-error:` names an error the agent reports by kind; an error no step expected is
/// reported as the anomaly of the same name. The three must stay one vocabulary.
@Suite struct VocabularyTests {
    /// Every error a step may expect is also an anomaly, so an unexpected one can be reported as one
    /// (`not-found` and `validation` aside: the contract has no anomaly for them; unexpected, they are
    /// listed as unexpected errors).
    @Test func expectedErrorsAreAnomaliesExceptNotFoundAndValidation() {
        let anomalies = Set(AnomalyKind.allCases.map(\.rawValue))
        let errors = ExpectedError.allCases.map(\.rawValue).filter { !anomalies.contains($0) }
        #expect(errors == ["not-found", "validation"])
    }

    /// The scenario spells an expected error as the agent reports it.
    @Test func expectedErrorsNameTheirErrorKind() {
        for expected in ExpectedError.allCases {
            #expect(expected.kind.rawValue == expected.rawValue)
        }
    }
}
