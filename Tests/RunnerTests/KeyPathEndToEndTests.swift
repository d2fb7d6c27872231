import Basics
import Checkers
import Foundation
import Runner
import Testing
import TestSupport

/// Key paths in `where:` end to end (one relationship and longer): counts over the view, fetches, a relate saved by another process,
/// and a batch delete by a key path, in both modes.
@Suite(.serialized, .spawnsProcesses) struct KeyPathEndToEndTests {
    static let yaml = """
        summary: Key paths in where, counts and batch deletes, with a relate in another process.
        store:
          group: group.t
          name: Notes
          model:
            Note: { title: string, tags: [Tag], folder: Folder? }
            Tag: { name: string, notes: [Note] }
            Folder: { name: string, notes: [Note] }
        processes:
          app: { role: host, refresh: history }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Folder, id: f1, set: { name: Work } }
          - app: { insert: Tag, id: t1, set: { name: urgent } }
          - app: { insert: Tag, id: t2, set: { name: later } }
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: { insert: Note, id: n2, set: { title: B } }
          - app: { insert: Note, id: n3, set: { title: C } }
          - app: { relate: n1, to: t1, via: tags }
          - app: { relate: n1, to: t2, via: tags }
          - app: { relate: n2, to: t2, via: tags }
          - app: { relate: n1, to: f1, via: folder }
          - app: save
          - app: { fetch: Note }
          - app: { count: Note, where: "ANY tags.name == 'urgent'", expect: 1 }
          - app: { count: Note, where: "tags.@count >= 1", expect: 2 }
          - app: { count: Note, where: "ALL tags.name == 'later'", expect: 2 }
          - app: { count: Note, where: "NONE tags.name == 'later'", expect: 1 }
          - app: { count: Note, where: "folder.name == 'Work'", expect: 1 }
          - app: { count: Note, where: "folder == nil", expect: 2 }
          - app: { count: Note, where: "NOT (folder == nil) AND tags.@count == 2", expect: 1 }
          - app: { count: Note, where: "ANY tags.notes.title == 'B'", expect: 2 }
          - app: { count: Tag, where: "ANY notes.folder.name == 'Work'", expect: 2 }
          - app: { count: Note, where: "NONE tags.notes.folder.name == 'Work'", expect: 1 }
          - app: { fetch: Note, where: "tags.@count == 0" }
          - app: { count: Note, where: "tags.@count == 0", expect: 1 }
          - share: launch
          - share: { fetch: Note, where: "ANY tags.name IN {'urgent', 'x'}" }
          - share: { count: Note, expect: 1 }
          - share: { relate: n3, to: t1, via: tags }
          - share: save
          - app: { fetch: Note, where: "ANY tags.name == 'urgent'" }
          - app: { count: Note, where: "ANY tags.name == 'urgent'", expect: 2 }
          - share: { batch-delete: Note, where: "ANY tags.name == 'later'" }
          - app: merge-history                        # a batch delete posts no notification; its history says
          - app: { count: Note, where: "tags.@count == 1", expect: 1 }   # n3, tagged urgent by the share extension
          - app: { fetch: Note, where: "ANY tags.notes.title == 'C'" }
          - app: { count: Note, where: "ANY tags.notes.title == 'C'", expect: 1 }
          - share: exit
        """

    @Test(arguments: RunMode.allCases)
    func keyPathsSelectTheSameObjectsInEveryLayer(mode: RunMode) throws {
        let outcome = try RunHarness.single(Self.yaml, mode: mode)
        #expect(outcome.harnessError == nil, "\(String(describing: outcome.harnessError))")
        let result = TraceChecker.check(outcome.trace)
        #expect(result.verdict.matched, "\(result.anomalies.map(\.explanation))")
    }
}
