import ArgumentParser
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
            print("\(scenario.file): ok (\(scenario.name), \(runs.count) run\(runs.count == 1 ? "" : "s"))")
        }
        guard let errors else { return }
        printError(errors.description)
        let files = Set(errors.errors.map(\.file)).count
        printError("\(errors.errors.count) error(s) in \(files) file\(files == 1 ? "" : "s"); \(loaded.count) file\(loaded.count == 1 ? "" : "s") valid.")
        throw ExitCode(2)
    }
}
