import Basics
import Foundation
import Testing
import Trace
@testable import Agent

/// One agent, driven in-process: what each command does to the store, the trace and the reply.
@Suite struct AgentCommandTests {
    private func insert(_ harness: AgentHarness, _ id: String, title: String, rank: Int64, score: Double) {
        harness.send("app", .insert(entity: "Note", id: id, values: ["title": .string(title), "rank": .int(rank), "score": .double(score)]))
    }

    private func predicate(_ text: String) throws -> FetchPredicate {
        try FetchPredicate(parsing: text, entity: AgentHarness.model.entity(named: "Note"))
    }

    @Test func aSaveRepliesWithTheInsertedRowsAndRecordsTheCommit() throws {
        let harness = try AgentHarness()
        try harness.start("app")
        insert(harness, "n1", title: "A", rank: 1, score: 0.5)
        let reply = harness.send("app", .save)
        #expect(reply.status == .ok)
        #expect(reply.inserted["n1"]?.entity == "Note")
        let commits = try harness.events(of: "app").compactMap { event -> SaveCommit? in
            if case .saveCommitted(let commit) = event.kind { commit } else { nil }
        }
        #expect(commits.map(\.objects.first?.id) == ["n1"])
        #expect(commits.first?.source == .save)
    }

    /// The predicates the runner once printed back to text and could not parse again now travel as
    /// trees: exponents, quotes inside text, IN lists, in fetch, count and batch commands.
    @Test func predicatesWorkInCountFetchAndBatchCommands() throws {
        let harness = try AgentHarness()
        // Staleness 0: the refresh after the batch update (which bypasses the context) reads the rows again.
        try harness.start("app") { $0.staleness = .interval(.zero) }
        insert(harness, "n1", title: "a\"b", rank: 1, score: 0.000001)
        insert(harness, "n2", title: "plain", rank: 2, score: 0.5)
        insert(harness, "n3", title: "other", rank: 3, score: 2)
        harness.send("app", .save)
        let cases: [(String, Int)] = [("score < 0.00001", 1), ("title == 'a\"b'", 1), ("rank IN {2, 3}", 2), ("score < 1e-05 OR rank IN [3]", 2)]
        for (text, expected) in cases {
            harness.send("app", .fetch(entity: "Note", predicate: try predicate(text), sort: [SortKey(attribute: "rank")]))
            let reply = harness.send("app", .count(entity: "Note", expected: expected, predicate: try predicate(text), timing: .now))
            #expect(reply.status == .ok, "\(text)")
        }
        #expect(try harness.checks(of: "app").map(\.passed) == [true, true, true, true])

        #expect(harness.send("app", .batchUpdate(entity: "Note", predicate: try predicate("rank IN {1, 2}"), values: ["score": .double(9)])).status == .ok)
        harness.send("app", .refreshAll)
        harness.send("app", .count(entity: "Note", expected: 2, predicate: try predicate("score == 9"), timing: .now))
        #expect(harness.send("app", .batchDelete(entity: "Note", predicate: try predicate("title == 'a\"b'"))).deleted == ["n1"])
        #expect(try harness.checks(of: "app").map(\.passed) == [true, true, true, true, true])
    }

    @Test func anUnknownIDFailsAsNotFoundUnlessTheStepExpectsIt() throws {
        let harness = try AgentHarness()
        try harness.start("app")
        let failed = harness.send("app", .update(id: "n9", values: ["title": .string("B")]))
        #expect(failed.status == .failed)
        #expect(failed.error?.kind == .notFound)
        let expected = harness.send("app", .delete(id: "n9"), expectError: .notFound)
        #expect(expected.status == .ok)
        #expect(expected.error?.expected == true)
    }

    @Test func anExpectedErrorThatDoesNotHappenIsAFailedCheck() throws {
        let harness = try AgentHarness()
        try harness.start("app")
        insert(harness, "n1", title: "A", rank: 1, score: 0)
        #expect(harness.send("app", .save, expectError: .conflict).status == .ok)
        let checks = try harness.checks(of: "app")
        #expect(checks.map(\.kind) == [.expectError])
        #expect(checks.first?.passed == false)
    }

    @Test func theLockStateNamesAHeldWriteUntilItEnds() throws {
        let harness = try AgentHarness()
        try harness.start("app")
        #expect(harness.send("app", .lockState).lock == nil)
        harness.send("app", .beginWrite)
        #expect(harness.send("app", .lockState).lock == .beginWrite)
        insert(harness, "n1", title: "A", rank: 1, score: 0)
        let saved = harness.send("app", .save)
        #expect(saved.inserted.isEmpty, "a save inside begin-write is not committed yet")
        let ended = harness.send("app", .endWrite)
        #expect(ended.inserted["n1"] != nil)
        #expect(harness.send("app", .lockState).lock == nil)
        harness.send("app", .pinGeneration(from: nil))
        // The pinned generation's read transaction starts at the first read after pinning.
        harness.send("app", .fetch(entity: "Note", predicate: nil, sort: []))
        #expect(harness.send("app", .lockState).lock == .pinnedRead)
    }

    @Test func aCopyKeepsWhatTheStoreHeldWhenItWasTaken() throws {
        let harness = try AgentHarness()
        try harness.start("app")
        insert(harness, "n1", title: "A", rank: 1, score: 0)
        harness.send("app", .save)
        #expect(harness.send("app", .copyStore(name: "before", withWAL: true)).status == .ok)
        insert(harness, "n2", title: "B", rank: 2, score: 0)
        harness.send("app", .save)
        #expect(harness.send("app", .openCopy(name: "before")).status == .ok)
        harness.send("app", .fetch(entity: "Note", predicate: nil, sort: []))
        harness.send("app", .count(entity: "Note", expected: 1, predicate: nil, timing: .now))
        #expect(try harness.checks(of: "app").map(\.passed) == [true])
    }

    @Test func aCopyMayNotTakeAnAbsentStoreName() throws {
        let harness = try AgentHarness()
        try harness.start("app")
        let reply = harness.send("app", .openCopy(name: "never-taken"))
        #expect(reply.status == .failed)
    }
}
