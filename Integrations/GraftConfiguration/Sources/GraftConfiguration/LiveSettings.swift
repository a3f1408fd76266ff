public import Graft

/// An injected handle that reads a settings value anew from its configuration on each
/// ``current()``: for services that must see values a reloading provider changed.
///
/// ``Graft/ContainerBuilder/registerSettings(_:name:from:prefix:unknownKeysIn:fileID:line:)``
/// registers one next to the settings. The settings value itself is read once, while the
/// container is described, and is a value: a singleton that was given `RaceSettings` keeps
/// the values of that moment for its whole life, even after the provider reloads. A service
/// that must follow changes asks for `LiveSettings<RaceSettings>` instead and reads
/// `current()` where it needs the values:
///
/// ```swift
/// struct LapTimer {
///     let settings: LiveSettings<RaceSettings>
///     func limit() throws -> Duration { try settings.current().lapLimit }
/// }
/// builder.register(LapTimer.self, using: LapTimer.init(settings:))
/// ```
///
/// Each read is checked like the first: when the configuration has become invalid,
/// `current()` throws the problems and returns nothing half-read.
public struct LiveSettings<Settings: KeyValueInitializable & Sendable>: Sendable {
    let binding: SettingsBinding<Settings>

    /// Reads the settings from the configuration as it is now.
    ///
    /// ```swift
    /// let laps = try live.current().laps
    /// ```
    ///
    /// - Returns: A new settings value.
    /// - Throws: `GraftError` listing every problem, as `build()` would report them.
    public func current() throws(GraftError) -> Settings {
        try binding.read().get()
    }
}
