import Foundation
import Testing
import TestSupport

/// A runner SIGKILLed mid-suite (no handler runs) still leaves the trace and the reports of every run that
/// had finished, which the next invocation's index judges again: nothing decided is lost.
@Suite(.serialized, .spawnsProcesses) struct KilledRunnerTests {
    @Test func aFinishedRunsTraceIsOnDiskBeforeTheSuiteEnds() throws {
        let cli = try CLI()
        try """
            summary: Waits longer than anyone will.
            store: { group: group.cli, name: Notes, model: { Note: { title: string } } }
            processes: { app: { role: host } }
            steps:
              - app: launch
              - sleep: 10m
            """.write(to: cli.directory.url.appendingPathComponent("zz-slow.yaml"), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.executable("groupsim"))
        process.arguments = ["run", "pass.yaml", "zz-slow.yaml", "--jobs", "1", "--report-dir", "reports", "--quiet"]
        process.currentDirectoryURL = cli.directory.url
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() } }
        // Its pages are the last files a finished run writes, after its trace.
        let page = cli.directory.url.appendingPathComponent("reports/pass/default/report.html")
        // The slow run sleeps ten minutes: pages written only at the end would never appear in time.
        let deadline = Date().addingTimeInterval(120)
        while !FileManager.default.fileExists(atPath: page.path) && Date() < deadline && process.isRunning { usleep(50_000) }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        for file in ["trace.jsonl", "report.json", "summary.md", "junit.xml", "report.html"] {
            #expect(cli.exists("reports/pass/default/\(file)"), "the first run's \(file), written as it finished")
        }

        // The next invocation's index includes the killed suite's finished run.
        let next = try cli.run("run", "notmatched.yaml", "--report-dir", "reports")
        #expect(next.status == 1, "\(next.stdout)\(next.stderr)")
        let index = try String(contentsOf: cli.directory.url.appendingPathComponent("reports/index.html"), encoding: .utf8)
        #expect(index.contains("pass/default/report.html"), "the earlier run is in the index")
        #expect(cli.exists("reports/pass/default/report.html"), "and its pages are written from its trace")
    }
}
