import Basics
import Checkers
import ScenarioModel
import Testing

/// A step's `expect-error:` names an error the agent reports by kind; an error no step expected is
/// reported as the anomaly of the same name. The three must stay one vocabulary.
@Suite struct VocabularyTests {
    /// Every error a step may expect has an anomaly, so an unexpected one can be reported as one
    /// (`not-found` and `validation` aside: the contract has no anomaly for them; unexpected, they are
    /// listed as unexpected errors).
    @Test func expectedErrorsAreAnomaliesExceptNotFoundAndValidation() {
        #expect(ErrorKind.allCases.filter { $0.isExpectable && $0.anomaly == nil } == [.notFound, .validation])
    }

    /// A step expects an error by the kind the agent reports, and only a kind an app meets: the harness's
    /// own failures are refused, naming the kinds a step may expect.
    @Test func aStepExpectsOnlyTheErrorsAnAppMeets() throws {
        #expect(ErrorKind.allCases.filter(\.isExpectable).map(\.rawValue)
            == ["conflict", "busy", "read-only", "expired-token", "foreign-token", "not-found", "validation", "store-load-failed"])
        for kind in ErrorKind.allCases {
            let yaml = """
                summary: An expected error.
                store: { group: group.example.notes, name: Notes, model: { Note: { title: string } } }
                processes: { app: { role: host } }
                steps:
                  - app: launch
                  - app: { save: true, expect-error: \(kind.rawValue) }
                """
            do {
                let scenario = try ScenarioLoader.parse(yaml: yaml, file: "e.yaml")
                #expect(kind.isExpectable && scenario.steps.last?.expectError == kind, "\(kind)")
            } catch {
                #expect(!kind.isExpectable, "\(kind): \(error)")
                #expect("\(error)".contains("e.yaml:6:") && "\(error)".contains("unknown error kind '\(kind.rawValue)'"))
            }
        }
    }
}
