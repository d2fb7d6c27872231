import Agent
@testable import Runner
import Testing

/// The runner's record of which row each scenario id names, without processes.
@Suite struct ObjectRegistryTests {
    private let store = "group:g"
    private func ref(_ pk: Int64) -> ObjectRef { ObjectRef(entity: "Note", pk: pk) }

    @Test func aFirstInsertNamesItsRow() {
        var registry = ObjectRegistry()
        registry.learn(AgentReply(seq: 1, status: .ok, inserted: ["n1": ref(1)]), in: store)
        #expect(registry.rows[store]?["n1"] == ref(1))
        #expect(registry.live[store] == ["n1"])
        #expect(registry.names(in: store) == [ref(1): ["n1"]])
    }

    /// The same id inserted again while its first row lives is a duplicate: the first keeps the name.
    @Test func aSecondRowOfALiveIDIsADuplicate() {
        var registry = ObjectRegistry()
        registry.learn(AgentReply(seq: 1, status: .ok, inserted: ["n1": ref(1)]), in: store)
        registry.learn(AgentReply(seq: 2, status: .ok, inserted: ["n1": ref(2)]), in: store)
        #expect(registry.rows[store]?["n1"] == ref(1))
        #expect(registry.aliases[store]?[ref(2)] == "n1")
    }

    /// Inserted again after its row was deleted, the id names the new row; the old row keeps it as an alias.
    @Test func anIDInsertedAgainAfterItsDeleteNamesTheNewRow() {
        var registry = ObjectRegistry()
        registry.learn(AgentReply(seq: 1, status: .ok, inserted: ["n1": ref(1)]), in: store)
        registry.learn(AgentReply(seq: 2, status: .ok, deleted: ["n1"]), in: store)
        #expect(registry.live[store]?.isEmpty == true)
        registry.learn(AgentReply(seq: 3, status: .ok, inserted: ["n1": ref(2)]), in: store)
        #expect(registry.rows[store]?["n1"] == ref(2))
        #expect(registry.aliases[store]?[ref(1)] == "n1")
    }

    @Test func globalIdentifiersAccumulateOnce() {
        var registry = ObjectRegistry()
        registry.learn(AgentReply(seq: 1, status: .ok, globalIDs: ["n1": "G1"]), in: store)
        registry.learn(AgentReply(seq: 2, status: .ok, globalIDs: ["n1": "G1"]), in: "own:watch")
        registry.learn(AgentReply(seq: 3, status: .ok, globalIDs: ["n1": "G2"]), in: "own:watch")
        #expect(registry.globalIDs["n1"] == ["G1", "G2"])
    }

    @Test func storesAreKeptApart() {
        var registry = ObjectRegistry()
        registry.learn(AgentReply(seq: 1, status: .ok, inserted: ["n1": ref(1)]), in: store)
        registry.learn(AgentReply(seq: 1, status: .ok, inserted: ["n1": ref(7)]), in: "own:watch")
        #expect(registry.rows[store]?["n1"] == ref(1) && registry.rows["own:watch"]?["n1"] == ref(7))
    }
}
