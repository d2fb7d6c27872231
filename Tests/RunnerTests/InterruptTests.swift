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

    /// One signal ends the whole invocation: the run in progress stops, no other starts, what finished
    /// is reported (index and JUnit), and the runner exits 130 without leaving anything behind.
    @Test func oneInterruptEndsTheWholeInvocationAndReportsWhatFinished() throws {
        let tmp = try TemporaryDirectory()
        let folder = tmp.url.appendingPathComponent("scenarios")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fast = Self.slowScenario.replacingOccurrences(of: "  - share: { begin-write: true }\n  - share: suspend\n  - sleep: 20s", with: "")
        #expect(fast != Self.slowScenario)
        try ("name: a-fast\n" + fast).write(to: folder.appendingPathComponent("a-fast.yaml"), atomically: true, encoding: .utf8)
        try ("name: b-slow\n" + Self.slowScenario + "\nvariants:\n  one: {}\n  two: {}\n")
            .write(to: folder.appendingPathComponent("b-slow.yaml"), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: RunHarness.groupsim)
        process.arguments = ["run", folder.path, "--report-dir", tmp.path("reports")]
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": tmp.url.path]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        let errors = tmp.url.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errors)
        let start = Date()
        try process.run()
        var agents: [Int32] = []
        let deadline = Date().addingTimeInterval(30)
        // The slow run's two agents (the fast run's have exited by then, or are among them: wait for
        // the suspended writer, which only the slow scenario has).
        while Date() < deadline {
            agents = Self.agents(under: tmp.url.path)
            if agents.count == 2, agents.contains(where: Self.isStopped) { break }
            usleep(20_000)
        }
        #expect(agents.count == 2, "\((try? String(contentsOf: errors, encoding: .utf8)) ?? "")")
        kill(process.processIdentifier, SIGINT)
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130, "\(text)")
        #expect(Date().timeIntervalSince(start) < 15, "the 20 s sleep was cut short")
        #expect(text.contains("a-fast / default: matched"), "\(text)")
        #expect(text.contains("b-slow / one: interrupted"), "\(text)")
        #expect(!text.contains("b-slow / two"), "no run starts after the signal: \(text)")
        #expect(!text.contains("HARNESS ERROR"), "\(text)")
        let index = try String(contentsOf: tmp.url.appendingPathComponent("reports/index.html"), encoding: .utf8)
        #expect(index.contains("a-fast") && !index.contains("b-slow"))
        #expect(FileManager.default.fileExists(atPath: tmp.path("reports/junit.xml")))
        #expect(Self.waitUntilGone(agents))
        #expect(Self.sandboxes(in: tmp).isEmpty)
    }

    /// One signal ends the invocation within a second whatever it is doing, even in a phase that never
    /// looks for one: `GROUPSIM_STALL_IN` keeps the runner's CPU busy for 30 s in checking, or in report
    /// writing, and SIGINT there still exits 130 at once, with no agent and no sandbox left. (The grace is
    /// 0.8 s; the bound asserted is wider, so a machine busy with other work does not fail the test.)
    @Test(arguments: ["checking", "reporting"])
    func oneInterruptEndsAStalledPhaseWithinTheGrace(phase: String) throws {
        let tmp = try TemporaryDirectory()
        let file = tmp.url.appendingPathComponent("fast.yaml")
        let fast = Self.slowScenario.replacingOccurrences(of: "  - share: { begin-write: true }\n  - share: suspend\n  - sleep: 20s", with: "")
        try fast.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: RunHarness.groupsim)
        process.arguments = ["run", file.path, "--report-dir", tmp.path("reports"), "--deterministic"]
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": tmp.url.path, "GROUPSIM_STALL_IN": phase]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        var text = ""
        let reader = errors.fileHandleForReading
        while !text.contains("stalling in \(phase)") {
            let data = reader.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        #expect(text.contains("groupsim: stalling in \(phase)"), "\(text)")
        let agents = Self.agents(under: tmp.url.path)
        let signalled = Date()
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let took = Date().timeIntervalSince(signalled)
        #expect(process.terminationStatus == 130)
        #expect(took < 5, "the stall lasts 30 s; the signal ended it after \(took) s")
        #expect(Self.waitUntilGone(agents))
        #expect(Self.sandboxes(in: tmp).isEmpty)
    }

    /// Whether `pid` is stopped (SIGSTOP), from /proc.
    static func isStopped(_ pid: Int32) -> Bool {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return false }
        let stat = String(decoding: data, as: UTF8.self)
        guard let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(close, offsetBy: 2)] == "T"
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

    /// An agent killed from outside the run (not by a step) is reported as such, and its store is still
    /// checked for lost commits.
    @Test func anAgentKilledFromOutsideIsReportedAndItsStoreChecked() throws {
        let tmp = try TemporaryDirectory()
        let file = tmp.url.appendingPathComponent("victim.yaml")
        try """
        summary: share is killed by someone else while app waits for a title that never comes.
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
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - share: launch
          - share: { read: n1, expect: { title: never }, within: 30s }
        """.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: RunHarness.groupsim)
        process.arguments = ["run", file.path, "--report-dir", tmp.path("reports")]
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": tmp.url.path]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var share: Int32?
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, share == nil {
            share = Self.agents(under: tmp.url.path).first { pid in
                let line = (FileManager.default.contents(atPath: "/proc/\(pid)/cmdline")).map { String(decoding: $0, as: UTF8.self) } ?? ""
                return line.contains("share-0.json")
            }
            usleep(20_000)
        }
        let victim = try #require(share)
        // Kill it once the runner has recorded it launched (it is then running steps, not starting).
        while Date() < deadline {
            let sandbox = Self.sandboxes(in: tmp).first.map { tmp.url.appendingPathComponent($0) }
            let runnerTrace = sandbox.flatMap { try? String(contentsOf: $0.appendingPathComponent("trace/runner.jsonl"), encoding: .utf8) } ?? ""
            if runnerTrace.split(separator: "\n").contains(where: { $0.contains("\"process\":\"share\"") && $0.contains("launched") }) { break }
            usleep(10_000)
        }
        kill(victim, SIGKILL)
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2, "\(text)")
        #expect(text.contains("HARNESS ERROR") && text.contains("killed by SIGKILL from outside the run"), "\(text)")
        let trace = try String(contentsOf: tmp.url.appendingPathComponent("reports/victim/default/trace.jsonl"), encoding: .utf8)
        #expect(trace.contains("\"reason\":\"killed\""), "the data-loss check ran")
        #expect(trace.contains("\"state\":\"killed\""))
        #expect(Self.sandboxes(in: tmp).isEmpty)
    }
}
