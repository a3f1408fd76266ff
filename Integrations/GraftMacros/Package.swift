// swift-tools-version:6.2
import CompilerPluginSupport
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
    name: "GraftMacros",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "GraftMacros", targets: ["GraftMacros"]),
        .executable(name: "race-car-macros", targets: ["RaceCarMacros"]),
    ],
    dependencies: [
        .package(name: "Graft", path: "../.."),
        // Any swift-syntax from 600 (Swift 6.0) to 603 (Swift 6.3): an app that already depends on
        // one of them shares it.
        .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.1"..<"604.0.0"),
    ]
        + documentationPlugin,
    targets: [
        .macro(
            name: "GraftMacrosPlugin",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "GraftMacros",
            dependencies: [
                "GraftMacrosPlugin",
                .product(name: "Graft", package: "Graft"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "RaceCarMacros",
            dependencies: [
                "GraftMacros",
                .product(name: "Graft", package: "Graft"),
            ],
            path: "Examples/RaceCarMacros",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "GraftMacrosPluginTests",
            dependencies: [
                "GraftMacrosPlugin",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "GraftMacrosTests",
            dependencies: [
                "GraftMacros",
                .product(name: "Graft", package: "Graft"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
