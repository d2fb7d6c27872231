import Agent
import Basics
import Foundation
import Supervisor
import Synchronization

/// Agents started ahead of need and used again, for the deterministic mode: launching a scenario
/// process takes a standby agent (`groupsim agent --standby`) and sends it the process's config; its
/// `exit` returns the agent here to wait for the next process. A crash or a kill ends the agent for
/// real. Starting a process costs the time to open its store, not the time to start an executable,
/// and the next agents start on the other core while a run goes on.
///
/// One pool serves every run of an invocation (`RunnerOptions.agentPool`); `close()` ends its idle
/// agents.
public final class AgentPool: Sendable {
    private let executable: String
    private let launcher: any ProcessLauncher
    private let target: Int
    private let idle = Mutex<[any SupervisedProcess]>([])
    private let starting = Mutex(0)
    private let closed = Atomic<Bool>(false)
    /// Where standby agents warm up (`AgentWarmUp.directoryVariable`), one folder per agent: the pool's,
    /// so that it goes with the pool, on `close()` or whenever the invocation ends, even for an agent
    /// killed in the middle of its warm-up (which could not remove its own).
    let warmUpRoot: URL
    private let cleanup: Int

    /// A pool of `groupsim` (`executable`) agents that keeps `target` standing by.
    public init(executable: String, target: Int = 4, launcher: any ProcessLauncher = PosixSpawnLauncher()) {
        self.executable = executable
        self.target = Swift.max(1, target)
        self.launcher = launcher
        let base = SystemCalls.memoryDirectory.map { URL(fileURLWithPath: $0) } ?? FileManager.default.temporaryDirectory
        Sandbox.removeAbandoned(in: base)
        let root = base.appendingPathComponent("gs-pool-\(getpid())-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        warmUpRoot = root
        cleanup = CleanupRegistry.shared.add { try? FileManager.default.removeItem(at: root) }
        refill()
    }

    /// A standby agent: one waiting, else one started now. The pool starts a replacement meanwhile.
    func take() throws(SupervisorError) -> any SupervisedProcess {
        let waiting = idle.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        refill()
        if let waiting, waiting.exitStatus() == nil { return waiting }
        return try start()
    }

    /// An agent whose process exited cleanly, ready for the next one.
    func giveBack(_ agent: any SupervisedProcess) {
        guard !closed.load(ordering: .acquiring), agent.exitStatus() == nil else {
            agent.kill()
            return
        }
        idle.withLock { $0.append(agent) }
    }

    /// Ends every idle agent; later `take`s start agents that are not kept.
    public func close() {
        closed.store(true, ordering: .releasing)
        for agent in idle.withLock({ agents -> [any SupervisedProcess] in
            defer { agents.removeAll() }
            return agents
        }) {
            agent.closeInput()
            agent.kill()
        }
        try? FileManager.default.removeItem(at: warmUpRoot)
        CleanupRegistry.shared.remove(cleanup)
    }

    private func start() throws(SupervisorError) -> any SupervisedProcess {
        try launcher.launch(LaunchSpec(
            process: "standby-agent", executable: executable, arguments: ["agent", "--standby"],
            // The same iteration order of dictionaries and sets in every run.
            environment: ["SWIFT_DETERMINISTIC_HASHING": "1", AgentWarmUp.directoryVariable: warmUpRoot.path], standardError: .discard))
    }

    /// Starts agents in the background until `target` stand by (or are starting).
    private func refill() {
        guard !closed.load(ordering: .acquiring) else { return }
        let missing = starting.withLock { starting -> Int in
            let waiting = idle.withLock { $0.count }
            let missing = Swift.max(0, target - waiting - starting)
            starting += missing
            return missing
        }
        for _ in 0..<missing {
            DispatchQueue.global().async { [self] in
                let agent = try? start()
                starting.withLock { $0 -= 1 }
                if let agent { giveBack(agent) }
            }
        }
    }
}
