import ArgumentParser
import Basics
import ScenarioModel

/// `groupsim list [folder]`: name, summary, variants (each with what it expects) and tags of each scenario.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List scenarios: summary, variants (what each expects), tags."
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
            // A file's text and name are someone else's: printed as VisibleText writes them, one line each.
            if !summary.summary.isEmpty { print("  \(VisibleText.escaped(summary.summary))") }
            // Each variant with what it expects: the buggy ones name their anomalies, the fixed ones pass.
            let runs = scenario.runs()
            let expects = runs.map { "\($0.variant) (\($0.expectation.text))" }
            print("  variants: \(summary.variants.isEmpty ? "(none); expects \(runs.first?.expectation.text ?? "pass")" : expects.joined(separator: ", "))")
            if !summary.tags.isEmpty { print("  tags: \(summary.tags.map(VisibleText.escaped).joined(separator: ", "))") }
            print("  file: \(VisibleText.escaped(summary.file))")
        }
        if errors != nil { throw ExitCode(2) }
    }
}
