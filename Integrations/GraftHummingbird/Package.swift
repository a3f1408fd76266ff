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
    name: "GraftHummingbird",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: [
        .library(name: "GraftHummingbird", targets: ["GraftHummingbird"])
    ],
    dependencies: [
        .package(name: "Graft", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // For the tests only: tagged scopes over a real WebSocket (about a minute of CI build).
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
    ] + documentationPlugin,
    targets: [
        .target(
            name: "GraftHummingbird",
            dependencies: [
                .product(name: "Graft", package: "Graft"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "GraftHummingbirdTests",
            dependencies: [
                "GraftHummingbird",
                .product(name: "Graft", package: "Graft"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
                // A raw TCP client that can hang up in the middle of a response.
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
