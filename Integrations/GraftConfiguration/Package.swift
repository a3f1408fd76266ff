// swift-tools-version:6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// The `generate-documentation` command plugin, only when `GRAFT_DOCS` is set (`.ci/run` sets it):
/// a package that depends on this one then never fetches the plugin. No target depends on it.
let documentationPlugin: [Package.Dependency] =
    Context.environment["GRAFT_DOCS"] == nil
    ? [] : [.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0")]

let package = Package(
    name: "GraftConfiguration",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: [
        .library(name: "GraftConfiguration", targets: ["GraftConfiguration"]),
        .executable(name: "race-car-settings", targets: ["RaceCarSettings"]),
    ],
    dependencies: [
        .package(name: "Graft", path: "../.."),
        // The default trait (JSON) only: environment variables, JSON files and in-memory
        // providers. An app that wants YAML or reloading files enables those traits on its own
        // dependency on swift-configuration; traits of one package are unified.
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
        // FilePath, for the example's file provider (swift-configuration depends on it already).
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ]
        + documentationPlugin,
    targets: [
        .target(
            name: "GraftConfiguration",
            dependencies: [
                .product(name: "Graft", package: "Graft"),
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "RaceCarSettings",
            dependencies: [
                "GraftConfiguration",
                .product(name: "Graft", package: "Graft"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            path: "Examples/RaceCarSettings",
            exclude: ["race-car.json"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "GraftConfigurationTests",
            dependencies: [
                "GraftConfiguration",
                .product(name: "Graft", package: "Graft"),
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
