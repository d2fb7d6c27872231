import Basics
import Foundation
import ScenarioModel
import SharedStore
import Testing
@testable import Agent

/// A declared context's own `transactionAuthor`, `mergePolicy` and `stalenessInterval`; the process's
/// where it names none.
@Suite struct AgentContextTests {
    @Test func aDeclaredContextTakesItsOwnSettingsAndTheProcesssOtherwise() throws {
        let harness = try AgentHarness()
        let zero = try Duration(parsing: "0s")
        let agent = try harness.start("app") { settings in
            settings.mergePolicy = .error
            settings.staleness = .infinite
            settings.contexts = [
                ContextDeclaration(name: "sync", author: .named("cloud-sync"), mergePolicy: .objectTrump,
                                   staleness: .interval(zero)),
                ContextDeclaration(name: "quiet", author: TransactionAuthor.none),
                ContextDeclaration(name: "plain"),
            ]
        }
        let sync = agent.namedContext("sync", author: nil)
        #expect(sync.transactionAuthor == "cloud-sync")
        #expect(sync.mergePolicy == .objectTrump)
        #expect(sync.stalenessInterval == 0)
        #expect(agent.namedContext("quiet", author: nil).transactionAuthor == nil)
        let plain = agent.namedContext("plain", author: nil)
        #expect(plain.transactionAuthor == "app")
        #expect(plain.mergePolicy == .error)
        #expect(plain.stalenessInterval == -1)
        // A step's own author (an App Intent's) wins over the declaration's.
        #expect(agent.namedContext("intent", author: "AddNote").transactionAuthor == "AddNote")
    }

    @Test func aSaveThroughTheContextIsAuthoredByIt() throws {
        let harness = try AgentHarness()
        let agent = try harness.start("app") { settings in
            settings.historyTracking = true
            settings.contexts = [ContextDeclaration(name: "sync", author: .named("cloud-sync"))]
        }
        var request = AgentRequest(seq: 100, step: 100, command: .perform(.insert(entity: "Note", id: "n1", values: ["title": .string("A"), "rank": .int(1), "score": .double(0)])))
        request.context = "sync"
        agent.handle(request)
        request = AgentRequest(seq: 101, step: 101, command: .perform(.save))
        request.context = "sync"
        agent.handle(request)
        let history = try agent.coordinator.fetchHistory(after: nil)
        #expect(history.transactions.map(\.author) == ["cloud-sync"])
    }
}
