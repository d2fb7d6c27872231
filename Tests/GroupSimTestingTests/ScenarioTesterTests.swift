import Foundation
import Synchronization
import GroupSimTesting
import Testing
import TestSupport

/// The library a package's own tests use: every bundled scenario as a parameterized test, as a user
/// would write it, and the failure message a test shows.
@Suite(.serialized, .spawnsProcesses) struct ScenarioTesterTests {
    static let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scenarios").path

    @Test(arguments: ScenarioTester.scenarioFiles(in: scenarios))
    func everyBundledScenarioMatches(_ file: String) throws {
        try ScenarioTester().expectMatches(file: file)
    }

    /// A relative folder is found from the test file's package, and a folder without scenarios makes the
    /// test fail instead of running no case (issue 30).
    @Test func aRelativeFolderIsTheTestPackagesAndAnEmptyOneFails() throws {
        #expect(ScenarioTester.scenarioFiles(in: "Scenarios") == ScenarioTester.scenarioFiles(in: Self.scenarios))
        let empty = try TemporaryDirectory(prefix: "groupsim-tester-empty")
        let files = ScenarioTester.scenarioFiles(in: empty.url.path)
        #expect(files.count == 1)
        #expect(throws: (any Error).self) { try ScenarioTester().run(file: files[0]) }
        #expect(ScenarioTester.scenarioFiles(in: "NoSuchFolder").first?.contains("no scenario files in ") == true)
    }

    @Test func expectMatchesFailsTheTestWithTheExplanationAndTheReplayCommand() throws {
        let directory = try TemporaryDirectory(prefix: "groupsim-tester")
        let file = directory.url.appendingPathComponent("never.yaml")
        try Data(Self.neverStale.utf8).write(to: file)
        let comments = Mutex<[String]>([])
        let tester = try ScenarioTester()
        try withKnownIssue {
            try tester.expectMatches(file: file.path)
        } matching: { issue in
            comments.withLock { $0.append(issue.comments.map(\.rawValue).joined()) }
            return true
        }
        let recorded = comments.withLock { $0 }
        #expect(recorded.count == 1)
        #expect(recorded.first?.contains("never / default: NOT MATCHED") == true)
        #expect(recorded.first?.contains("missing stale-read") == true)
        #expect(recorded.first?.contains("groupsim run") == true && recorded.first?.contains("--deterministic") == true)
    }

    static let neverStale = """
        summary: Expects a stale read that never happens.
        expect: stale-read
        store: { group: group.t, name: Notes, model: { Note: { title: string } } }
        processes:
          app: { role: host }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
        """

    @Test func aRunThatDoesNotMatchSaysWhyAndHowToReplayIt() throws {
        let yaml = Self.neverStale
        let directory = try TemporaryDirectory(prefix: "groupsim-tester")
        var tester = try ScenarioTester()
        tester.reportDirectory = directory.url
        let run = try #require(try tester.run(yaml: yaml, named: "never.yaml").first)
        #expect(!run.matched && run.harnessFailure == nil)
        #expect(run.failureMessage.contains("NOT MATCHED") && run.failureMessage.contains("missing stale-read"))
        #expect(run.replay.hasSuffix("--deterministic"))
        #expect(FileManager.default.fileExists(atPath: try #require(run.report).appendingPathComponent("report.html").path))
    }

    @Test func anInvalidScenarioOrVariantIsAnError() throws {
        let tester = try ScenarioTester()
        #expect(throws: (any Error).self) { try tester.run(yaml: "summary: x", named: "bad.yaml") }
        let file = ScenarioTester.scenarioFiles(in: Self.scenarios).first { $0.hasSuffix("refresh-with-infinite-staleness.yaml") }!
        #expect(throws: (any Error).self) { try tester.run(file: file, variant: "stale-cach") }
    }
}
