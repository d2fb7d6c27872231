// swift-tools-version: 6.1
// GroupSim: reproduce and measure stale data between an iOS app and its extensions
// that share one Core Data store. One target per layer; dependencies point down only.

import PackageDescription

let package = Package(
    name: "GroupSim",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "groupsim", targets: ["groupsim"]),
        .library(name: "SharedStore", targets: ["SharedStore"]),
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
        // Layer 1: Core Data's multi-process behavior on SQLite, and Darwin-style notifications.
        .target(name: "SharedStore", dependencies: ["CSQLite"]),
        .target(name: "Notify"),
        // Layer 2: the scenario language and the trace vocabulary (value types, no I/O in the model).
        .target(name: "ScenarioModel", dependencies: [.product(name: "Yams", package: "Yams")]),
        .target(name: "Trace"),
        // Layer 3: one simulated app or extension; child processes and their lifecycles.
        .target(name: "Agent", dependencies: ["SharedStore", "Notify", "ScenarioModel", "Trace"]),
        .target(name: "Supervisor"),
        // Layer 4: the runner, the checkers and the reports.
        .target(name: "Runner", dependencies: ["Agent", "SharedStore", "Supervisor", "Notify", "ScenarioModel", "Trace"]),
        .target(name: "Checkers", dependencies: ["Trace"]),
        .target(name: "Reporters", dependencies: ["Checkers", "Trace"]),
        // Layer 5: the command line.
        .executableTarget(
            name: "groupsim",
            dependencies: [
                "SharedStore", "Notify", "ScenarioModel", "Trace", "Agent", "Supervisor", "Runner",
                "Checkers", "Reporters", "CSQLite",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // A small child process the library tests drive across a real process boundary.
        .executableTarget(name: "testpeer", dependencies: ["SharedStore", "Notify"]),
        // Fixtures shared by every test target: temporary directories, locating built executables.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "SharedStoreTests", dependencies: ["SharedStore", "CSQLite", "TestSupport"]),
        .testTarget(name: "NotifyTests", dependencies: ["Notify", "TestSupport"]),
        .testTarget(name: "SupervisorTests", dependencies: ["Supervisor", "TestSupport"]),
        .testTarget(name: "ScenarioModelTests", dependencies: ["ScenarioModel", "TestSupport"]),
        .testTarget(name: "CheckersTests", dependencies: ["Checkers", "Trace", "TestSupport"]),
        .testTarget(name: "ReportersTests", dependencies: ["Reporters", "Checkers", "Trace", "TestSupport"]),
        .testTarget(name: "RunnerTests", dependencies: ["Runner", "Agent", "ScenarioModel", "Trace", "Checkers", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
