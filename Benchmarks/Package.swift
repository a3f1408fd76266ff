// swift-tools-version:6.1
// The benchmarks live in their own package so that users of Graft never resolve the
// benchmark harness, Swinject or swift-dependencies (STYLE.md §8).
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "GraftBenchmarks",
    platforms: [.macOS(.v15)],
    products: [
        // Each run of these is a new process: start-up cost and callgrind instruction counts,
        // which the long-running ordo-one harness cannot give (docs/benchmarks.md).
        .executable(name: "graft-startup", targets: ["GraftStartup"]),
        .executable(name: "graft-instructions", targets: ["GraftInstructions"]),
        // One thread against two, Graft and hand-written code in the same process.
        .executable(name: "graft-scaling", targets: ["GraftScaling"]),
        // A registration's first creation, under a protocol and concretely, among 30,000 types.
        .executable(name: "graft-first-creation", targets: ["GraftFirstCreation"]),
    ],
    dependencies: [
        // Named, because a path dependency's identity is otherwise its folder's name, which
        // differs between clones.
        .package(name: "Graft", path: ".."),
        // Naming the trait explicitly replaces the harness's default traits; that leaves out
        // "RuntimeInterposer", whose extra package is not needed for malloc counts.
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
        .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1"),
    ],
    targets: [
        .executableTarget(
            name: "GraftBenchmarks",
            dependencies: [
                "BenchmarkFixtures",
                "GeneratedServices",
                "RandomGraph",
                .product(name: "Graft", package: "Graft"),
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Swinject", package: "Swinject"),
                .product(name: "Dependencies", package: "swift-dependencies"),
            ],
            path: "Benchmarks/GraftBenchmarks",
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "GraftStartup",
            dependencies: [
                "BenchmarkFixtures",
                "CHeapUsage",
                "GeneratedServices",
                .product(name: "Graft", package: "Graft"),
                .product(name: "Swinject", package: "Swinject"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "GraftInstructions",
            dependencies: [
                "BenchmarkFixtures",
                "GeneratedServices",
                "RandomGraph",
                .product(name: "Graft", package: "Graft"),
                .product(name: "Swinject", package: "Swinject"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "GraftFirstCreation",
            dependencies: [
                "GeneratedServices",
                .product(name: "Graft", package: "Graft"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "GraftScaling",
            dependencies: [
                "BenchmarkFixtures",
                "RandomGraph",
                .product(name: "Graft", package: "Graft"),
            ],
            swiftSettings: swiftSettings
        ),
        // The services, and each library's containers of them, that the ordo-one benchmarks
        // and graft-instructions share.
        .target(
            name: "BenchmarkFixtures",
            dependencies: [
                "GeneratedServices",
                .product(name: "Graft", package: "Graft"),
                .product(name: "Swinject", package: "Swinject"),
            ],
            swiftSettings: swiftSettings
        ),
        // The 30,000 types of scenario 6 and graft-startup, in a module of their own so that
        // their minute and a half of compiling is not repeated when a benchmark changes.
        .target(name: "GeneratedServices", swiftSettings: swiftSettings),
        // Scenario 8's 200 classes and their registrations (Scripts/generate-random-graph.py).
        .target(
            name: "RandomGraph",
            dependencies: [
                .product(name: "Graft", package: "Graft"),
                .product(name: "Swinject", package: "Swinject"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(name: "CHeapUsage"),
    ],
    swiftLanguageModes: [.v6]
)
