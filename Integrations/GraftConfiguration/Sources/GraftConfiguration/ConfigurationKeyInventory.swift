public import Configuration

/// The keys one configuration source holds, so that a key under a settings prefix that the
/// settings type does not declare is reported, with the declared key it most likely meant.
///
/// swift-configuration's providers answer lookups but cannot list their keys, so the list
/// comes from the same data the provider was made from:
///
/// ```swift
/// let environment = ProcessInfo.processInfo.environment
/// builder.registerSettings(
///     RaceSettings.self,
///     from: ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: environment)),
///     prefix: "race",
///     unknownKeysIn: [.environmentVariables(environment)]
/// )
/// ```
public struct ConfigurationKeyInventory: Sendable {
    /// The source's name, as messages show it.
    let source: String
    /// Each key as the source spells it.
    let names: [String]
    /// How the source spells a dotted key.
    let encoding: KeyEncoding

    /// Environment variable names, compared the way `EnvironmentVariablesProvider` spells keys
    /// (`race.pitLane` is `RACE_PIT_LANE`); only variables under the settings' prefix are
    /// checked, so settings without a prefix check none.
    ///
    /// - Parameter variables: The environment, by variable name.
    /// - Returns: The inventory.
    public static func environmentVariables(_ variables: [String: String]) -> Self {
        Self(source: "EnvironmentVariablesProvider", names: Array(variables.keys), encoding: .environment)
    }

    /// Dotted keys (`race.pitLane`), such as those of an `InMemoryProvider` or a flattened file.
    ///
    /// - Parameters:
    ///   - keys: The keys the source holds.
    ///   - source: The source's name, for messages.
    /// - Returns: The inventory.
    public static func keys(_ keys: [AbsoluteConfigKey], source: String) -> Self {
        Self(source: source, names: keys.map { $0.components.joined(separator: ".") }, encoding: .dotted)
    }
}

/// How a source spells a key given as components.
enum KeyEncoding: Sendable {
    case dotted
    case environment

    func encode(_ components: [String]) -> String {
        switch self {
        case .dotted: components.joined(separator: ".")
        case .environment: components.map(Self.environmentWord).joined(separator: "_")
        }
    }

    /// `pitLane` → `PIT_LANE`: a lowercase letter followed by an uppercase one starts a new
    /// word; anything but letters and digits becomes `_`.
    private static func environmentWord(_ component: String) -> String {
        var result = ""
        var previous: Character?
        for character in component {
            if let previous, previous.isLowercase, character.isUppercase {
                result.append("_")
            }
            result += character.isLetter || character.isNumber ? character.uppercased() : "_"
            previous = character
        }
        return result
    }
}
