import Basics
import Foundation
import Notify
import ScenarioModel
import TestSupport
import Trace
@testable import Agent

/// Agents driven in-process: real stores in a temporary directory, notifications through an
/// in-process bus, requests by direct call and replies collected, no process spawned.
final class AgentHarness {
    let directory: TemporaryDirectory
    let bus = LocalNotificationBus()
    private(set) var agents: [String: AgentProcess] = [:]
    private var replies: [String: [AgentReply]] = [:]
    private var sequence = 0

    static let model = ModelDescription(entities: [
        EntityDescription(name: "Note", attributes: [
            AttributeDescription(name: "title", type: .string),
            AttributeDescription(name: "rank", type: .int),
            AttributeDescription(name: "score", type: .double),
        ]),
    ])

    init() throws {
        directory = try TemporaryDirectory(prefix: "groupsim-agent-test")
    }

    /// Starts agent `name` on the group store with `settings` (its observers registered as at launch).
    @discardableResult
    func start(_ name: String, _ configure: (inout AgentSettings) -> Void = { _ in }) throws -> AgentProcess {
        var settings = AgentSettings(ProcessSettings(role: .host), author: name)
        configure(&settings)
        let config = AgentConfig(
            process: name, launchCount: 0,
            store: StoreLocation(containersRoot: directory.path("containers"), group: "group.test", name: "Notes",
                                 traceName: "group:group.test"),
            model: Self.model, settings: settings, hubSocket: "", tracePath: directory.path("\(name).trace.jsonl"),
            copiesDirectory: directory.path("copies"), clockOffsetNanos: 0, seed: 1)
        let center = LocalNotificationCenter(bus: bus, process: name)
        let agent = try AgentProcess(config: config, center: center) { [unowned self] reply in
            self.replies[name, default: []].append(reply)
        }
        if settings.observe == .launch { agent.startObserving() }
        agents[name] = agent
        return agent
    }

    /// Sends `command` to agent `name` as step `sequence` and returns its reply.
    @discardableResult
    func send(_ name: String, _ command: AgentCommand, expectError: ErrorKind? = nil,
              ids: [String: ObjectRef] = [:], deliveries: Int? = nil, lastAttempt: Bool? = nil,
              checkDeadline: UInt64? = nil) -> AgentReply {
        sequence += 1
        let before = replies[name]?.count ?? 0
        var request = AgentRequest(seq: sequence, step: sequence, expectError: expectError, ids: ids,
                                   deliveries: deliveries, command: command)
        request.lastAttempt = lastAttempt
        request.checkDeadline = checkDeadline
        agents[name]!.handle(request)
        let all = replies[name] ?? []
        precondition(all.count == before + 1, "one reply per request")
        return all[before]
    }

    /// Sends `step` to agent `name` to perform, as step `sequence`, and returns its reply.
    @discardableResult
    func send(_ name: String, _ step: Step, expectError: ErrorKind? = nil, ids: [String: ObjectRef] = [:],
              deliveries: Int? = nil, lastAttempt: Bool? = nil, checkDeadline: UInt64? = nil) -> AgentReply {
        send(name, .perform(step), expectError: expectError, ids: ids, deliveries: deliveries, lastAttempt: lastAttempt,
             checkDeadline: checkDeadline)
    }

    /// The events agent `name` recorded so far.
    func events(of name: String) throws -> [TraceEvent] {
        try TraceFile.readEvents(from: URL(fileURLWithPath: directory.path("\(name).trace.jsonl")))
    }

    /// The checks agent `name` recorded, in order.
    func checks(of name: String) throws -> [CheckRecord] {
        try events(of: name).compactMap { if case .check(let check) = $0.kind { check } else { nil } }
    }
}
