// swift-tools-version:6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// The `generate-documentation` command plugin, only when `GRAFT_DOCS` is set: a package that
/// depends on this one then never fetches the plugin. No target depends on it.
let documentationPlugin: [Package.Dependency] =
    Context.environment["GRAFT_DOCS"] == nil
    ? [] : [.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0")]

let package = Package(
    name: "GraftServiceLifecycle",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: [
        .library(name: "GraftServiceLifecycle", targets: ["GraftServiceLifecycle"])
    ],
    dependencies: [
        .package(name: "Graft", path: "../.."),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ] + documentationPlugin,
    targets: [
        .target(
            name: "GraftServiceLifecycle",
            dependencies: [
                .product(name: "Graft", package: "Graft"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "GraftServiceLifecycleTests",
            dependencies: [
                "GraftServiceLifecycle",
                .product(name: "Graft", package: "Graft"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
