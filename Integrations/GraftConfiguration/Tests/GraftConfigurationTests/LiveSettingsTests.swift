import Configuration
import Graft
import GraftConfiguration
import Testing

/// What services see when a provider's values change after build().
@Suite struct LiveSettingsTests {
    private func provider() -> MutableInMemoryProvider {
        MutableInMemoryProvider(initialValues: [
            "app.host": "first", "app.port": .init(.int(1), isSecret: false),
            "app.pool.size": .init(.int(1), isSecret: false),
        ])
    }

    @Test func aSingletonKeepsTheValuesOfBuildWhileTheHandleRereads() throws {
        let values = provider()
        var builder = ContainerBuilder()
        builder.registerSettings(ServerSettings.self, from: ConfigReader(provider: values), prefix: "app")
        builder.register(Server.self, lifetime: .singleton, using: Server.init(settings:))
        let container = try builder.build()
        let server = try container.resolve(Server.self)
        let live = try container.resolve(LiveSettings<ServerSettings>.self)

        values.setValue("second", forKey: "app.host")

        #expect(server.settings.host == "first")
        #expect(try container.resolve(Server.self).settings.host == "first")
        #expect(try container.resolve(ServerSettings.self).host == "first")
        #expect(try live.current().host == "second")
    }

    @Test func anInvalidChangeThrowsFromTheHandleAndChangesNothing() throws {
        let values = provider()
        var builder = ContainerBuilder()
        builder.registerSettings(ServerSettings.self, from: ConfigReader(provider: values), prefix: "app")
        let container = try builder.build()
        let live = try container.resolve(LiveSettings<ServerSettings>.self)

        values.setValue(nil, forKey: "app.host")
        values.setValue("not a port", forKey: "app.port")

        let error = #expect(throws: GraftError.self) { try live.current() }
        #expect(
            error?.description == """
                Graft: cannot read ServerSettings from configuration: 2 problems
                  1. ServerSettings.port expects UInt16, but configuration key "app.port" holds a value that is not one
                     looked up in MutableInMemoryProvider as app.port
                     give it a value of type UInt16; values are never shown here
                  2. ServerSettings needs configuration key "app.host" (String), which no provider has
                     looked up in MutableInMemoryProvider as app.host
                """
        )
        #expect(try container.resolve(ServerSettings.self).host == "first")
    }
}
