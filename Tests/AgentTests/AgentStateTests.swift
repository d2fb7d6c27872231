import Basics
import SharedStore
import Testing
@testable import Agent

/// The agent's value-type state, without a store.
@Suite struct AgentStateTests {
    private let note1 = ObjectID(entity: "Note", primaryKey: 1, storeIdentifier: "S")
    private let note2 = ObjectID(entity: "Note", primaryKey: 2, storeIdentifier: "S")

    @Test func identitiesBindBothWaysAndRebind() {
        var ids = ObjectIdentities()
        ids.bind("n1", to: note1)
        #expect(ids["n1"] == note1 && ids.name(of: note1) == "n1")
        ids.bind("n1", to: note2)
        #expect(ids["n1"] == note2)
        #expect(ids.name(of: note1) == "Note#1", "the old row loses the name")
    }

    @Test func anAliasNamesARowWithoutRebindingTheName() {
        var ids = ObjectIdentities()
        ids.bind("n1", to: note1)
        ids.alias("n1", to: note2)
        #expect(ids["n1"] == note1)
        #expect(ids.name(of: note2) == "n1")
    }

    @Test func temporaryIDsBecomePermanentOrAreForgotten() {
        var ids = ObjectIdentities()
        let temporary = ObjectID(entity: "Note", primaryKey: -1, storeIdentifier: "S")
        let other = ObjectID(entity: "Note", primaryKey: -2, storeIdentifier: "S")
        ids.bind("n1", to: temporary)
        ids.bind("n2", to: other)
        ids.makePermanent([temporary: note1])
        #expect(ids["n1"] == note1 && ids.name(of: note1) == "n1")
        ids.forgetTemporary()
        #expect(ids["n2"] == nil)
        #expect(ids["n1"] == note1)
    }

    @Test func commitTimesSpanTheFirstStartToTheLastEnd() {
        var times = CommitTimes()
        #expect(times.interval == nil)
        times.observe(.willCommit, at: 10)
        #expect(times.interval == nil, "no commit completed yet")
        times.observe(.didCommit, at: 12)
        times.observe(.willCommit, at: 20)
        times.observe(.didCommit, at: 25)
        #expect(times.interval?.start == 10 && times.interval?.end == 25)
        times.reset()
        #expect(times.interval == nil)
    }
}
