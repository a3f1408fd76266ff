/// Near matches for a key nobody registers: other names of the same type, and types whose
/// names are a small edit away (`Engin` for `Engine`).
enum Suggestions {
    /// Lines for a message about `key`, drawn from `registered`: what is registered instead, then
    /// how to register it.
    ///
    /// - Parameters:
    ///   - key: The key nobody registers.
    ///   - registered: The keys that are registered, in registration order.
    ///   - lifetime: The lifetime to register it with, and the registration that needs it that
    ///     long; `nil` when nothing says (a resolve by hand), which the hint leaves to the default.
    ///   - offeringRegistration: Whether to end with how to register it (a caller with a better
    ///     way to say it leaves it out).
    static func hints(
        for key: ServiceKey,
        among registered: [ServiceKey],
        lifetime: NeededLifetime? = nil,
        offeringRegistration: Bool = true
    ) -> [String] {
        guard !key.isResolver else { return [resolverIsNoService] }
        var hints: [String] = []
        let sameType = registered.filter { $0.id == key.id }
        if !sameType.isEmpty {
            hints.append(sameTypeHint(for: key, among: sameType))
        } else {
            let close = unique(
                registered.map(\.typeName).filter { isClose($0, to: key.typeName) && $0 != key.typeName }
            )
            if !close.isEmpty {
                hints.append("did you mean \(close.joined(separator: " or "))?")
            }
            hints += aliasHints(for: key, among: registered)
        }
        if offeringRegistration {
            hints.append(registerHint(for: key, lifetime: lifetime))
        }
        return hints
    }

    /// For a name nobody registers, the registered names close to it (`"v12"` for `"v21"`);
    /// otherwise every registration of the type.
    private static func sameTypeHint(for key: ServiceKey, among sameType: [ServiceKey]) -> String {
        if let name = key.name {
            let close = unique(
                sameType.filter { $0.name.map { isClose($0, to: name) } ?? false }.map(\.description)
            )
            if !close.isEmpty {
                return "did you mean \(close.joined(separator: " or "))?"
            }
        }
        return "registered for \(key.typeName): \(unique(sameType.map(\.description)).joined(separator: ", "))"
    }

    /// How to register `key`, as it compiles when copied: autowired from the type's initializer
    /// (`using: Engine.init`), with the name and the lifetime the message needs, or given as a
    /// value (`instance:`) when the initializer takes plain values; a type that
    /// registers itself (``Injectable``) as its declaration says; a protocol with the type that
    /// conforms to it, which only the user knows.
    static func registerHint(for key: ServiceKey, lifetime: NeededLifetime? = nil) -> String {
        let reason = lifetime.map { " as long-lived as \($0.holder), which needs it," } ?? ","
        let arguments = nameArgument(key) + (lifetime.map { ", lifetime: \($0.spelling)" } ?? "")
        if key.isProtocol {
            return "register it\(reason) made by a type that conforms to \(key.typeName): "
                + "builder.register((any \(key.typeName)).self\(arguments), using: <ConformingType>.init)"
        }
        if key.name == nil, key.type is any Injectable.Type {
            return "register it as its declaration (Injectable) says: builder.register(\(key.typeName).self)"
        }
        // Both forms: whether the initializer's parameters are services (autowire it) or plain
        // values such as numbers and strings (give the value) only the user knows.
        return "register it\(reason) autowiring its initializer: "
            + "builder.register(\(key.typeName).self\(arguments), using: \(key.typeName).init), "
            + "or as a value: builder.register(\(key.typeName).self\(nameArgument(key)), instance: \(key.typeName)(...))"
    }

    /// For a protocol nobody registers (`any Mailer`), the registered types whose names contain
    /// its name (`SMTPMailer`), and how to alias one.
    ///
    /// A guess by name, and the hint says so: Swift cannot ask at run time whether a type
    /// conforms to a protocol known only as a metatype (nor tell a protocol's name from a
    /// type's: both print as `Mailer`), so the hint holds only if the type does conform.
    private static func aliasHints(for key: ServiceKey, among registered: [ServiceKey]) -> [String] {
        let candidates = unique(
            registered.filter { $0.name == nil && $0.typeName != key.typeName && $0.typeName.contains(key.typeName) }
                .map(\.typeName)
        )
        guard let first = candidates.first else { return [] }
        return [
            "registered: \(candidates.joined(separator: ", ")); if \(key.typeName) is a protocol \(first) conforms "
                + "to, alias it: builder.alias((any \(key.typeName)).self\(nameArgument(key)), to: \(first).self)"
        ]
    }

    /// What to write instead of resolving ``Resolver``, which nothing registers.
    static let resolverIsNoService =
        "Resolver is not a service: a closure factory receives the resolver as its first parameter "
        + "(`{ r in ... }`); resolve through that one"

    /// What to write instead of a registration that asks for ``Resolver`` as a dependency.
    ///
    /// - Parameters:
    ///   - key: The registration that asks for it.
    ///   - isClosureFactory: Whether it is a closure factory (listing it in `dependencies:`)
    ///     rather than an autowired initializer (taking it as a parameter).
    static func resolverHints(for key: ServiceKey, isClosureFactory: Bool) -> [String] {
        if isClosureFactory {
            return ["remove it from `dependencies:`: the closure receives the resolver as its first parameter"]
        }
        return [
            "register \(key.typeName) with a closure factory, which receives the resolver: "
                + "builder.register(\(key.typeName).self\(nameArgument(key))) { r in ... }",
            "or make what it resolves the initializer's parameters (Lazy<T> or Provider<T> for what it needs "
                + "later), so build() checks them",
        ]
    }

    private static func nameArgument(_ key: ServiceKey) -> String {
        guard let name = key.name else { return "" }
        return ", name: \"\(name)\""
    }

    private static func unique(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }

    /// Whether two names differ by at most a third of the longer one's length (and at most 3 edits).
    static func isClose(_ candidate: String, to target: String) -> Bool {
        let limit = min(3, max(1, max(candidate.count, target.count) / 3))
        return abs(candidate.count - target.count) <= limit
            && editDistance(candidate.lowercased(), target.lowercased()) <= limit
    }

    /// The optimal-string-alignment distance: insertions, deletions, substitutions and swaps of
    /// two neighbouring characters each cost one.
    static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs)
        let b = Array(rhs)
        if a.isEmpty || b.isEmpty {
            return max(a.count, b.count)
        }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var distance = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
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

/// The lifetime a missing service is needed with: as long as the longest-lived registration that
/// depends on it, so that registering it as the hint says makes no captive dependency.
struct NeededLifetime: Sendable {
    /// The lifetime as a registration spells it: `.singleton`, `.scoped(in: Session.self)`.
    let spelling: String
    /// The registration that needs it that long, as messages name it.
    let holder: String

    /// The lifetime `holder`, a registration of `lifetime` (tagged with `tag`), needs of what it
    /// holds; `nil` for one made per resolve or per call, whose dependencies may be transient.
    init?(_ lifetime: Lifetime.Kind, tag: ScopeTagID?, holder: ServiceKey) {
        switch lifetime {
        case .singleton, .eagerSingleton, .weak: spelling = ".singleton"
        case .scoped: spelling = tag.map { ".scoped(in: \($0).self)" } ?? ".scoped"
        case .transient, .graph: return nil
        }
        self.holder = holder.description
    }
}

extension ServiceKey {
    /// Whether the key's type is a protocol (`any Mailer`), which messages print without `any`:
    /// its metatype's type prints as `Mailer.Protocol`. Asked only while writing a message.
    var isProtocol: Bool { String(describing: Swift.type(of: type)).hasSuffix(".Protocol") }
}
