// swift-tools-version:6.2
import PackageDescription

/// The start-up cost of `@Injectable` against hand-written registrations: a package of its own,
/// so that GraftMacros' users and its CI never build 2,000 generated types.
let package = Package(
    name: "GraftMacrosBenchmarks",
    platforms: [.macOS(.v13)],
    products: [.executable(name: "graft-macros-startup", targets: ["GraftMacrosStartup"])],
    dependencies: [.package(name: "GraftMacros", path: "..")],
    targets: [
        .executableTarget(
            name: "GraftMacrosStartup",
            dependencies: [.product(name: "GraftMacros", package: "GraftMacros")],
            path: "Sources/GraftMacrosStartup",
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        )
    ],
    swiftLanguageModes: [.v6]
)
