import Configuration
import Foundation
import Graft
import GraftConfiguration
import SystemPackage
import Testing

/// Reading settings from swift-configuration providers into the graph.
@Suite struct SettingsBindingTests {
    @Test func environmentStringsConvertToTheDeclaredTypes() throws {
        var builder = ContainerBuilder()
        builder.registerSettings(ServerSettings.self, from: environment(validEnvironment), prefix: "app")
        builder.register(Server.self, using: Server.init(settings:))
        let settings = try builder.build().resolve(Server.self).settings

        #expect(settings.host == "localhost")
        #expect(settings.port == 8080)
        #expect(settings.verbose)
        #expect(settings.ratio == 0.25)
        #expect(settings.mode == .fast)
        #expect(settings.token == nil)
        #expect(settings.tags == ["a", "b"])
        #expect(settings.pool.size == 4)
        #expect(settings.pool.idleTimeout == .seconds(30))
    }

    @Test func nestedSettingsReadNestedObjectsOfAJSONFile() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("graft-settings-\(UUID()).json").path
        let json = #"{"app": {"host": "h", "port": 443, "mode": "safe", "pool": {"size": 2, "idleTimeout": 5}}}"#
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        var builder = ContainerBuilder()
        let file = try await FileProvider<JSONSnapshot>(filePath: FilePath(path))
        builder.registerSettings(ServerSettings.self, from: ConfigReader(provider: file), prefix: "app")
        let settings = try await builder.build().resolve(ServerSettings.self)
        #expect(settings.port == 443)
        #expect(settings.mode == .safe)
        #expect(settings.pool.size == 2)
        #expect(settings.pool.idleTimeout == .seconds(5))
    }

    @Test func inMemoryValuesKeepTheirTypes() throws {
        let provider = InMemoryProvider(values: [
            "app.host": "h", "app.port": .init(.int(443), isSecret: false),
            "app.pool.size": .init(.int(2), isSecret: false),
            "app.ratio": .init(.double(1.5), isSecret: false),
        ])
        var builder = ContainerBuilder()
        builder.registerSettings(ServerSettings.self, from: ConfigReader(provider: provider), prefix: "app")
        let settings = try builder.build().resolve(ServerSettings.self)
        #expect(settings.port == 443)
        #expect(settings.pool.size == 2)
        #expect(settings.ratio == 1.5)
    }

    @Test func buildReportsEveryConfigurationProblemWithTheGraphsOwn() {
        var variables = validEnvironment
        variables["APP_HOST"] = nil
        variables["APP_PORT"] = "80a80"
        variables["APP_MODE"] = "turbo"
        variables["APP_POOL_SIZ"] = "3"
        var builder = ContainerBuilder()
        builder.registerSettings(
            ServerSettings.self,
            from: environment(variables),
            prefix: "app",
            unknownKeysIn: [.environmentVariables(variables)]
        )
        builder.register(Server.self, using: Server.init(settings:))
        builder.register(String.self) { r in try r.resolve(Int.self).description }
        struct Client: Sendable {
            let server: Server
            let picture: Picture
        }
        let clientLine = #line + 1
        builder.register(Client.self, using: Client.init(server:picture:))

        let error = #expect(throws: GraftError.self) { try builder.build() }
        #expect(error?.code == .invalidGraph)
        #expect(
            error?.description == """
                Graft: build() found 5 problems
                  1. ServerSettings.port expects UInt16, but configuration key "app.port" holds a value that is not one
                     looked up in EnvironmentVariablesProvider as APP_PORT
                     give it a value of type UInt16; values are never shown here
                  2. ServerSettings.mode expects Mode, got String that is not one of its raw values, at configuration key "app.mode"
                     valid values: "fast", "safe"
                     looked up in EnvironmentVariablesProvider as APP_MODE
                  3. ServerSettings needs configuration key "app.host" (String), which no provider has
                     looked up in EnvironmentVariablesProvider as APP_HOST
                  4. ServerSettings has no key for configuration "APP_POOL_SIZ" in EnvironmentVariablesProvider
                     did you mean "app.pool.size" (APP_POOL_SIZE)?
                  5. no registration for Picture, which Client needs
                     resolving: Client → Picture
                     register it, autowiring its initializer: builder.register(Picture.self, using: Picture.init), or as a value: builder.register(Picture.self, instance: Picture(...))
                     Client was registered at GraftConfigurationTests/SettingsBindingTests.swift:\(clientLine)
                """
        )
        #expect(
            error?.problems.map(\.code) == [.typeMismatch, .typeMismatch, .missingKey, .unknownKey, .missingDependency]
        )
    }

    @Test func aNumberTheDeclaredTypeCannotHoldIsATypeMismatch() {
        var variables = validEnvironment
        variables["APP_PORT"] = "70000"
        var builder = ContainerBuilder()
        builder.registerSettings(ServerSettings.self, from: environment(variables), prefix: "app")
        #expect(
            builder.validate().map(\.description) == [
                """
                Graft: ServerSettings.port expects UInt16, got Int that does not convert exactly, at configuration key "app.port"
                  pass a number that UInt16 holds exactly for "port"
                  looked up in EnvironmentVariablesProvider as APP_PORT
                """
            ]
        )
    }

    @Test func aTypeConfigurationCannotSupplyIsReported() {
        var builder = ContainerBuilder()
        builder.registerSettings(Poster.self, from: environment([:]))
        let problems = builder.validate()
        #expect(problems.count == 1)
        #expect(problems.first?.summary == "Poster.picture has type Picture, which configuration cannot supply")
    }

    @Test func secretValuesAppearInNoMessageAndNoGraphExport() {
        let secret = "s3cr3t-token-value"
        let provider = InMemoryProvider(values: [
            "app.host": .init(.string(secret), isSecret: true),
            "app.port": .init(.string(secret), isSecret: true),
            "app.pool.size": .init(.string(secret), isSecret: true),
        ])
        var builder = ContainerBuilder()
        builder.registerSettings(ServerSettings.self, from: ConfigReader(provider: provider), prefix: "app")
        let error = #expect(throws: GraftError.self) { try builder.build() }
        let text = (error?.description ?? "") + builder.exportGraph(as: .dot) + builder.exportGraph(as: .mermaid)
        #expect(error?.problems.count == 2)
        #expect(!text.contains(secret))
    }
}
