internal import Configuration
internal import Graft

/// Reads one settings type from a configuration reader: every declared key, checked, and the
/// value made only when nothing is wrong.
struct SettingsBinding<Settings: KeyValueInitializable & Sendable>: Sendable {
    let reader: ConfigReader
    let prefix: [String]
    let inventories: [ConfigurationKeyInventory]

    init(reader: ConfigReader, prefix: String?, inventories: [ConfigurationKeyInventory]) {
        self.reader = reader
        self.prefix = prefix.map { $0.split(separator: ".").map(String.init) } ?? []
        self.inventories = inventories
    }

    private var settingsType: String { String(describing: Settings.self) }

    /// The settings, or one error whose `problems` list every problem.
    func read() -> Result<Settings, GraftError> {
        let keys = Settings.injectableKeys
        let snapshot = reader.snapshot()
        var values: [String: any Sendable] = [:]
        var problems: [GraftError] = []
        for name in keys.names {
            guard let type = keys.valueType(forKey: name) else { continue }
            let components = prefix + name.split(separator: ".").map(String.init)
            switch ConfigValueReading.read(type, at: ConfigKey(components), from: snapshot) {
            case .value(let value):
                do {
                    try keys.check(value, forKey: name)
                    values[name] = value
                } catch {
                    problems.append(converted(error, components))
                }
            case .absent:
                break
            case .unreadable:
                problems.append(unreadable(name, type, components))
            case .unsupported:
                problems.append(unsupported(name, type))
            }
        }
        for name in keys.requiredNames where values[name] == nil && !problems.contains(where: { concerns($0, name) }) {
            guard let type = keys.valueType(forKey: name) else { continue }
            problems.append(missing(name, type, prefix + name.split(separator: ".").map(String.init)))
        }
        problems += unknownKeys(declared: keys.names)
        if problems.isEmpty {
            do {
                return .success(try Settings(injecting: values))
            } catch {
                // What only the whole set can show: a group's required key, a repeated declaration.
                problems = error.problems
            }
        }
        let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
        return .failure(
            GraftError(
                problems[0].code,
                "cannot read \(settingsType) from configuration: \(count)",
                service: settingsType,
                problems: problems
            )
        )
    }

    // MARK: - Problems

    private func concerns(_ problem: GraftError, _ name: String) -> Bool {
        problem.summary.hasPrefix("\(settingsType).\(name) ")
    }

    private func dotted(_ components: [String]) -> String {
        components.joined(separator: ".")
    }

    /// Each provider's name with the name it looks the key up by.
    private func lookedUp(_ components: [String]) -> String {
        let places = providerNames.map { provider in
            let encoding: KeyEncoding = provider.hasPrefix("EnvironmentVariablesProvider") ? .environment : .dotted
            return "\(provider) as \(encoding.encode(components))"
        }
        return "looked up in \(places.joined(separator: ", "))"
    }

    /// The providers' names, read from the reader's description (`ConfigReader[providers: A, B]`):
    /// the reader keeps its providers to itself.
    private var providerNames: [String] {
        let description = String(describing: reader)
        guard let start = description.firstRange(of: "providers: "), description.hasSuffix("]") else {
            return [description]
        }
        return description[start.upperBound..<description.index(before: description.endIndex)]
            .split(separator: ", ").map(String.init)
    }

    private func missing(_ name: String, _ type: any Any.Type, _ components: [String]) -> GraftError {
        GraftError(
            .missingKey,
            "\(settingsType) needs configuration key \"\(dotted(components))\" (\(type)), which no provider has",
            service: settingsType,
            hints: [lookedUp(components)]
        )
    }

    private func unreadable(_ name: String, _ type: any Any.Type, _ components: [String]) -> GraftError {
        GraftError(
            .typeMismatch,
            "\(settingsType).\(name) expects \(type), but configuration key \"\(dotted(components))\" "
                + "holds a value that is not one",
            service: settingsType,
            hints: [lookedUp(components), "give it a value of type \(type); values are never shown here"]
        )
    }

    private func converted(_ error: GraftError, _ components: [String]) -> GraftError {
        GraftError(
            error.code,
            "\(error.summary), at configuration key \"\(dotted(components))\"",
            service: settingsType,
            hints: error.hints + [lookedUp(components)]
        )
    }

    private func unsupported(_ name: String, _ type: any Any.Type) -> GraftError {
        GraftError(
            .typeMismatch,
            "\(settingsType).\(name) has type \(type), which configuration cannot supply",
            service: settingsType,
            hints: [
                "declare it as String, Bool, an integer or floating-point type, [String], [Int], [Double], "
                    + "[Bool], [UInt8], a RawRepresentable of String or Int, Duration, URL, UUID or Date, "
                    + "or an Optional of one"
            ]
        )
    }

    /// Keys under the prefix that a source holds and `Settings` does not declare.
    private func unknownKeys(declared: [String]) -> [GraftError] {
        var problems: [GraftError] = []
        for inventory in inventories {
            if inventory.encoding == .environment && prefix.isEmpty {
                continue
            }
            let start = prefix.isEmpty ? "" : inventory.encoding.encode(prefix) + separator(inventory.encoding)
            var spelled: [String: String] = [:]
            for name in declared {
                spelled[inventory.encoding.encode(prefix + name.split(separator: ".").map(String.init))] = name
            }
            for raw in inventory.names.sorted() where raw.hasPrefix(start) && spelled[raw] == nil {
                let nearest = Self.nearest(to: raw, among: Array(spelled.keys))
                let hint =
                    nearest.flatMap { spelled[$0] }.map {
                        "did you mean \"\(dotted(prefix + [$0]))\" (\(nearest ?? ""))?"
                    } ?? "keys of \(settingsType): \(declared.map { "\"\($0)\"" }.joined(separator: ", "))"
                problems.append(
                    GraftError(
                        .unknownKey,
                        "\(settingsType) has no key for configuration \"\(raw)\" in \(inventory.source)",
                        service: settingsType,
                        hints: [hint]
                    )
                )
            }
        }
        return problems
    }

    private func separator(_ encoding: KeyEncoding) -> String {
        encoding == .environment ? "_" : "."
    }

    /// The closest spelling within a third of its length (at most 3 edits), ignoring case.
    static func nearest(to key: String, among candidates: [String]) -> String? {
        var best: (name: String, distance: Int)?
        for candidate in candidates.sorted() {
            let distance = editDistance(Array(key.lowercased()), Array(candidate.lowercased()))
            let limit = max(1, min(3, candidate.count / 3))
            if distance <= limit && distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// Insertions, deletions, substitutions and swaps of neighbours each cost one.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                var distance = min(
                    previous[j] + 1,
                    current[j - 1] + 1,
                    previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                )
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    distance = min(distance, beforePrevious[j - 2] + 1)
                }
                current[j] = distance
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
