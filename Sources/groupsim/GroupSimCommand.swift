import ArgumentParser
import Basics
import CSystemShims
import Foundation

/// The `groupsim` command line: runs scenarios, compares strategies, and benchmarks the layers.
@main
struct GroupSimCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "groupsim",
        abstract: "Reproduce and measure stale data between an iOS app and its extensions.",
        discussion: """
            Exit status: 0 when every run matched its expectation, 1 when one did not, 2 when the harness could \
            not decide (an invalid file, a process that did not start, a timeout), 64 for a command line it cannot \
            read (an unknown command or option), 128 + the signal when interrupted (130 for Ctrl-C).
            """,
        version: "groupsim 0.5.0",
        subcommands: [RunCommand.self, ValidateCommand.self, ListCommand.self, CompareCommand.self, ExploreCommand.self, InspectCommand.self, ImportCommand.self, BenchCommand.self, AgentCommandLine.self]
    )

    /// The commands a person types (the hidden `agent` aside).
    static let commandNames = ["run", "validate", "list", "compare", "explore", "inspect", "import", "bench"]

    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        // Through a pipe (the package plugin, CI logs) the C library holds stdout until the buffer fills:
        // each line is written as it is printed instead. An agent's stdout is its wire, written its own way.
        if arguments.first != "agent" { _ = groupsim_line_buffer_stdout() }
        // A mistyped command reaches ArgumentParser as "unexpected arguments": say what was meant instead.
        if let first = arguments.first, !first.hasPrefix("-"), first != "agent", first != "help",
           !commandNames.contains(first), !first.contains("/"), !first.contains("."),
           first.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || $0 == "-" }) {
            let hint = Suggestion.hint(for: first, in: commandNames, otherwise: "the commands are \(Suggestion.list(commandNames)).")
            FileHandle.standardError.write(Data("groupsim: unknown command '\(VisibleText.escaped(first))'\(hint)\nRun groupsim --help for the commands.\n".utf8))
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            exit(withError: error)
        }
    }
}
