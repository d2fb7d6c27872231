import ArgumentParser

/// The `groupsim` command line: runs scenarios, compares strategies, and benchmarks the layers.
@main
struct GroupSimCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "groupsim",
        abstract: "Reproduce and measure stale data between an iOS app and its extensions.",
        version: "groupsim 0.5.0",
        subcommands: [RunCommand.self, ValidateCommand.self, ListCommand.self, CompareCommand.self, ExploreCommand.self, InspectCommand.self, ImportCommand.self, BenchCommand.self, AgentCommandLine.self]
    )
}
