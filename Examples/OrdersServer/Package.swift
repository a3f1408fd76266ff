// swift-tools-version:6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "OrdersServer",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "orders-server", targets: ["OrdersServer"])
    ],
    dependencies: [
        .package(name: "Graft", path: "../.."),
        .package(path: "../../Integrations/GraftConfiguration"),
        .package(path: "../../Integrations/GraftHummingbird"),
        .package(path: "../../Integrations/GraftServiceLifecycle"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        .executableTarget(
            name: "OrdersServer",
            dependencies: [
                .product(name: "Graft", package: "Graft"),
                .product(name: "GraftConfiguration", package: "GraftConfiguration"),
                .product(name: "GraftHummingbird", package: "GraftHummingbird"),
                .product(name: "GraftPostgres", package: "GraftHummingbird"),
                .product(name: "GraftServiceLifecycle", package: "GraftServiceLifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
