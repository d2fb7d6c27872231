import Basics
import Checkers
import Foundation
import Runner
import Testing
import TestSupport

/// Declared contexts end to end: a child of the view context and a child of that child, a background
/// context that merges, inserts and edits pushed up one level at a time, and another process that sees
/// them only once the view context saves; in both modes.
@Suite(.serialized, .spawnsProcesses) struct NestedContextEndToEndTests {
    static let yaml = """
        summary: Declared contexts, nested two deep, with another process reading the store.
        store:
          group: group.t
          name: Notes
          model:
            Note: { title: string }
        processes:
          app:
            role: host
            contexts:
              editor: { parent: view }
              sheet: { parent: editor }
              importer: { automatically-merges: true }
          share: { role: share, refresh: staleness, staleness: 0 }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - app: { update: n1, set: { title: edited in the view } }
          - app: { fetch: Note, context: sheet }
          - app: { read: n1, expect: { title: edited in the view }, now: true, context: sheet }
          - app: { insert: Note, id: n2, set: { title: made in the sheet }, context: sheet }
          - app: { update: n1, set: { title: B }, context: sheet }
          - app: { save: true, context: sheet }
          - app: { count: Note, expect: 1 }
          - app: { fetch: Note, context: editor }
          - app: { count: Note, expect: 2, context: editor }
          - app: { read: n1, expect: { title: B }, now: true, context: editor }
          - app: { save: true, context: editor }
          - share: launch
          - share: { fetch: Note }
          - share: { count: Note, expect: 1 }
          - app: save
          - share: { fetch: Note }
          - share: { count: Note, expect: 2 }
          - share: { read: n1, expect: { title: B } }
          - app: { update: n2, set: { title: imported }, context: importer }
          - app: { save: true, context: importer }
          - app: { read: n2, expect: { title: imported }, now: true, context: importer }
          - app: { refresh: n2 }
          - app: { read: n2, expect: { title: imported }, now: true }
          - share: exit
        """

    @Test(arguments: RunMode.allCases)
    func childSavesReachTheStoreOnlyThroughTheViewContext(mode: RunMode) throws {
        let outcome = try RunHarness.single(Self.yaml, mode: mode)
        #expect(outcome.harnessError == nil, "\(String(describing: outcome.harnessError))")
        let result = TraceChecker.check(outcome.trace)
        #expect(result.verdict.matched, "\(result.anomalies.map(\.explanation))")
        let notes = outcome.trace.events.compactMap { event -> String? in
            if case .note(let text) = event.kind { return text }
            return nil
        }
        #expect(notes.contains { $0.hasPrefix("sheet saved into its parent context editor") }, "\(notes)")
        #expect(notes.contains { $0.hasPrefix("editor saved into its parent context viewContext") }, "\(notes)")
    }

    /// No false lost update: a child that edits its object again after its own edit reached the store, and
    /// a stale child that edits another property than the one changed elsewhere.
    static let noLostUpdate = """
        summary: Edits through a child after its own save, and a stale child editing another property.
        store:
          group: group.t
          name: Notes
          model:
            Note: { title: string, body: string? }
        processes:
          app:
            role: host
            refresh: history
            trigger: manual
            contexts:
              editor: { parent: view }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A }, context: editor }
          - app: { save: true, context: editor }
          - app: save
          - app: { update: n1, set: { title: B }, context: editor }
          - app: { save: true, context: editor }
          - app: save
          - app: { fetch: Note }
          - app: { fetch: Note, context: editor }
          - app: { read: n1, expect: { title: B }, now: true, context: editor }
          - share: launch
          - share: { fetch: Note }
          - share: { update: n1, set: { title: S } }
          - share: save
          - share: exit
          - app: run-refresh
          - app: { read: n1, expect: { title: S }, now: true }
          - app: { update: n1, set: { body: edited }, context: editor }
          - app: { save: true, context: editor }
          - app: save
          - app: { read: n1, expect: { title: S, body: edited }, now: true }
        """

    @Test(arguments: RunMode.allCases)
    func editsThroughAChildLoseNoUpdate(mode: RunMode) throws {
        let outcome = try RunHarness.single(Self.noLostUpdate, mode: mode)
        #expect(outcome.harnessError == nil, "\(String(describing: outcome.harnessError))")
        let result = TraceChecker.check(outcome.trace)
        #expect(result.verdict.matched, "\(result.anomalies.map(\.explanation))")
    }

    /// What a child pushed is charged to the context it went into, not to every context of the process:
    /// the view context's save overwrites the share's rename with the editor's stale title (a lost update,
    /// whatever another context saves in between), and a background context that read the rename and sets
    /// its own title loses nothing (one lost update, not two).
    static let pushedIntoTheView = """
        summary: A stale push waits in the view context while a background context saves.
        store:
          group: group.t
          name: Notes
          model:
            Note: { title: string, body: string? }
        processes:
          app:
            role: host
            refresh: history
            automatically-merges: true
            contexts:
              editor: { parent: view }
              importer: {}
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: Draft } }
          - app: save
          - app: { fetch: Note, context: editor }
          - app: { read: n1, expect: { title: Draft }, now: true, context: editor }
          - share: launch
          - share: { fetch: Note }
          - share: { update: n1, set: { title: Renamed } }
          - share: save
          - share: exit
          - app: { read: n1, expect: { title: Renamed } }
          - app: { update: n1, set: { title: Typed in the editor }, context: editor }
          - app: { save: true, context: editor }
          - app: { fetch: Note, context: importer }
          - app: { read: n1, expect: { title: Renamed }, now: true, context: importer }
          - app: { update: n1, set: { title: Chosen in the importer }, context: importer }
          - app: { save: true, context: importer }
          - app: { save: true, only-in: [view-saves] }
        variants:
          view-saves: { expect: { lost-update: 1 } }
          view-keeps-it: { expect: { not-converged: 1, lost-update: 0 } }   # its screen shows the unsaved title
        """

    @Test(arguments: RunMode.allCases)
    func aPushIsChargedToTheContextItWentInto(mode: RunMode) throws {
        for outcome in try RunHarness.run(Self.pushedIntoTheView, mode: mode) {
            #expect(outcome.harnessError == nil, "\(String(describing: outcome.harnessError))")
            let result = TraceChecker.check(outcome.trace)
            #expect(result.verdict.matched, "\(outcome.plan.run.variant): \(result.anomalies.map(\.explanation))")
        }
    }

    /// A read through a step's context reaches the object by ID (`existingObject(with:)`; from the
    /// parent, for a child), as code using a context without a screen does: no missed insert.
    @Test(arguments: ["editor: { parent: view }", "importer: {}"], RunMode.allCases)
    func aReadThroughAContextReachesTheObjectByID(declaration: String, mode: RunMode) throws {
        let name = declaration.split(separator: ":")[0]
        let outcome = try RunHarness.single("""
            summary: A read by id through a context that never fetched.
            store:
              group: group.t
              name: Notes
              model:
                Note: { title: string }
            processes:
              app:
                role: host
                contexts: { \(declaration) }
            steps:
              - app: launch
              - app: { insert: Note, id: n1, set: { title: A } }
              - app: save
              - app: { fetch: Note }
              - app: { read: n1, expect: { title: A }, now: true, context: \(name) }
            """, mode: mode)
        #expect(outcome.harnessError == nil)
        let result = TraceChecker.check(outcome.trace)
        #expect(result.anomalies.isEmpty, "\(result.anomalies.map(\.explanation))")
    }

    /// A child refreshes an object and fires it again from its parent, which holds an unsaved edit: the
    /// child reads the edit, as Core Data's does, and the read is the process's own unsaved value, not a
    /// phantom read (the child's refresh had cleared the record of the view context's edit).
    @Test(arguments: RunMode.allCases)
    func aChildsRefreshKeepsTheParentsUnsavedEditItsOwn(mode: RunMode) throws {
        let outcome = try RunHarness.single("""
            summary: A child fires an object again from a parent holding an unsaved edit.
            store:
              group: group.t
              name: Notes
              model:
                Note: { title: string }
            processes:
              app: { role: host, contexts: { editor: { parent: view } } }
            steps:
              - app: launch
              - app: { insert: Note, id: n1, set: { title: A } }
              - app: save
              - app: { fetch: Note }
              - app: { read: n1, expect: { title: A }, now: true, context: editor }
              - app: { update: n1, set: { title: B } }
              - app: { refresh: n1, merge: false, context: editor }
              - app: { read: n1, expect: { title: B }, now: true, context: editor }
              - app: save
            """, mode: mode)
        #expect(outcome.harnessError == nil)
        let result = TraceChecker.check(outcome.trace)
        #expect(result.verdict.matched, "\(result.anomalies.map(\.explanation))")
    }

    /// A background context pinned with the view context's token (`setQueryGenerationFrom(view.queryGenerationToken)`)
    /// reads what the view reads while another process saves: both show the old title, judged as reads of an
    /// older query generation; unpinned, the importer reads the store.
    @Test(arguments: RunMode.allCases)
    func aBackgroundContextPinnedFromTheViewsTokenReadsTheViewsGeneration(mode: RunMode) throws {
        let outcome = try RunHarness.single("""
            summary: An importer shares the view's query generation.
            store:
              group: group.t
              name: Notes
              model:
                Note: { title: string }
            processes:
              app: { role: host, contexts: { importer: { staleness: 0 } }, refresh: none }
              share: { role: share }
            steps:
              - app: launch
              - app: { insert: Note, id: n1, set: { title: A } }
              - app: save
              - app: { pin-generation: current }
              - app: { fetch: Note }
              - app: { pin-generation: view, context: importer }
              - share: launch
              - share: { update: n1, set: { title: B } }
              - share: save
              - app: { refresh: n1, context: importer }
              - app: { read: n1, expect: { title: A }, now: true, context: importer }
              - app: { unpin-generation: true, context: importer }
              - app: { refresh: n1, context: importer }
              - app: { read: n1, expect: { title: B }, now: true, context: importer }
              - app: unpin-generation
            expect: [stale-read]
            """, mode: mode)
        #expect(outcome.harnessError == nil, "\(String(describing: outcome.harnessError))")
        #expect(outcome.checks.map(\.passed) == [true, true])
        let result = TraceChecker.check(outcome.trace)
        #expect(result.verdict.matched, "\(result.anomalies.map(\.explanation))")
        let stale = result.anomalies.filter { $0.kind == .staleRead }
        #expect(stale.count == 1 && stale[0].explanation.contains("query generation"), "\(stale.map(\.explanation))")
    }
}

