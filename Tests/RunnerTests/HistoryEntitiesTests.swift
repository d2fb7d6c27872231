import Basics
import Checkers
import Foundation
import Runner
import ScenarioModel
import Testing
import TestSupport
import Trace

/// `history-entities`: a history merge that keeps only some entities' changes (a history fetch request
/// on the change's entity) misses what another process changed in the others.
@Suite(.serialized, .spawnsProcesses) struct HistoryEntitiesTests {
    static let yaml = """
        summary: The app merges only Note changes from history; the share extension renames a folder.
        store:
          group: group.example.notes
          name: Notes
          model:
            Folder: { name: string }
            Note: { title: string }
        processes:
          app: { role: host, refresh: history, history-entities: [Note] }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Folder, id: f1, set: { name: Inbox } }
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - app: { fetch: Folder }
          - app: { fetch: Note }
          - share: launch
          - share: { update: f1, set: { name: Archive } }
          - share: { update: n1, set: { title: B } }
          - share: save
          - app: { read: n1, expect: { title: B }, within: 2s }
          - app: { read: f1, now: true }
        variants:
          notes-only: { expect: [stale-read] }
          every-entity:
            app: { history-entities: [Folder, Note] }
            expect: pass
        """

    @Test func theSettingDecodesWritesBackAndRefusesAnUnknownEntity() throws {
        let scenario = try ScenarioLoader.parse(yaml: Self.yaml, file: "h.yaml")
        #expect(scenario.processes[0].settings.historyEntities == ["Note"])
        #expect(try ScenarioWriter.file(name: "w", summary: "W.", comment: [], storeSource: Self.yaml,
                                        processes: [RunProcess(name: "app", settings: scenario.processes[0].settings, seed: 1)],
                                        steps: [], expectation: .pass, seed: 1).contains("history-entities: [Note]"))
        let wrong = Self.yaml.replacingOccurrences(of: "history-entities: [Note] }", with: "history-entities: [Note, Foldr] }")
        do {
            _ = try ScenarioLoader.parse(yaml: wrong, file: "h.yaml")
            Issue.record("an unknown entity must be refused")
        } catch {
            #expect("\(error)".contains("history-entities names 'Foldr', which is no entity of the model; did you mean 'Folder'?"), "\(error)")
        }
    }

    @Test(arguments: RunMode.allCases)
    func aMergeOfNotesOnlyMissesTheFolderRename(mode: RunMode) throws {
        for variant in ["notes-only", "every-entity"] {
            let outcome = try RunHarness.single(Self.yaml, variant: variant, mode: mode)
            #expect(outcome.harnessError == nil)
            let result = TraceChecker.check(outcome.trace)
            #expect(result.verdict.matched, "\(variant): \(result.anomalies.map(\.explanation))")
            if variant == "notes-only" {
                #expect(result.anomalies.contains { $0.kind == .staleRead && $0.object == "f1" }, "the folder's rename is what it misses")
            }
        }
    }
}
