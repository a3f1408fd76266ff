// swift-tools-version:6.2
import PackageDescription

// A libFuzzer target, in its own package so the core's build is untouched. Build and run on
// Linux (see README.md beside this file):
//   swift build --package-path Fuzz --scratch-path Fuzz/.build-fuzz -c debug \
//       --sanitize=fuzzer --sanitize=address
let package = Package(
    name: "GraftFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Graft", path: ".."),
        .package(name: "GraftConfiguration", path: "../Integrations/GraftConfiguration"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
    ],
    targets: [
        .executableTarget(
            name: "FuzzKeyValueInjection",
            dependencies: [
                .product(name: "Graft", package: "Graft"),
                .product(name: "GraftConfiguration", package: "GraftConfiguration"),
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        )
    ],
    swiftLanguageModes: [.v6]
)
