import Basics
import Checkers
import Foundation
import Runner
import Testing
import TestSupport
import Trace

/// A scenario whose model declares sub-entities, run by real processes: another process's insert of a
/// sub-entity reaches the app through history, and a fetch of the abstract parent shows every kind.
@Suite(.serialized, .spawnsProcesses) struct InheritanceRunTests {
    static let yaml = """
        summary: The share extension adds a graphic novel; the app's list of every item shows it next to the book.
        store:
          group: group.t
          name: Books
          model:
            Item: { abstract-entity: true, title: string, shelf: Shelf? }
            Book: { parent-entity: Item, pages: int = 0 }
            GraphicNovel: { parent-entity: Book, artist: string? }
            Shelf: { name: string, items: [Item] }
        processes:
          app: { role: host, refresh: history }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Shelf, id: s1, set: { name: Top } }
          - app: { insert: Book, id: b1, set: { title: Dune, pages: 412 } }
          - app: { relate: b1, to: s1, via: shelf }
          - app: save
          - app: { fetch: Item }
          - share: launch
          - share: { insert: GraphicNovel, id: g1, set: { title: Watchmen, pages: 416, artist: Gibbons } }
          - share: { relate: s1, to: g1, via: items }
          - share: { update: b1, set: { pages: 413 } }
          - share: save
          - share: exit
          - app: { count: Item, expect: 2, within: 2s }
          - app: { count: Book, where: "pages > 412", expect: 2, within: 2s }
          - app: { count: GraphicNovel, expect: 1, within: 2s }
          - app: { read: g1, expect: { title: Watchmen, artist: Gibbons, shelf: s1 }, within: 2s }
          - app: { read: s1, expect: { items: [b1, g1] }, within: 2s }
          - app: { delete: g1 }
          - app: save
          - app: { count: Item, expect: 1, now: true }
        """

    @Test(arguments: RunMode.allCases)
    func aSubEntityInsertedElsewhereReachesTheApp(mode: RunMode) throws {
        let outcome = try RunHarness.single(Self.yaml, mode: mode)
        #expect(outcome.harnessError == nil, "\(String(describing: outcome.harnessError))")
        let result = TraceChecker.check(outcome.trace)
        #expect(result.verdict.matched, "\(result.anomalies.map(\.explanation))")
    }
}
