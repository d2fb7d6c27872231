import ArgumentParser
import Basics
import ScenarioModel

/// `groupsim validate <files>...`: checks scenarios without running them; reports every bad file and
/// every good one.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check scenario files against the scenario language without running them.",
        discussion: "Prints 'ok' for each valid file and every error of the others (file:line:column). Exit status: 0 when every file is valid, 2 otherwise."
    )

    @OptionGroup var scenarios: ScenarioPaths

    func run() throws {
        let (loaded, errors) = try scenarios.loadEach()
        for scenario in loaded {
            let runs = scenario.runs()
            print("\(VisibleText.escaped(scenario.file)): ok (\(scenario.name), \(counted(runs.count, "run")))")
        }
        guard let errors else { return }
        printError(errors.description)
        let files = Set(errors.errors.map(\.file)).count
        printError("\(counted(errors.errors.count, "error")) in \(counted(files, "file")); \(counted(loaded.count, "file")) valid.")
        throw ExitCode(2)
    }
}
