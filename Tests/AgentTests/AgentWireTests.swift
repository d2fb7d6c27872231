import Basics
import Foundation
import ScenarioModel
import Testing
import Trace
@testable import Agent

/// What crosses the process boundary: every command, a full request, a full reply and a config come
/// back from `AgentWire` equal to what was sent.
@Suite struct AgentWireTests {
    static let values: [String: Value] = [
        "title": .string("a \"b\"\n"), "rank": .int(-3), "score": .double(0.1), "done": .bool(true), "gone": .null,
        "due": .date(Date(timeIntervalSince1970: 1_700_000_000.25)), "key": .uuid(UUID(uuidString: "6F9619FF-8B86-D011-B42D-00CF4FC964FF")!),
    ]

    static func commands() throws -> [AgentCommand] {
        let predicate = try FetchPredicate(parsing: "rank > 2 AND title BEGINSWITH 'a'", entity: AgentHarness.model.entity(named: "Note"))
        let steps: [Step] = [
            .insert(entity: "Note", id: "n1", values: values), .update(id: "n1", values: values), .delete(id: "n1"),
            .toggle(id: "n1", property: "done", reads: .context),
            .relate(id: "n1", to: "n2", via: "tags"), .unrelate(id: "n1", from: "n2", via: "tags"), .save, .rollback, .reset,
            .autosave(changedAt: 3),
            .fetch(entity: "Note", predicate: predicate, sort: [SortKey(attribute: "rank", ascending: false)],
                   options: FetchOptions(limit: 3, includesPendingChanges: false, returnsObjectsAsFaults: false)),
            .fetch(entity: "Note", predicate: nil, sort: []), .refreshAll, .refresh(id: "n1", mergeChanges: true), .runRefresh,
            .batchInsert(entity: "Note", count: 5, values: values), .batchUpdate(entity: "Note", predicate: predicate, values: values),
            .batchDelete(entity: "Note", predicate: nil), .pinGeneration(from: nil), .pinGeneration(from: "view"), .unpinGeneration, .beginWrite, .endWrite, .mergeHistory,
            .purgeHistory(policy: .olderThan(.seconds(3)), expectDeleted: 2), .purgeHistory(policy: nil), .purgeHistory(policy: .consumedByAll),
            .post(name: "com.example.changed"), .observe, .deliver, .checkpoint, .copyStore(name: "backup", withWAL: true), .openCopy(name: "backup"),
            .sync, .leech,
            .read(id: "n1", expectation: .values(values, related: ["tags": ["t1", "t2"]]), timing: .within(.seconds(1))),
            .read(id: "n1", expectation: .absent, timing: .now), .read(id: "n1", expectation: nil, timing: .now),
            .count(entity: "Note", expected: 4, predicate: predicate, timing: .within(.milliseconds(5))),
            .state(id: "n1", expectation: ObjectStateExpectation(fault: true), timing: .now),
            .results(controller: "list", expectation: ResultsExpectation(), timing: .now),
        ]
        #expect(steps.allSatisfy { $0.isPerformedByProcess })
        return steps.map { AgentCommand.perform($0) } + [
            .perform(.read(id: "n1", expectation: nil, timing: .now), workload: true),
            .becomeActive, .enterBackground, .armCrashDuringSave,
            .advanceClock(nanos: 17), .lockState, .timerRefresh, .handleNotifications, .awaitLock, .commitHeld, .finalRefresh,
            .finalView, .exit,
        ]
    }

    @Test func everyCommandComesBackEqual() throws {
        for command in try Self.commands() {
            var request = AgentRequest(seq: 3, step: 2, expectError: .conflict, ids: ["n1": ObjectRef(entity: "Note", pk: 9)],
                                       globalIDs: ["n1": ["a", "b"]], deliveries: 4, command: command)
            request.virtualTime = UInt64.max - 1
            request.notifications = [DeliveredNotification(name: "changed", poster: "share", postedAt: 12)]
            request.lastAttempt = false
            request.checkDeadline = 99
            request.lockWaits = .yield
            request.context = "background"
            request.contextAuthor = "intent"
            request.contextMergePolicy = .objectTrump
            let line = try AgentWire.line(request)
            #expect(!line.contains("\n"))
            #expect(try AgentWire.decode(AgentRequest.self, from: line) == request, "\(command)")
        }
    }

    @Test func aReplyComesBackEqual() throws {
        var reply = AgentReply(seq: 8, status: .failed, error: ErrorRecord(kind: .busy, message: "database is locked", expected: true),
                               inserted: ["n1": ObjectRef(entity: "Note", pk: 1)], deleted: ["n2"], lock: .beginWrite,
                               globalIDs: ["n1": "g1"], aliases: ["n1": [ObjectRef(entity: "Note", pk: 4)]])
        reply.virtualEnd = 1_000
        reply.notifications = NotificationActivity(posts: [PostedNotification(name: "x", at: 5)], observed: ["x"], unobserved: ["y"])
        reply.matched = false
        #expect(try AgentWire.decode(AgentReply.self, from: AgentWire.line(reply)) == reply)
        // The collections may be left out when empty.
        #expect(try AgentWire.decode(AgentReply.self, from: #"{"seq":0,"status":"ready"}"#) == AgentReply(seq: 0, status: .ready))
    }
}

extension AgentWireTests {
    @Test func aConfigComesBackEqual() throws {
        var settings = AgentSettings(ProcessSettings(role: .share), author: "share \u{1B}]0;x\u{7}")
        settings.refresh = .history
        var config = AgentConfig(process: "share", launchCount: 2,
                                 store: StoreLocation(containersRoot: "/tmp/c", group: "group.x", name: "Notes", traceName: "group:group.x"),
                                 model: AgentHarness.model, settings: settings, hubSocket: "/tmp/h.sock", tracePath: "/tmp/t.jsonl",
                                 copiesDirectory: "/tmp/copies", clockOffsetNanos: 5, seed: .max, virtualStart: 0)
        config.stderrPath = "/tmp/err"
        #expect(try AgentWire.decode(AgentConfig.self, from: AgentWire.bytes(config)) == config)
    }
}
