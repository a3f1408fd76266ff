import Configuration
import Graft
import GraftConfiguration
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Settings come from the environment first, then from race-car.json (next to this file, or
// the path given as the first argument). Try `RACE_LAPS=fifty swift run race-car-settings`.
let path =
    CommandLine.arguments.dropFirst().first
    ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("race-car.json").path
let environment = ProcessInfo.processInfo.environment

let config: ConfigReader
do {
    config = ConfigReader(providers: [
        EnvironmentVariablesProvider(environmentVariables: environment),
        try await FileProvider<JSONSnapshot>(filePath: FilePath(path)),
    ])
} catch {
    print("cannot read \(path): \(error)")
    exit(1)
}

var builder = ContainerBuilder()
builder.registerSettings(
    RaceSettings.self,
    from: config,
    prefix: "race",
    unknownKeysIn: [.environmentVariables(environment)]  // finds a misspelt RACE_… variable
)
builder.register(RaceCar.self, using: RaceCar.init(settings:))

// Misconfigured: every problem on standard error, and exit status 1.
let container = builder.buildOrExit()
print(try container.resolve(RaceCar.self).summary)
