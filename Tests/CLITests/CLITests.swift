import Foundation
import Testing
import TestSupport

/// The command line as a user meets it: exit codes 0 (every run matched), 1 (some did not), 2 (the
/// harness could not decide, or the input is invalid), 64 (bad usage); the summary line; what
/// `validate`, `list`, `compare`, `--help` and `--version` print. Interrupts (130) are tested in
/// RunnerTests/InterruptTests. Expected transcripts are files under `Tests/Golden/CLI/`.
@Suite(.serialized, .spawnsProcesses) struct CLITests {
    @Test func aMatchedRunExitsZeroAndWritesItsReports() throws {
        let cli = try CLI()
        let result = try cli.run("run", "pass.yaml")
        #expect(result.status == 0)
        try golden.verify(result.transcript, named: "run-pass.txt")
        for file in ["Reports/index.html", "Reports/pass/default/report.json", "Reports/pass/default/report.html",
                     "Reports/pass/default/junit.xml", "Reports/pass/default/trace.jsonl"] {
            #expect(cli.exists(file), "\(file)")
        }
    }

    @Test func aRunThatDoesNotMatchExitsOneAndSaysHowToReplayIt() throws {
        let result = try CLI().run("run", "notmatched.yaml")
        #expect(result.status == 1)
        try golden.verify(result.transcript, named: "run-notmatched.txt")
    }

    @Test func aHarnessErrorExitsTwoAndNamesTheStep() throws {
        let result = try CLI().run("run", "harness.yaml")
        #expect(result.status == 2)
        try golden.verify(result.transcript, named: "run-harness.txt")
    }

    /// Runs of several files: the worst status wins, and the summary counts every run.
    @Test func theWorstRunDecidesTheExitStatus() throws {
        let result = try CLI().run("run", "pass.yaml", "notmatched.yaml", "--jobs", "2")
        #expect(result.status == 1)
        #expect(result.stdout.contains("Summary: 1 of 2 runs matched\n"))
    }

    @Test func anInvalidFileRunsNothingAndExitsTwo() throws {
        let cli = try CLI()
        let result = try cli.run("run", "bad.yaml", "pass.yaml")
        #expect(result.status == 2)
        try golden.verify(result.transcript, named: "run-invalid.txt")
        #expect(!cli.exists("Reports"))
    }

    @Test func validateReportsEveryFileAndExitsTwoOnAnError() throws {
        let cli = try CLI()
        let result = try cli.run("validate", "bad.yaml", "pass.yaml")
        #expect(result.status == 2)
        try golden.verify(result.transcript, named: "validate.txt")
        #expect(try cli.run("validate", "pass.yaml").status == 0)
    }

    @Test func listShowsTheValidScenarios() throws {
        let cli = try CLI()
        let result = try cli.run("list", "pass.yaml", "notmatched.yaml")
        #expect(result.status == 0)
        try golden.verify(result.transcript, named: "list.txt")
        #expect(try cli.run("list", ".").status == 2, "the folder holds bad.yaml")
    }

    @Test func compareWritesAMatrixPerStrategy() throws {
        let cli = try CLI()
        let result = try cli.run("compare", "pass.yaml", "--strategies", "none", "history")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("| none |") && result.stdout.contains("| history |"))
        #expect(cli.exists("Reports/pass/compare/compare.html"))
        #expect(cli.exists("Reports/pass/compare/compare.md"))
        let unknown = try cli.run("compare", "pass.yaml", "--strategies", "sometimes")
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown strategy 'sometimes'"))
    }

    @Test func helpAndVersion() throws {
        let cli = try CLI()
        let help = try cli.run("--help")
        #expect(help.status == 0)
        try golden.verify(help.transcript, named: "help.txt")
        let version = try cli.run("--version")
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("groupsim "))
        let unknown = try cli.run("rnu")
        #expect(unknown.status == 64)
    }
}
