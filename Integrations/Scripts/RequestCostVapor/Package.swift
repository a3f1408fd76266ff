// swift-tools-version:6.2
import PackageDescription

// The Vapor server that `request-cost.py` measures: one route through Graft, one by hand.
// Built in release in GraftVapor's folder (`--scratch-path Integrations/GraftVapor/.build`).

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "RequestCostVapor",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "request-cost-vapor", targets: ["RequestCostVapor"])
    ],
    dependencies: [
        .package(name: "Graft", path: "../../.."),
        .package(path: "../../GraftVapor"),
        .package(url: "https://github.com/vapor/vapor.git", from: "4.122.3"),
        .package(url: "https://github.com/vapor/fluent.git", from: "4.13.0"),
        .package(url: "https://github.com/vapor/fluent-sqlite-driver.git", from: "4.9.0"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
    ],
    targets: [
        .executableTarget(
            name: "RequestCostVapor",
            dependencies: [
                .product(name: "Graft", package: "Graft"),
                .product(name: "GraftVapor", package: "GraftVapor"),
                .product(name: "GraftFluent", package: "GraftVapor"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "Fluent", package: "fluent"),
                .product(name: "FluentSQLiteDriver", package: "fluent-sqlite-driver"),
                .product(name: "SQLKit", package: "sql-kit"),
            ],
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
