import Basics
@testable import ScenarioModel
import Testing

/// A small valid scenario to build tests on: a model with every attribute type and both relationship
/// kinds, a host and a share extension, and the steps each test supplies.
enum Fixture {
    static let file = "Scenarios/fixture.yaml"

    /// The lines before `steps:`'s items.
    static let header = """
        summary: A fixture.
        store:
          group: group.example.notes
          name: Notes
          model:
            Note:
              title: string
              body: string?
              rank: int
              score: double
              pinned: bool = false
              created: date
              uid: uuid
              tags: [Tag]
            Tag:
              name: string
              note: Note?
        processes:
          app:
            role: host
          share:
            role: share
        steps:
        """

    /// The line number of the first step (`steps` given to ``yaml(steps:after:)`` start here).
    static let firstStepLine = header.split(separator: "\n", omittingEmptySubsequences: false).count + 1

    /// The header, then `steps` (each already indented as a list item), then `after` (top-level keys).
    static func yaml(steps: String, after: String = "") -> String {
        header + "\n" + steps + (after.isEmpty ? "" : "\n" + after) + "\n"
    }

    /// A scenario of one host whose store's model is `model` (entity lines, unindented) and whose steps,
    /// after its launch, are `steps` (list items, unindented): the model starts at line 6, the steps at 10.
    static func yaml(model: String, steps: String = "") -> String {
        """
        summary: A model.
        store:
          group: group.example.notes
          name: Notes
          model:
        \(model.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
        processes: { app: { role: host } }
        steps:
          - app: launch
        \(steps.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
        """
    }

    /// Parses and expects success.
    /// Parses and expects success; the steps are not walked through the lifecycle (tests of decoding write
    /// steps that need not run; `LifecycleCheckTests` parse as the loader does).
    static func scenario(_ yaml: String, file: String = Fixture.file) throws -> Scenario {
        try ScenarioLoader.parseSteps(yaml: yaml, file: file)
    }

    /// Parses and expects failure, returning every error.
    static func errors(_ yaml: String, file: String = Fixture.file, sourceLocation: Testing.SourceLocation = #_sourceLocation)
        -> [ScenarioError] {
        do {
            _ = try ScenarioLoader.parse(yaml: yaml, file: file)
            Issue.record("expected the scenario to be invalid", sourceLocation: sourceLocation)
            return []
        } catch {
            return error.errors
        }
    }

    /// The only error, checked to be at `line:column` and to contain `fragment`.
    static func expectOneError(_ yaml: String, line: Int, column: Int, containing fragment: String,
                               sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let found = errors(yaml, sourceLocation: sourceLocation)
        #expect(found.count == 1, "errors: \(found)", sourceLocation: sourceLocation)
        guard let error = found.first else { return }
        #expect(error.line == line && error.column == column, "\(error)", sourceLocation: sourceLocation)
        #expect(error.message.contains(fragment), "\(error)", sourceLocation: sourceLocation)
    }
}
