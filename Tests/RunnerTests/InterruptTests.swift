import Foundation
import Testing
import TestSupport

/// The runner interrupted in the middle of a run leaves neither a process nor a sandbox behind.
@Suite(.serialized, .spawnsProcesses) struct InterruptTests {
    static let slowScenario = """
    summary: Sleeps long enough to be interrupted.
    store:
      group: group.test
      name: Notes
      model:
        Note:
          title: string
    processes:
      app: { role: host }
      share: { role: share }
    steps:
      - app: launch
      - share: launch
      - share: { begin-write: true }
      - share: suspend
      - sleep: 20s
    """

    /// Starts `groupsim run` on the slow scenario with its sandboxes under `tmp`, and waits until
    /// both agents are running.
    func startRunner(in tmp: TemporaryDirectory) throws -> (Process, [Int32]) {
        let file = tmp.url.appendingPathComponent("slow.yaml")
        try Self.slowScenario.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: RunHarness.groupsim)
        process.arguments = ["run", file.path, "--report-dir", tmp.path("reports")]
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": tmp.url.path]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        var agents: [Int32] = []
        while Date() < deadline {
            agents = Self.agents(under: tmp.url.path)
            if agents.count == 2 { break }
            usleep(20_000)
        }
        return (process, agents)
    }

    /// Processes whose command line mentions `path` and runs `agent`.
    static func agents(under path: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            let line = String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
            return line.contains(" agent ") && line.contains(path)
        }
    }

    static func sandboxes(in tmp: TemporaryDirectory) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: tmp.url.path)) ?? []).filter { $0.hasPrefix("gs-") }
    }

    static func waitUntilGone(_ pids: [Int32]) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if pids.allSatisfy({ kill($0, 0) != 0 && errno == ESRCH }) { return true }
            usleep(20_000)
        }
        return false
    }

    @Test func anInterruptedRunnerKillsItsAgentsAndRemovesItsSandbox() throws {
        let tmp = try TemporaryDirectory()
        let (runner, agents) = try startRunner(in: tmp)
        #expect(agents.count == 2)
        #expect(Self.sandboxes(in: tmp).count == 1)
        kill(runner.processIdentifier, SIGINT)
        runner.waitUntilExit()
        #expect(Self.waitUntilGone(agents), "an agent outlived the interrupted runner (a suspended one too)")
        #expect(Self.sandboxes(in: tmp).isEmpty)
    }

    @Test func aKilledRunnerTakesItsAgentsAlongAndTheNextRunSweepsItsSandbox() throws {
        let tmp = try TemporaryDirectory()
        let (runner, agents) = try startRunner(in: tmp)
        #expect(agents.count == 2)
        kill(runner.processIdentifier, SIGKILL)
        runner.waitUntilExit()
        #expect(Self.waitUntilGone(agents), "an agent outlived the SIGKILLed runner")
        #expect(Self.sandboxes(in: tmp).count == 1, "nothing runs in a SIGKILLed runner to remove it")
        let (next, nextAgents) = try startRunner(in: tmp)
        #expect(Self.sandboxes(in: tmp).count == 1, "the next run removed the abandoned sandbox")
        kill(next.processIdentifier, SIGTERM)
        next.waitUntilExit()
        #expect(Self.waitUntilGone(nextAgents))
        #expect(Self.sandboxes(in: tmp).isEmpty)
    }
}
