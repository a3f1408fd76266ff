// swift-tools-version:6.2
import PackageDescription

// A libFuzzer target, in its own package so the core's build is untouched. Build and run on
// Linux (see README.md beside this file):
//   swift build --package-path Fuzz --scratch-path Fuzz/.build-fuzz -c debug \
//       --sanitize=fuzzer --sanitize=address
//
// SwiftPM's `--sanitize=fuzzer` only links libFuzzer: no module is compiled with coverage.
// `unsafeFlags` are allowed in a root package's own targets only, so Graft and
// GraftConfiguration are compiled here, from their own sources through the symlinks in
// `Instrumented/`, with `-sanitize=fuzzer` (inline 8-bit counters and a PC table).
// swift-configuration stays an ordinary dependency, without coverage.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .unsafeFlags(["-sanitize=fuzzer"]),
]

let package = Package(
    name: "GraftFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0")
    ],
    targets: [
        .target(name: "Graft", path: "Instrumented/Graft", swiftSettings: swiftSettings),
        .target(
            name: "GraftConfiguration",
            dependencies: [
                "Graft",
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            path: "Instrumented/GraftConfiguration",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "FuzzKeyValueInjection",
            dependencies: [
                "Graft",
                "GraftConfiguration",
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .unsafeFlags(["-sanitize=fuzzer"]),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
