// swift-tools-version:6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Graft",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "Graft", targets: ["Graft"]),
        .library(name: "GraftTesting", targets: ["GraftTesting"]),
        .executable(name: "race-car", targets: ["RaceCar"]),
        .executable(name: "pit-wall", targets: ["PitWall"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-atomics.git", from: "1.3.0")
    ],
    targets: [
        .target(
            name: "Graft",
            dependencies: [.product(name: "Atomics", package: "swift-atomics")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "GraftTesting",
            dependencies: ["Graft"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "RaceCar",
            dependencies: ["Graft"],
            path: "Examples/RaceCar",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "PitWall",
            dependencies: ["Graft"],
            path: "Examples/PitWall",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "GraftTests",
            dependencies: ["Graft", "GraftTesting"],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
