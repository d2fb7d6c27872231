import Basics
import Checkers
import Foundation
import Runner
import Testing
import TestSupport

/// `state`: an object's `isFault`, `isDeleted` and registration, read without firing its fault, as Core
/// Data's documentation describes them after a save, a refresh, a read, a delete, a rollback and a reset.
@Suite(.serialized, .spawnsProcesses) struct ObjectStateTests {
    static let yaml = """
        summary: Object states through a context's life.
        store: { group: group.t, name: Notes, model: { Note: { title: string } } }
        processes:
          app: { role: host }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: { state: n1, expect: { fault: false, registered: true, deleted: false }, now: true }
          - app: save
          - app: { state: n1, expect: { fault: false }, now: true }          # a save leaves objects materialized
          - app: { refresh: n1, merge: false }
          - app: { state: n1, expect: { fault: true, registered: true }, now: true }
          - app: { read: n1, expect: { title: A }, now: true }                # reading fires the fault
          - app: { state: n1, expect: { fault: false }, now: true }
          - app: refresh                                                       # refreshAllObjects
          - app: { state: n1, expect: { fault: true }, now: true }
          - app: { delete: n1 }
          - app: { state: n1, expect: { deleted: true }, now: true }
          - app: rollback
          - app: { state: n1, expect: { deleted: false, registered: true }, now: true }
          - app: reset
          - app: { state: n1, expect: { registered: false, fault: true }, now: true }
          - share: launch
          - share: { state: n1, expect: { registered: false }, now: true }
          - { app: { state: n1, expect: { fault: false }, now: true, only-in: [wrong] } }
        variants:
          right: { expect: pass }
          wrong: { expect: { unmet-expectation: 1 } }
        """

    @Test(arguments: RunMode.allCases)
    func statesFollowCoreDatasLifecycleOfAnObject(mode: RunMode) throws {
        for variant in ["right", "wrong"] {
            let outcome = try RunHarness.single(Self.yaml, variant: variant, mode: mode)
            #expect(outcome.harnessError == nil, "\(String(describing: outcome.harnessError))")
            let result = TraceChecker.check(outcome.trace)
            #expect(result.verdict.matched, "\(variant): \(result.anomalies.map(\.explanation))")
            if variant == "wrong" {
                #expect(result.anomalies.first?.explanation.hasPrefix("app's n1 was {fault: true} at ") == true,
                        "\(result.anomalies.map(\.explanation))")
            }
        }
    }
}
