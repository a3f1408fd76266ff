// swift-tools-version:6.2
import PackageDescription

// The Hummingbird server that `request-cost.py` measures: a route through Graft, or the same by
// hand. Built in release in GraftHummingbird's folder (`--scratch-path
// Integrations/GraftHummingbird/.build`), where SwiftNIO and Hummingbird are checked out already.

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "RequestCostHummingbird",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "request-cost-hummingbird", targets: ["RequestCostHummingbird"])
    ],
    dependencies: [
        .package(name: "Graft", path: "../../.."),
        .package(path: "../../GraftHummingbird"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/sqlite-nio", from: "1.13.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "RequestCostHummingbird",
            dependencies: [
                .product(name: "Graft", package: "Graft"),
                .product(name: "GraftHummingbird", package: "GraftHummingbird"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
