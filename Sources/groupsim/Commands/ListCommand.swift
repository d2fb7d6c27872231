import ArgumentParser
import ScenarioModel

/// `groupsim list [folder]`: name, summary, variants and tags of each scenario.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List scenarios: name, summary, variants and tags."
    )

    @OptionGroup var scenarios: ScenarioPaths

    func run() throws {
        let (loaded, errors) = try scenarios.loadEach()
        defer {
            if let errors {
                printError(errors.description)
                printError("\(counted(errors.errors.count, "error")); the files with errors are not listed.")
            }
        }
        for scenario in loaded {
            let summary = scenario.summaryLine
            print(summary.name)
            if !summary.summary.isEmpty { print("  \(summary.summary)") }
            let variants = summary.variants.isEmpty ? "(none)" : summary.variants.joined(separator: ", ")
            print("  variants: \(variants)")
            if !summary.tags.isEmpty { print("  tags: \(summary.tags.joined(separator: ", "))") }
            print("  file: \(summary.file)")
        }
        if errors != nil { throw ExitCode(2) }
    }
}
