// swift-tools-version: 6.1
// A package of an app's own that keeps its data-sharing bugs fixed with GroupSim scenarios, run from
// Swift Testing. It depends on GroupSim by path here; an app's package would name GroupSim's URL.

import PackageDescription

let package = Package(
    name: "SharingTests",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "GroupSim", path: "../.."),
    ],
    targets: [
        .testTarget(
            name: "SharingTests",
            dependencies: [.product(name: "GroupSimTesting", package: "GroupSim")]
        ),
    ]
)
