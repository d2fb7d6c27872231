import ArgumentParser
import ScenarioModel

/// `groupsim validate <files>...`: checks scenarios without running them.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check scenario files against the scenario language without running them."
    )

    @OptionGroup var scenarios: ScenarioPaths

    func run() throws {
        let loaded = try scenarios.load()
        for scenario in loaded {
            let runs = scenario.runs()
            print("\(scenario.file): ok (\(scenario.name), \(runs.count) run\(runs.count == 1 ? "" : "s"))")
        }
    }
}
