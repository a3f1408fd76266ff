import Configuration
import Foundation
import Graft
import GraftConfiguration
import SystemPackage
import Testing

// The code of the article `SettingsFromConfiguration.md` and of the catalog's landing page, compiled
// and run. `.ci/run` compiles the article's blocks as they are (`.ci/articles`); these run them.

// MARK: - A settings type

struct ConnectionPoolSettings: KeyValueInitializable, Sendable {
    var maxConnections = 10
    var idleTimeout: Duration = .seconds(60)

    static let injectableKeys: InjectableKeys<ConnectionPoolSettings> = [
        .optional("maxConnections", \.maxConnections),
        .optional("idleTimeout", \.idleTimeout),
    ]
}

struct DatabaseSettings: KeyValueInitializable, Sendable {
    var host = ""
    var port: UInt16 = 5432
    var password: String?
    var queryTimeout: Duration = .seconds(10)
    var pool = ConnectionPoolSettings()

    static let injectableKeys: InjectableKeys<DatabaseSettings> = [
        .required("host", \.host),
        .optional("port", \.port),
        .optional("password", \.password),
        .optional("queryTimeout", \.queryTimeout),
        .nested("pool", \.pool),
    ]
}

/// Stands for a database client: made once, from the settings of the moment it is made.
struct Database: Sendable {
    let settings: DatabaseSettings
}

// MARK: - From a settings type to a validated container

func makeBuilder(environment: [String: String], configFile: FilePath) async throws -> ContainerBuilder {
    let config = ConfigReader(providers: [
        EnvironmentVariablesProvider(environmentVariables: environment),
        try await FileProvider<JSONSnapshot>(filePath: configFile),
    ])

    var builder = ContainerBuilder()
    builder.registerSettings(
        DatabaseSettings.self,
        from: config,
        prefix: "database",
        unknownKeysIn: [.environmentVariables(environment)]
    )
    builder.register(Database.self, lifetime: .singleton, using: Database.init(settings:))
    return builder
}

// MARK: - LiveSettings

struct QueryRunner: Sendable {
    let settings: LiveSettings<DatabaseSettings>

    func timeout() throws -> Duration {
        try settings.current().queryTimeout
    }
}

@Suite struct SettingsFromConfigurationSnippets {
    /// The article's `config.json`.
    static let configJSON = """
        {
          "database": {
            "host": "db.internal",
            "pool": { "maxConnections": 20 }
          }
        }
        """

    /// Writes `json` to a file of its own, runs `body` with its path, and removes it.
    private func withConfigFile<T>(_ json: String, _ body: (FilePath) async throws -> T) async throws -> T {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("graft-database-\(UUID()).json").path
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try await body(FilePath(path))
    }

    @Test func theFileAndTheEnvironmentFillTheSettings() async throws {
        let container = try await withConfigFile(Self.configJSON) { file in
            try await makeBuilder(environment: ["DATABASE_PORT": "6432"], configFile: file).build()
        }
        let settings = try await container.resolve(Database.self).settings
        #expect(settings.host == "db.internal")
        #expect(settings.port == 6432)
        #expect(settings.password == nil)
        #expect(settings.queryTimeout == .seconds(10))
        #expect(settings.pool.maxConnections == 20)
        #expect(settings.pool.idleTimeout == .seconds(60))
    }

    @Test func anEnvironmentVariableWinsOverTheFile() async throws {
        let container = try await withConfigFile(Self.configJSON) { file in
            try await makeBuilder(environment: ["DATABASE_HOST": "db.staging"], configFile: file).build()
        }
        #expect(try await container.resolve(Database.self).settings.host == "db.staging")
    }

    @Test func buildReportsAMissingKeyAMistypedValueAndAnUnknownKeyAtOnce() async throws {
        let environment = ["DATABASE_PORT": "5432x", "DATABASE_POOL_MAX_CONECTIONS": "20"]
        let error = try await withConfigFile(#"{"database": {}}"#) { file in
            await #expect(throws: GraftError.self) {
                try await makeBuilder(environment: environment, configFile: file).build()
            }
        }
        #expect(error?.code == .invalidGraph)
        #expect(error?.problems.map(\.code) == [.typeMismatch, .missingKey, .unknownKey])
        #expect(
            error?.description == """
                Graft: build() found 3 problems
                  1. DatabaseSettings.port expects UInt16, but configuration key "database.port" holds a value that is not one
                     looked up in EnvironmentVariablesProvider as DATABASE_PORT, FileProvider<JSONSnapshot> as database.port
                     give it a value of type UInt16; values are never shown here
                  2. DatabaseSettings needs configuration key "database.host" (String), which no provider has
                     looked up in EnvironmentVariablesProvider as DATABASE_HOST, FileProvider<JSONSnapshot> as database.host
                  3. DatabaseSettings has no key for configuration "DATABASE_POOL_MAX_CONECTIONS" in EnvironmentVariablesProvider
                     did you mean "database.pool.maxConnections" (DATABASE_POOL_MAX_CONNECTIONS)?
                """
        )
        // Values are never shown, not even a wrong one.
        #expect(error?.description.contains("5432x") == false)
    }

    @Test func theLandingPagesShortFormReadsEveryProviderOfTheReader() throws {
        let config = ConfigReader(providers: [
            InMemoryProvider(values: ["database.host": "db.internal", "database.port": 6432])
        ])

        var builder = ContainerBuilder()
        builder.registerSettings(DatabaseSettings.self, from: config, prefix: "database")
        builder.register(Database.self, lifetime: .singleton, using: Database.init(settings:))
        let container = try builder.build()

        let settings = try container.resolve(Database.self).settings
        #expect(settings.host == "db.internal")
        #expect(settings.port == 6432)
    }

    @Test func aSingletonKeepsItsValuesWhileLiveSettingsRereads() throws {
        let overrides = MutableInMemoryProvider(initialValues: ["database.host": "db-1"])
        var builder = ContainerBuilder()
        builder.registerSettings(DatabaseSettings.self, from: ConfigReader(provider: overrides), prefix: "database")
        builder.register(Database.self, lifetime: .singleton, using: Database.init(settings:))
        builder.register(QueryRunner.self, using: QueryRunner.init(settings:))
        let container = try builder.build()

        let database = try container.resolve(Database.self)
        let runner = try container.resolve(QueryRunner.self)
        overrides.setValue(30, forKey: "database.queryTimeout")
        // database.settings.queryTimeout is still 10 seconds; runner.timeout() returns 30 seconds.
        #expect(database.settings.queryTimeout == .seconds(10))
        #expect(try runner.timeout() == .seconds(30))
        #expect(try container.resolve(Database.self).settings.queryTimeout == .seconds(10))

        overrides.setValue(nil, forKey: "database.host")
        // runner.timeout() now throws the missing key; database keeps the values it was made with.
        let error = #expect(throws: GraftError.self) { try runner.timeout() }
        #expect(error?.problems.map(\.code) == [.missingKey])
        #expect(database.settings.host == "db-1")
    }
}
