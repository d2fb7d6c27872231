// swift-tools-version: 6.1
// GroupSim: reproduce and measure stale data between an iOS app and its extensions
// that share one Core Data store. One target per layer; dependencies point down only.

import PackageDescription

let package = Package(
    name: "GroupSim",
    // macOS 15: Synchronization (`Mutex`, `Atomic`) needs it.
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "groupsim", targets: ["groupsim"]),
        .library(name: "SharedStore", targets: ["SharedStore"]),
        // Run scenarios from Swift tests (Swift Testing or XCTest).
        .library(name: "GroupSimTesting", targets: ["GroupSimTesting"]),
        // `swift package groupsim run Scenarios`.
        .plugin(name: "GroupSimPlugin", targets: ["GroupSimPlugin"]),
        // `swift package groupsim-check validate Scenarios`: read-only, no permission asked.
        .plugin(name: "GroupSimCheckPlugin", targets: ["GroupSimCheckPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // Layer 0: the SQLite C API, from the system (apt: libsqlite3-dev).
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // Layer 0 too: the C calls Swift cannot make (variadic `prctl`) or that differ per platform.
        .target(name: "CSystemShims"),
        // Layer 0 too: the vocabulary every layer shares (each concept that crosses a layer, defined once),
        // the value and model types, the predicate language, the monotonic clock and a few system calls.
        .target(name: "Basics"),
        // Layer 1: Core Data's multi-process behavior on SQLite, and Darwin-style notifications.
        .target(name: "SharedStore", dependencies: ["Basics", "CSQLite"]),
        .target(name: "Notify", dependencies: ["Basics"]),
        // Layer 2: the scenario language and the trace vocabulary (value types, no I/O in the model).
        .target(name: "ScenarioModel", dependencies: ["Basics", "SharedStore", .product(name: "Yams", package: "Yams")]),
        .target(name: "Trace", dependencies: ["Basics"]),
        // Layer 3: one simulated app or extension; child processes and their lifecycles.
        .target(name: "Agent", dependencies: ["Basics", "SharedStore", "Notify", "ScenarioModel", "Trace"]),
        .target(name: "Supervisor", dependencies: ["Basics", "CSystemShims"]),
        // Layer 4: the runner, the checkers and the reports.
        .target(name: "Runner", dependencies: ["Basics", "Agent", "SharedStore", "Supervisor", "Notify", "ScenarioModel", "Trace"]),
        .target(name: "Checkers", dependencies: ["Basics", "Trace"]),
        .target(name: "Reporters", dependencies: ["Basics", "Checkers", "Trace"]),
        // Layer 4 too: many seeded schedules of a scenario, and the failing ones shrunk to scenario files.
        .target(name: "Explorer", dependencies: ["Basics", "ScenarioModel", "Runner", "Checkers", "Reporters", "Trace", "Supervisor"]),
        // Layer 5: the command line.
        .executableTarget(
            name: "groupsim",
            dependencies: [
                "Basics", "SharedStore", "Notify", "ScenarioModel", "Trace", "Agent", "Supervisor", "Runner",
                "Checkers", "Reporters", "Explorer", "CSQLite", "CSystemShims",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Layer 5 too: scenarios as tests of a package that depends on GroupSim, and the SwiftPM command.
        .target(name: "GroupSimTesting", dependencies: ["Basics", "ScenarioModel", "Runner", "Checkers", "Reporters", "Supervisor"]),
        .plugin(
            name: "GroupSimPlugin",
            capability: .command(
                intent: .custom(verb: "groupsim", description: "Run groupsim (run, validate, list, compare, explore) in this package"),
                permissions: [.writeToPackageDirectory(reason: "groupsim writes its reports to Reports/ in the package.")]),
            dependencies: ["groupsim"]),
        // The read-only commands (validate, list) without a permission to grant: SwiftPM asks once per plugin.
        .plugin(
            name: "GroupSimCheckPlugin",
            capability: .command(intent: .custom(verb: "groupsim-check", description: "Validate or list scenarios (read-only, no permission asked)")),
            dependencies: ["groupsim"]),
        // A small child process the library tests drive across a real process boundary.
        .executableTarget(name: "testpeer", dependencies: ["Basics", "CSystemShims", "SharedStore", "Notify"]),
        // Fixtures shared by every test target: temporary directories, locating built executables.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "BasicsTests", dependencies: ["Basics"]),
        // Runs the built `groupsim` executable as a user would: exit codes, output, files written.
        .testTarget(name: "CLITests", dependencies: ["TestSupport", "SharedStore"]),
        .testTarget(name: "AgentTests", dependencies: ["Basics", "Agent", "Notify", "Trace", "TestSupport"]),
        .testTarget(name: "SharedStoreTests", dependencies: ["Basics", "SharedStore", "CSQLite", "TestSupport"]),
        .testTarget(name: "NotifyTests", dependencies: ["Basics", "Notify", "TestSupport"]),
        .testTarget(name: "SupervisorTests", dependencies: ["Basics", "Supervisor", "TestSupport"]),
        .testTarget(name: "ScenarioModelTests", dependencies: ["Basics", "ScenarioModel", "SharedStore", "TestSupport"]),
        .testTarget(name: "CheckersTests", dependencies: ["Basics", "Checkers", "Trace", "TestSupport"]),
        .testTarget(name: "ReportersTests", dependencies: ["Basics", "Reporters", "Checkers", "Trace", "TestSupport"]),
        .testTarget(name: "GroupSimTestingTests", dependencies: ["GroupSimTesting", "TestSupport"]),
        .testTarget(name: "ExplorerTests", dependencies: ["Basics", "Explorer", "Runner", "ScenarioModel", "Checkers", "TestSupport"]),
        .testTarget(name: "RunnerTests", dependencies: ["Basics", "Runner", "Agent", "ScenarioModel", "SharedStore", "Trace", "Checkers", "Reporters", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
