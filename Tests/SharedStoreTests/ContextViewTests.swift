import Testing
@testable import SharedStore

/// A view's membership answers from an index of its lists, kept right as lists are replaced, rows removed
/// and temporary IDs made permanent (a final view asks it once per row a fetch returns).
@Suite struct ContextViewTests {
    private func id(_ key: Int64) -> ObjectID { ObjectID(entity: "Note", primaryKey: key, storeIdentifier: "S") }

    /// Which of `keys` the view shows (`contains` rebuilds a stale index, so it mutates).
    private func shown(_ view: inout ContextView, _ keys: [Int64]) -> [Int64] { keys.filter { view.contains(id($0)) } }

    @Test func membershipFollowsTheListsAsTheyChange() {
        var view = ContextView()
        view.setList("all", (1...1000).map(id))
        #expect(shown(&view, [500, 1001]) == [500])
        view.setList("all", [id(1001)])
        #expect(shown(&view, [500, 1001]) == [1001])
        view.setList("pinned", [id(7)])
        view.remove([id(7)])
        #expect(shown(&view, [7, 1001]) == [1001])
        view.add(id(9))
        #expect(shown(&view, [9]) == [9])
        view.clear()
        #expect(shown(&view, [1001, 9]).isEmpty)
    }

    @Test func aListedInsertIsFoundByItsPermanentIDAfterTheSave() {
        var view = ContextView()
        let temporary = id(-1)
        #expect(temporary.isTemporary)
        view.setList("all", [id(1), temporary])
        #expect(shown(&view, [-1]) == [-1])
        view.remap(TemporaryKeyMap(temporary: [-1], permanent: [2]))
        #expect(shown(&view, [1, 2, -1]) == [1, 2])
    }
}
