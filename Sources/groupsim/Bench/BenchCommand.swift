import ArgumentParser

/// `groupsim bench <area>`: benchmarks that print their numbers (never timed unit tests).
/// Build in release for meaningful numbers: `swift run -c release groupsim bench store`.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure a layer's speed against its baseline and print the numbers.",
        subcommands: [
            StoreBenchCommand.self, NotifyBenchCommand.self, NotifyPeerCommand.self, RunnerBenchCommand.self,
            CheckersBenchCommand.self, SuiteBenchCommand.self, ExploreBenchCommand.self, CostsBenchCommand.self,
        ]
    )
}
