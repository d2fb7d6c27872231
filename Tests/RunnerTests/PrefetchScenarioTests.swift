import Basics
import Checkers
import Foundation
import Runner
import ScenarioModel
import Testing
import TestSupport
import Trace

/// `prefetch:` on a fetch (`relationshipKeyPathsForPrefetching`), decoded, refused where misused, and run.
@Suite(.serialized, .spawnsProcesses) struct PrefetchScenarioTests {
    private func yaml(_ steps: String) -> String {
        """
        summary: A list of notes showing each note's folder.
        store:
          group: group.example.notes
          name: Notes
          model:
            Note:
              title: string
              folder: Folder?
            Folder:
              name: string
              notes: [Note]
        processes:
          app: { role: host, refresh: none }
          share: { role: share }
        steps:
          - share: launch
          - share: { insert: Folder, id: f1, set: { name: A } }
          - share: { insert: Note, id: n1, set: { title: x } }
          - share: { relate: n1, to: f1, via: folder }
          - share: save
          - app: launch
        \(steps)
        """
    }

    @Test func prefetchDecodesAndWritesBack() throws {
        let scenario = try ScenarioLoader.parse(yaml: yaml("  - app: { fetch: Folder, prefetch: [notes, notes.folder] }"), file: "f.yaml")
        let step = scenario.steps.last!
        #expect(step.step == .fetch(entity: "Folder", predicate: nil, sort: [], options: FetchOptions(prefetch: ["notes", "notes.folder"])))
        #expect(try StepWriter.line(step) == "app: { fetch: Folder, prefetch: [notes, notes.folder] }")
        let single = try ScenarioLoader.parse(yaml: yaml("  - app: { fetch: Note, prefetch: folder }"), file: "f.yaml")
        #expect(single.steps.last!.step == .fetch(entity: "Note", predicate: nil, sort: [], options: FetchOptions(prefetch: ["folder"])))
    }

    @Test(arguments: [
        ("{ fetch: Note, prefetch: [title] }", "Note has no relationship 'title'"),
        ("{ fetch: Note, prefetch: [folder.nots] }", "Folder has no relationship 'nots'"),
        ("{ fetch: Note, prefetch: [] }", "prefetches nothing"),
        ("{ fetch: Note, prefetch: \"..\" }", "a key path with an empty step"),
        ("{ fetch: Note, prefetch: \"folder.\" }", "a key path with an empty step"),
        ("{ fetch: Note, prefetch: [[folder]] }", "expected a name in the relationships to prefetch"),
        ("{ fetch: Note, prefetch: \"földer\" }", "did you mean 'folder'"),
    ])
    func misusedPrefetchIsRefusedWithItsPosition(step: String, message: String) throws {
        let errors = #expect(throws: ScenarioErrors.self) {
            try ScenarioLoader.parse(yaml: yaml("  - app: \(step)"), file: "f.yaml")
        }
        // The step is the file's 22nd line; one error, the one that says what is wrong.
        #expect(errors?.errors.count == 1, "\(String(describing: errors))")
        #expect(errors?.errors.contains { $0.message.contains(message) && $0.line == 22 } == true, "\(String(describing: errors))")
    }

    /// With the folder prefetched, its row is cached at the fetch and its fault fires from it at the default
    /// staleness: the share's rename is a stale read. Fetched after the rename instead, it shows it.
    @Test(arguments: [true, false], RunMode.allCases)
    func aPrefetchedFolderShowsItsNameAtTheFetch(prefetch: Bool, mode: RunMode) throws {
        let outcome = try RunHarness.single(yaml("""
              - app: { fetch: Note\(prefetch ? ", prefetch: [folder]" : "") }
              - share: { update: f1, set: { name: B } }
              - share: save
              - share: exit
            \(prefetch ? "" : "  - app: { fetch: Folder }")
              - app: { read: f1, expect: { name: B }, now: true }
            """), mode: mode)
        #expect(outcome.harnessError == nil)
        let kinds = Set(TraceChecker.check(outcome.trace).anomalies.map(\.kind))
        #expect(kinds.contains(.staleRead) == prefetch, "\(kinds)")
    }
}
