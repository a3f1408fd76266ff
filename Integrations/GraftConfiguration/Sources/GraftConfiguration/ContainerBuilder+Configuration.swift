public import Configuration
public import Graft

/// Settings read from swift-configuration, checked by `build()` with the rest of the graph.
extension ContainerBuilder {
    /// Reads a settings value from `reader`, checks it, and registers it like any service;
    /// also registers a ``LiveSettings`` handle that rereads the current values.
    ///
    /// Every key `Settings` declares is looked up under `prefix` (`"race"` and the key
    /// `"pit.lane"` read `race.pit.lane`, the environment variable `RACE_PIT_LANE`). A required
    /// key that no provider has, a value that is not of the declared type, a type configuration
    /// cannot supply and an unknown key (found through `unknownKeysIn`) are recorded as build
    /// problems: `build()` throws them in one `GraftError` with every missing service and
    /// cycle, and nothing is registered half-filled.
    ///
    /// ```swift
    /// let config = ConfigReader(providers: [
    ///     EnvironmentVariablesProvider(),
    ///     try await FileProvider<JSONSnapshot>(filePath: "race-car.json"),
    /// ])
    /// builder.registerSettings(RaceSettings.self, from: config, prefix: "race")
    /// builder.register(Garage.self, using: Garage.init(settings:))
    /// let container = try builder.build()
    /// ```
    ///
    /// Messages name the configuration key, the providers it was looked up in and the name
    /// each of them uses for it; they never show a configuration value, so a secret cannot
    /// leak into a message, a log or the graph export, whether a provider marks it or not.
    ///
    /// - Parameters:
    ///   - type: The settings type; its `injectableKeys` say what to read.
    ///   - name: A name to tell several registrations of one type apart.
    ///   - reader: Where the values come from; its providers are asked in order.
    ///   - prefix: A dotted key prefix for every key of `Settings`, or `nil` for none.
    ///   - unknownKeysIn: Sources whose keys under `prefix` must each be a key of `Settings`.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    public mutating func registerSettings<Settings: KeyValueInitializable & Sendable>(
        _ type: Settings.Type,
        name: String? = nil,
        from reader: ConfigReader,
        prefix: String? = nil,
        unknownKeysIn: [ConfigurationKeyInventory] = [],
        fileID: String = #fileID,
        line: Int = #line
    ) {
        let binding = SettingsBinding<Settings>(reader: reader, prefix: prefix, inventories: unknownKeysIn)
        let live = LiveSettings(binding: binding)
        switch binding.read() {
        case .success(let settings):
            register(type, name: name, fileID: fileID, line: line, instance: settings)
        case .failure(let error):
            for problem in error.problems {
                addBuildProblem(problem)
            }
            // Registered all the same, so services that need the settings are not reported as
            // missing a dependency too; build() fails before this factory could run.
            register(type, name: name, lifetime: .singleton, fileID: fileID, line: line) { _ in throw error }
        }
        register(LiveSettings<Settings>.self, name: name, fileID: fileID, line: line, instance: live)
    }
}
