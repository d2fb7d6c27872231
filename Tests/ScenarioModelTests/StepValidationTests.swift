@testable import ScenarioModel
import Testing

/// Errors in steps name the exact line and column of the node at fault, and say how to fix it.
@Suite struct StepValidationTests {
    let line = Fixture.firstStepLine

    @Test func stepOnUnknownProcessSuggestsTheNearest() {
        Fixture.expectOneError(Fixture.yaml(steps: "  - ap: launch"), line: line, column: 5,
                               containing: "unknown process 'ap'; did you mean 'app'?")
    }

    @Test func stepOnUnknownProcessListsTheDeclaredOnes() {
        Fixture.expectOneError(Fixture.yaml(steps: "  - widget: launch"), line: line, column: 5,
                               containing: "unknown process 'widget'; declare it under processes:, or start the step with a declared process (app or share)")
    }

    /// `- deliver: app` puts the action where the process goes (review 98).
    @Test func anActionWrittenWhereTheProcessGoesShowsTheStep() {
        Fixture.expectOneError(Fixture.yaml(steps: "  - deliver: share"), line: line, column: 5,
                               containing: "'deliver' is an action, which a process takes: the step starts with the process, like - share: deliver.")
    }

    /// One that needs an argument is shown with one, not as a bare word that then asks for it.
    @Test func anActionWithAnArgumentWrittenWhereTheProcessGoesShowsItsArgument() {
        Fixture.expectOneError(Fixture.yaml(steps: "  - insert: { entity: Note }"), line: line, column: 5,
                               containing: "'insert' is an action, which a process takes: the step starts with the process, like - app: { insert: ")
    }

    /// A control step's `only-in:` goes beside its word, not inside its argument (review 98).
    @Test func onlyInInsideAControlStepShowsWhereItGoes() {
        Fixture.expectOneError(Fixture.yaml(steps: "  - clock: { advance: 3s, only-in: [slow] }"), line: line, column: 27,
                               containing: "only-in goes beside the step's word, not inside it: - { clock: ..., only-in: [...] }.")
    }

    @Test func unknownActionSuggestsTheNearest() {
        Fixture.expectOneError(Fixture.yaml(steps: "  - app: lanch"), line: line, column: 10,
                               containing: "unknown action 'lanch'; did you mean 'launch'?")
    }

    @Test func actionThatNeedsAnArgumentShowsTheForm() {
        Fixture.expectOneError(Fixture.yaml(steps: "  - app: insert"), line: line, column: 10,
                               containing: "'insert' needs an argument; write it like - app: { insert: Note")
    }

    @Test func unknownKeyInAStepSuggestsTheNearest() {
        Fixture.expectOneError(Fixture.yaml(steps: "  - app: { fetch: Note, were: \"rank > 2\" }"),
                               line: line, column: 25, containing: "unknown key 'were' in the fetch step; did you mean 'where'?")
    }

    @Test func twoActionsInOneStepAreRejected() {
        Fixture.expectOneError(Fixture.yaml(steps: "  - app: { save: true, reset: true }"), line: line, column: 24,
                               containing: "a step does one action")
    }

    @Test func batchInsertCountIsAnArgumentNotASecondAction() throws {
        let scenario = try Fixture.scenario(Fixture.yaml(steps: "  - app: { batch-insert: Note, count: 10, set: { rank: 2 } }"))
        #expect(scenario.steps[0].step == .batchInsert(entity: "Note", count: 10, values: ["rank": .int(2)]))
    }

    @Test func updateOfAnIdNeverInsertedIsAnError() {
        Fixture.expectOneError(Fixture.yaml(steps: "  - app: { update: n9, set: { title: B } }"), line: line, column: 20,
                               containing: "no earlier step inserts an object with id 'n9'; insert it first")
    }

    @Test func readOfAnIdInsertedOnlyLaterIsAnError() {
        let steps = """
              - app: { read: n1 }
              - app: { insert: Note, id: n1 }
            """
        Fixture.expectOneError(Fixture.yaml(steps: steps), line: line, column: 18, containing: "id 'n1'")
    }

    @Test func misspelledIdSuggestsAnInsertedOne() {
        let steps = """
              - app: { insert: Note, id: note1 }
              - app: { delete: note2 }
            """
        Fixture.expectOneError(Fixture.yaml(steps: steps), line: line + 1, column: 20, containing: "did you mean 'note1'?")
    }

    @Test func idsInsertedInsideParallelAreKnownAfterIt() throws {
        let steps = """
              - parallel: [ { app: { insert: Note, id: n1 } }, { share: { insert: Tag, id: t1 } } ]
              - app: { relate: n1, to: t1, via: tags }
            """
        let scenario = try Fixture.scenario(Fixture.yaml(steps: steps))
        #expect(scenario.steps[1].step == .relate(id: "n1", to: "t1", via: "tags"))
    }

    @Test func idsInsertedInsideParallelAreNotKnownToTheirSiblings() {
        let steps = "  - parallel: [ { app: { insert: Note, id: n1 } }, { share: { delete: n1 } } ]"
        Fixture.expectOneError(Fixture.yaml(steps: steps), line: line, column: 71, containing: "id 'n1'")
    }

    /// A list inside `parallel` is a sequence: its steps in order, each knowing the ids the ones before it
    /// in the list inserted, none knowing a sibling branch's.
    @Test func aListInsideParallelIsASequence() throws {
        let steps = """
              - parallel:
                  - - app: { insert: Note, id: n1 }
                    - app: save
                  - share: { insert: Tag, id: t1 }
              - app: { relate: n1, to: t1, via: tags }
            """
        let scenario = try Fixture.scenario(Fixture.yaml(steps: steps))
        guard case .parallel(let children) = scenario.steps[0].step, case .sequence(let inner) = children[0].step else {
            Issue.record("not a parallel with a sequence: \(scenario.steps[0].step)")
            return
        }
        #expect(inner.map(\.step) == [.insert(entity: "Note", id: "n1", values: [:]), .save])
        #expect(children[0].location.line == line + 1 && children[0].process == nil)
        Fixture.expectOneError(Fixture.yaml(steps: "  - parallel: [ [ { app: { insert: Note, id: n1 } } ], [ { share: { delete: n1 } } ] ]"),
                               line: line, column: 77, containing: "id 'n1'")
        Fixture.expectOneError(Fixture.yaml(steps: "  - parallel: [ [], { app: save } ]"),
                               line: line, column: 17, containing: "a sequence inside parallel needs at least one step")
        Fixture.expectOneError(Fixture.yaml(steps: "  - parallel: [ [ { app: save }, { app: rollback } ], { app: reset } ]"),
                               line: line, column: 57, containing: "'app' has steps in two children of this parallel, one of them a sequence")
        Fixture.expectOneError(Fixture.yaml(steps: "  - parallel: [ [ [ { app: save } ] ] ]"),
                               line: line, column: 19, containing: "holds steps, not another list")
    }

    @Test func workloadIdsCannotBeNamed() {
        let steps = """
              - workload: { processes: [app], entity: Note, duration: 1s }
              - app: { read: k1 }
            """
        Fixture.expectOneError(Fixture.yaml(steps: steps), line: line + 1, column: 18,
                               containing: "Ids a workload makes (k1, k2, ...) cannot be named by steps.")
    }

    @Test func setValueOfTheWrongTypeIsAnError() {
        let steps = "  - app: { insert: Note, id: n1, set: { rank: high } }"
        Fixture.expectOneError(Fixture.yaml(steps: steps), line: line, column: 47,
                               containing: "'Note.rank' is int, so expected a whole number like 3, but found 'high'.")
        Fixture.expectOneError(Fixture.yaml(steps: "  - app: { insert: Note, id: n1, set: { rank: \"3\" } }"), line: line, column: 47,
                               containing: "found the quoted string \"3\" (YAML reads quotes as text; write it without them)")
    }

    @Test func setOfAnUnknownAttributeSuggestsTheNearest() {
        let steps = "  - app: { insert: Note, id: n1, set: { titel: A } }"
        Fixture.expectOneError(Fixture.yaml(steps: steps), line: line, column: 41,
                               containing: "Note has no attribute 'titel'; did you mean 'title'?")
    }

    @Test func setOfARelationshipPointsToRelate() {
        let steps = "  - app: { insert: Note, id: n1, set: { tags: t1 } }"
        Fixture.expectOneError(Fixture.yaml(steps: steps), line: line, column: 41,
                               containing: "'tags' is a relationship of Note, not an attribute")
    }

    @Test func nullForARequiredAttributeIsAnError() {
        let steps = """
              - app: { insert: Note, id: n1, set: { body: null } }
              - app: { update: n1, set: { title: ~ } }
            """
        Fixture.expectOneError(Fixture.yaml(steps: steps), line: line + 1, column: 38, containing: "cannot be null")
    }

    @Test func unknownEntitySuggestsTheNearest() {
        Fixture.expectOneError(Fixture.yaml(steps: "  - app: { insert: Nte, id: n1 }"), line: line, column: 20,
                               containing: "unknown entity 'Nte'; did you mean 'Note'?")
    }

    @Test func relateViaAnAttributeIsAnError() {
        let steps = """
              - app: { insert: Note, id: n1 }
              - app: { insert: Tag, id: t1 }
              - app: { relate: n1, to: t1, via: title }
            """
        Fixture.expectOneError(Fixture.yaml(steps: steps), line: line + 2, column: 37,
                               containing: "'title' is an attribute of Note, not a relationship")
    }

    @Test func relateViaAnUnknownRelationshipSuggestsTheNearest() {
        let steps = """
              - app: { insert: Note, id: n1 }
              - app: { insert: Tag, id: t1 }
              - app: { unrelate: n1, from: t1, via: tag }
            """
        Fixture.expectOneError(Fixture.yaml(steps: steps), line: line + 2, column: 41,
                               containing: "Note has no relationship 'tag'; did you mean 'tags'?")
    }

    @Test func relateToAnObjectOfTheWrongEntityIsAnError() {
        let steps = """
              - app: { insert: Note, id: n1 }
              - app: { insert: Note, id: n2 }
              - app: { relate: n1, to: n2, via: tags }
            """
        Fixture.expectOneError(Fixture.yaml(steps: steps), line: line + 2, column: 28,
                               containing: "Note.tags leads to Tag, but 'n2' is a Note")
    }

    @Test func oneIdForTwoEntitiesIsAnError() {
        let steps = """
              - app: { insert: Note, id: x }
              - share: { insert: Tag, id: x }
            """
        Fixture.expectOneError(Fixture.yaml(steps: steps), line: line + 1, column: 31,
                               containing: "the id 'x' names a Note inserted at line \(line)")
    }

    @Test func durationThatDoesNotParseSaysHowToWriteIt() {
        let steps = """
              - app: { insert: Note, id: n1 }
              - app: { read: n1, within: 2 seconds }
            """
        Fixture.expectOneError(Fixture.yaml(steps: steps), line: line + 1, column: 30,
                               containing: "expected a duration like 200ms for within, but found '2 seconds'")
    }

    @Test func durationWithoutAUnitIsAnError() {
        Fixture.expectOneError(Fixture.yaml(steps: "  - sleep: 50"), line: line, column: 12,
                               containing: "the duration '50' for sleep has no unit; write it like 50s or 50ms.")
    }

    @Test func checkWithBothWithinAndNowIsAnError() {
        let steps = """
              - app: { insert: Note, id: n1 }
              - app: { read: n1, within: 1s, now: true }
            """
        Fixture.expectOneError(Fixture.yaml(steps: steps), line: line + 1, column: 34, containing: "not both")
    }

    @Test func unknownExpectErrorSuggestsTheNearest() {
        Fixture.expectOneError(Fixture.yaml(steps: "  - app: { save: true, expect-error: conflit }"), line: line,
                               column: 38, containing: "unknown error kind 'conflit'; did you mean 'conflict'?")
    }

    @Test func predicateThatDoesNotParsePointsInsideTheString() {
        Fixture.expectOneError(Fixture.yaml(steps: "  - app: { fetch: Note, where: \"rank >\" }"), line: line,
                               column: 39, containing: "expected a value after '>'")
    }

    @Test func predicateOnAnUnknownAttributeSuggestsTheNearest() {
        Fixture.expectOneError(Fixture.yaml(steps: "  - app: { count: Note, expect: 1, where: \"rnak > 2\" }"),
                               line: line, column: 44, containing: "Note has no attribute 'rnak'; did you mean 'rank'?")
    }

    @Test func predicateLiteralOfTheWrongTypeIsAnError() {
        Fixture.expectOneError(Fixture.yaml(steps: "  - app: { batch-delete: Note, where: \"rank == 'high'\" }"),
                               line: line, column: 48, containing: "'rank' is int")
    }

    /// A number the predicate language cannot read is refused where it stands, never accepted and then
    /// failing inside an agent.
    @Test func aMalformedNumberInAPredicateIsAnErrorAtItsColumn() {
        Fixture.expectOneError(Fixture.yaml(steps: "  - app: { count: Note, where: \"rank > 1e\", expect: 1 }"),
                               line: line, column: 40, containing: "'1e' is not a number")
    }

    @Test func sortByAnUnknownAttributeIsAnError() {
        Fixture.expectOneError(Fixture.yaml(steps: "  - app: { fetch: Note, sort: -rnk }"), line: line, column: 31,
                               containing: "Note has no attribute 'rnk' to sort by; did you mean 'rank'?")
    }

    @Test func openCopyMustNameAnEarlierCopy() {
        let steps = """
              - app: { copy-store: backup, with-wal: false }
              - app: { open-copy: bakup }
            """
        Fixture.expectOneError(Fixture.yaml(steps: steps), line: line + 1, column: 23,
                               containing: "no earlier copy-store step takes a copy named 'bakup'; take it first with "
                                   + "{ copy-store: bakup }; did you mean 'backup'?")
    }

    @Test func copyStoreNamesAreUnique() {
        let steps = """
              - app: { copy-store: backup }
              - app: { copy-store: backup }
            """
        Fixture.expectOneError(Fixture.yaml(steps: steps), line: line + 1, column: 24,
                               containing: "a copy named 'backup' is already taken at line \(line)")
    }

    @Test func faultOnAnUnknownProcessIsAnError() {
        Fixture.expectOneError(Fixture.yaml(steps: "  - fault: { crash: shar, during: save }"), line: line,
                               column: 21, containing: "unknown process 'shar'; did you mean 'share'?")
    }

    @Test func workloadOnAnUnknownProcessIsAnError() {
        Fixture.expectOneError(Fixture.yaml(steps: "  - workload: { processes: [app, wacth], entity: Note, duration: 1s }"),
                               line: line, column: 34, containing: "unknown process 'wacth'")
    }

    @Test func aStepWithTwoKeysIsAnError() {
        let steps = """
              - app: launch
                share: launch
            """
        Fixture.expectOneError(Fixture.yaml(steps: steps), line: line + 1, column: 5,
                               containing: "a step has exactly one key")
    }

    @Test func workloadWithoutProcessesIsAnError() {
        Fixture.expectOneError(Fixture.yaml(steps: "  - workload: { processes: [], entity: Note, duration: 1s }"),
                               line: line, column: 28, containing: "the workload names no process")
    }
}

/// `state`: the flags it checks, and what it refuses.
@Suite struct StateStepTests {
    @Test func flagsDecodeAndTimingDefaultsToWithin() throws {
        let scenario = try Fixture.scenario(Fixture.yaml(steps: """
              - app: launch
              - app: { insert: Note, id: n1 }
              - app: { state: n1, expect: { fault: false, deleted: false } }
              - app: { state: n1, expect: { registered: true }, now: true }
            """))
        #expect(scenario.steps[2].step == .state(id: "n1", expectation: ObjectStateExpectation(fault: false, deleted: false),
                                                 timing: .defaultWithin))
        #expect(scenario.steps[3].step == .state(id: "n1", expectation: ObjectStateExpectation(registered: true), timing: .now))
    }

    @Test(arguments: [
        ("{ state: n1 }", "needs 'expect'"),
        ("{ state: n1, expect: {} }", "the expected state is empty"),
        ("{ state: n1, expect: { fualt: true } }", "fault"),
        ("{ state: n1, expect: { fault: maybe } }", "fault"),
        ("{ state: n9, expect: { fault: true } }", "n9"),
    ])
    func whatItRefusesIsNamed(step: String, message: String) {
        let errors = Fixture.errors(Fixture.yaml(steps: "  - app: launch\n  - app: { insert: Note, id: n1 }\n  - app: \(step)"))
        #expect(errors.count >= 1 && errors.allSatisfy { $0.line == Fixture.firstStepLine + 2 }, "\(errors)")
        #expect(errors.contains { $0.message.contains(message) }, "\(errors)")
    }
}

/// `purge-history`'s `expect: { deleted: n }`.
@Suite struct PurgeExpectationTests {
    @Test func theCountDecodesWithAPolicyOrTheSetting() throws {
        let scenario = try Fixture.scenario(Fixture.yaml(steps: """
              - app: { purge-history: consumed-by-all, expect: { deleted: 2 } }
              - app: { purge-history: true, expect: { deleted: 0 } }
              - app: purge-history
            """))
        #expect(scenario.steps.map(\.step) == [.purgeHistory(policy: .consumedByAll, expectDeleted: 2),
                                               .purgeHistory(policy: nil, expectDeleted: 0), .purgeHistory(policy: nil)])
    }

    @Test(arguments: [("{ deleted: -1 }", "deletes"), ("{ deleted: many }", "deletes"), ("{ removed: 1 }", "removed"), ("3", "{ deleted: 2 }")])
    func aBadCountIsNamed(expect: String, message: String) {
        let errors = Fixture.errors(Fixture.yaml(steps: "  - app: { purge-history: consumed-by-all, expect: \(expect) }"))
        #expect(errors.count >= 1 && errors.contains { $0.message.contains(message) }, "\(errors)")
    }
}
