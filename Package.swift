// swift-tools-version:6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// The `generate-documentation` command plugin, only when `GRAFT_DOCS` is set (`.ci/run` sets it):
/// a package that depends on Graft then never fetches the plugin. No target depends on it.
let documentationPlugin: [Package.Dependency] =
    Context.environment["GRAFT_DOCS"] == nil
    ? [] : [.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0")]

let package = Package(
    name: "Graft",
    // Synchronization's Atomic (macOS 15, iOS 18) keeps flags and write-once cells inside the
    // objects they belong to, with no allocation of their own; tests and examples use its Mutex.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: [
        .library(name: "Graft", targets: ["Graft"]),
        .library(name: "GraftTesting", targets: ["GraftTesting"]),
        .executable(name: "race-car", targets: ["RaceCar"]),
        .executable(name: "pit-wall", targets: ["PitWall"]),
        .executable(name: "concrete-protocols", targets: ["ConcreteProtocols"]),
    ],
    dependencies: documentationPlugin,
    targets: [
        .target(
            name: "Graft",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "GraftTesting",
            dependencies: ["Graft"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "RaceCar",
            dependencies: ["Graft"],
            path: "Examples/RaceCar",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "PitWall",
            dependencies: ["Graft"],
            path: "Examples/PitWall",
            swiftSettings: swiftSettings
        ),
        // The seeds' EXTConcreteProtocol in Swift: 3,000 generated types get default methods from
        // a protocol extension, with no start-up work (and what a start-up scan would cost).
        .executableTarget(
            name: "ConcreteProtocols",
            path: "Examples/ConcreteProtocols",
            exclude: ["Scripts"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "GraftDocSnippetsTests",
            dependencies: ["Graft", "GraftTesting"],
            swiftSettings: swiftSettings
        ),
        // Top-level code that falls into the sync/async overload trap; `GraftTests` runs it.
        .executableTarget(
            name: "TopLevelTrap",
            dependencies: ["Graft"],
            path: "Tests/TopLevelTrap",
            swiftSettings: swiftSettings
        ),
        // A `main` whose `buildOrExit()` fails; `GraftTests` runs it.
        .executableTarget(
            name: "BuildOrExit",
            dependencies: ["Graft"],
            path: "Tests/BuildOrExit",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "GraftTests",
            dependencies: ["Graft", "GraftTesting", "TopLevelTrap", "BuildOrExit"],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
