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
        .library(name: "GraftHummingbird", targets: ["GraftHummingbird"]),
        // WebSockets: a tagged session scope per connection, a request scope per message. Its own
        // product, so an app without WebSockets does not build hummingbird-websocket.
        .library(name: "GraftHummingbirdWebSocket", targets: ["GraftHummingbirdWebSocket"]),
        // PostgreSQL (postgres-nio): a connection leased per request and a transaction that
        // commits in the completion step. Its own product: it needs no Hummingbird, and an app
        // without PostgreSQL does not build postgres-nio.
        .library(name: "GraftPostgres", targets: ["GraftPostgres"]),
    ],
    dependencies: [
        .package(name: "Graft", path: "../.."),
        .package(path: "../GraftServiceLifecycle"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
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
        .target(
            name: "GraftHummingbirdWebSocket",
            dependencies: [
                "GraftHummingbird",
                .product(name: "Graft", package: "Graft"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "GraftPostgres",
            dependencies: [
                .product(name: "Graft", package: "Graft"),
                .product(name: "GraftServiceLifecycle", package: "GraftServiceLifecycle"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "GraftHummingbirdTests",
            dependencies: [
                "GraftHummingbird",
                "GraftHummingbirdWebSocket",
                .product(name: "Graft", package: "Graft"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
                // A raw TCP client that can hang up in the middle of a response.
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
