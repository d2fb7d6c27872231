import Basics
@testable import ScenarioModel
import Testing

/// A read may expect what a relationship holds: ids of the destination entity, a list for a to-many,
/// one id or null for a to-one; each mistake reported where it is written.
@Suite struct RelatedExpectationTests {
    private let inserts = """
          - app: { insert: Note, id: n1, set: { title: A, rank: 1, score: 1 } }
          - app: { insert: Tag, id: t1, set: { name: x } }
          - app: { insert: Tag, id: t2, set: { name: y } }
        """

    private var line: Int { Fixture.firstStepLine + 3 }

    @Test func relationshipsAndAttributesAreExpectedTogether() throws {
        let scenario = try Fixture.scenario(Fixture.yaml(steps: inserts + "\n  - app: { read: n1, expect: { title: A, tags: [t2, t1] } }\n  - app: { read: t1, expect: { note: n1 } }\n  - app: { read: t2, expect: { note: null } }"))
        #expect(scenario.steps[3].step == .read(id: "n1", expectation: .values(["title": .string("A")], related: ["tags": ["t1", "t2"]]), timing: .defaultWithin))
        #expect(scenario.steps[4].step == .read(id: "t1", expectation: .values([:], related: ["note": ["n1"]]), timing: .defaultWithin))
        #expect(scenario.steps[5].step == .read(id: "t2", expectation: .values([:], related: ["note": []]), timing: .defaultWithin))
        let written = try StepWriter.line(scenario.steps[3])
        #expect(written == "app: { read: n1, expect: { title: \"A\", tags: [t1, t2] }, within: 1s }")
    }

    @Test func aToManyExpectsAList() {
        Fixture.expectOneError(Fixture.yaml(steps: inserts + "\n  - app: { read: n1, expect: { tags: t1 } }"), line: line, column: 38,
                               containing: "'tags' is a to-many relationship: expect a list of Tag ids, like [t1, t2], or [] for none")
    }

    @Test func theIdsMustBeObjectsOfTheDestination() {
        Fixture.expectOneError(Fixture.yaml(steps: inserts + "\n  - app: { read: n1, expect: { tags: [t1, n1] } }"), line: line, column: 43,
                               containing: "'n1' is a Note, and 'tags' holds Tag objects.")
        Fixture.expectOneError(Fixture.yaml(steps: inserts + "\n  - app: { read: n1, expect: { tags: [t3] } }"), line: line, column: 39,
                               containing: "no earlier step inserts an object with id 't3'")
    }

    @Test func aToOneExpectsOneIdOrNull() {
        Fixture.expectOneError(Fixture.yaml(steps: inserts + "\n  - app: { read: t1, expect: { note: [n1, n1] } }"), line: line, column: 38,
                               containing: "'note' is a to-one relationship: expect one Note id, or null")
    }
}
