// swift-tools-version:6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "GraftVapor",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "GraftVapor", targets: ["GraftVapor"])
    ],
    dependencies: [
        .package(name: "Graft", path: "../.."),
        .package(url: "https://github.com/vapor/vapor.git", from: "4.122.3"),
    ],
    targets: [
        .target(
            name: "GraftVapor",
            dependencies: [
                .product(name: "Graft", package: "Graft"),
                .product(name: "Vapor", package: "vapor"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "GraftVaporTests",
            dependencies: [
                "GraftVapor",
                .product(name: "Graft", package: "Graft"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "VaporTesting", package: "vapor"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
