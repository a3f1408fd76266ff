import Graft

/// The tyre compound a car starts on; read from configuration by its raw value.
enum TyreCompound: String, CaseIterable, Sendable {
    case soft, medium, hard
}

/// The pit crew's settings, nested under `race.pit`.
struct PitSettings: KeyValueInitializable, Sendable {
    var crewSize = 4
    /// Read as whole seconds, the way swift-configuration reads a `Duration`.
    var stopLimit: Duration = .seconds(5)

    static let injectableKeys: InjectableKeys<PitSettings> = [
        .required("crewSize", \.crewSize),
        .optional("stopLimit", \.stopLimit),
    ]
}

/// The race's settings: from the JSON file, each overridable by an environment variable
/// (`RACE_LAPS=44`, `RACE_PIT_CREW_SIZE=20`).
struct RaceSettings: KeyValueInitializable, Sendable {
    var team = ""
    var laps: UInt16 = 0
    var tyres = TyreCompound.medium
    /// A secret: Graft's messages never show configuration values.
    var radioKey: String?
    var pit = PitSettings()

    static let injectableKeys: InjectableKeys<RaceSettings> = [
        .required("team", \.team),
        .required("laps", \.laps),
        .optional("tyres", \.tyres),
        .optional("radioKey", \.radioKey),
        .nested("pit", \.pit),
    ]
}

/// A service configured by the settings, wired like any other.
struct RaceCar: Sendable {
    let settings: RaceSettings

    var summary: String {
        "\(settings.team): \(settings.laps) laps on \(settings.tyres) tyres, "
            + "a crew of \(settings.pit.crewSize) with \(settings.pit.stopLimit) per stop"
    }
}
