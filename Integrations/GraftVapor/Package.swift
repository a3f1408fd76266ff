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
    name: "GraftVapor",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "GraftVapor", targets: ["GraftVapor"]),
        // Fluent in a product of its own: an app that does not use it never builds it.
        .library(name: "GraftFluent", targets: ["GraftFluent"]),
    ],
    dependencies: [
        .package(name: "Graft", path: "../.."),
        .package(url: "https://github.com/vapor/vapor.git", from: "4.122.3"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/vapor/fluent.git", from: "4.13.0"),
        // Only the tests use it: an in-memory database.
        .package(url: "https://github.com/vapor/fluent-sqlite-driver.git", from: "4.9.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    ]
        + documentationPlugin,
    targets: [
        .target(
            name: "GraftVapor",
            dependencies: [
                .product(name: "Graft", package: "Graft"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "GraftFluent",
            dependencies: [
                "GraftVapor",
                .product(name: "Graft", package: "Graft"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "Fluent", package: "fluent"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "GraftVaporTests",
            dependencies: [
                "GraftVapor",
                "GraftFluent",
                .product(name: "Graft", package: "Graft"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "VaporTesting", package: "vapor"),
                .product(name: "Fluent", package: "fluent"),
                .product(name: "FluentSQLiteDriver", package: "fluent-sqlite-driver"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
