import Basics
import Foundation
import Notify
import ScenarioModel
import Trace

/// Where a standby agent warms up.
public enum AgentWarmUp {
    /// The environment variable naming the folder a standby agent warms up in (the agent pool's own,
    /// removed with the pool); without it, the memory or temporary directory.
    public static let directoryVariable = "GROUPSIM_WARM_UP_DIR"
}

extension AgentProcess {
    /// Runs a small scenario once, in a temporary directory that is removed afterwards: a store opened
    /// with history, an insert, a save, a fetch, reads and counts, a refresh, a history merge and the
    /// requests and replies as JSON, as a deterministic agent would.
    ///
    /// A fresh process pays for every code path the first time it takes it (the Swift runtime's type
    /// metadata and conformances, lazily bound symbols, SQLite's first statements): tens of milliseconds,
    /// which would otherwise fall on the first steps of the process a standby agent becomes. A standby
    /// agent pays them while it waits (`groupsim agent --standby`), off the run's path. Nothing of it
    /// reaches a run: its store, its trace and its notifications are its own.
    static func warmUp() {
        // Under the pool's folder when it gives one, so a standby agent killed mid-warm-up leaves nothing.
        let given = ProcessInfo.processInfo.environment[AgentWarmUp.directoryVariable].map { URL(fileURLWithPath: $0, isDirectory: true) }
        let base = given ?? SystemCalls.memoryDirectory.map { URL(fileURLWithPath: $0) } ?? FileManager.default.temporaryDirectory
        let root = base.appendingPathComponent("gs-warm-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        let model = ModelDescription(entities: [
            EntityDescription(name: "Item", attributes: [
                AttributeDescription(name: "title", type: .string),
                AttributeDescription(name: "rank", type: .int, isOptional: true),
            ]),
        ])
        var settings = AgentSettings(ProcessSettings(role: .host), author: "warm-up")
        settings.refresh = .history
        let config = AgentConfig(
            process: "warm-up", launchCount: 0,
            store: StoreLocation(containersRoot: root.appendingPathComponent("containers").path, group: "group.warm-up",
                                 name: "WarmUp", traceName: "group:group.warm-up"),
            model: model, settings: settings, hubSocket: "", tracePath: root.appendingPathComponent("trace.jsonl").path,
            copiesDirectory: root.appendingPathComponent("copies").path, clockOffsetNanos: 0, seed: 1,
            virtualStart: VirtualTime.origin)
        // The pool's folder is not made again: once the pool removed it, there is nothing to warm up for.
        guard (try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: given == nil)) != nil else { return }
        let world = AgentWorld(config: config)
        let time = world.time
        guard let agent = try? AgentProcess(config: config, world: world, center: world.routedCenter, replies: { reply in
            if let line = try? AgentWire.line(reply) { _ = try? AgentWire.decode(AgentReply.self, from: line) }
        }) else { return }
        agent.startObserving()
        let commands: [AgentCommand] = [
            .perform(.insert(entity: "Item", id: "i1", values: ["title": .string("a"), "rank": .int(1)])),
            .perform(.save),
            .perform(.fetch(entity: "Item", predicate: nil, sort: [])),
            .perform(.read(id: "i1", expectation: .values(["title": .string("a")]), timing: .now)),
            .perform(.update(id: "i1", values: ["title": .string("b")])),
            .perform(.save),
            .perform(.count(entity: "Item", expected: 1, predicate: nil, timing: .now)),
            .perform(.refreshAll),
            .perform(.runRefresh),
            .perform(.mergeHistory),
            .lockState,
            .finalRefresh,
        ]
        for (seq, command) in commands.enumerated() {
            var request = AgentRequest(seq: seq + 1, step: seq, command: command)
            request.virtualTime = time.now
            request.notifications = [DeliveredNotification(name: settings.notificationName, poster: "warm-up", postedAt: time.now)]
            guard let line = try? AgentWire.line(request), let decoded = try? AgentWire.decode(AgentRequest.self, from: line) else { continue }
            agent.handle(decoded)
        }
        _ = try? TraceFile.readEvents(from: URL(fileURLWithPath: config.tracePath))
        agent.shutdown()
    }
}
