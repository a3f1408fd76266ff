/// Near matches for a key nobody registers: other names of the same type, and types whose
/// names are a small edit away (`Engin` for `Engine`).
enum Suggestions {
    /// Lines for a message about `key`, drawn from `registered`.
    static func hints(for key: ServiceKey, among registered: [ServiceKey]) -> [String] {
        guard !key.isResolver else { return [resolverIsNoService] }
        var hints: [String] = []
        let sameType = unique(registered.filter { $0.id == key.id }.map(\.description))
        if !sameType.isEmpty {
            hints.append("registered for \(key.typeName): \(sameType.joined(separator: ", "))")
        } else {
            let close = unique(
                registered.map(\.typeName).filter { isClose($0, to: key.typeName) && $0 != key.typeName }
            )
            if !close.isEmpty {
                hints.append("did you mean \(close.joined(separator: " or "))?")
            }
            hints += aliasHints(for: key, among: registered)
        }
        hints.append("register it: builder.register(\(key.typeName).self\(nameArgument(key))) { _ in ... }")
        return hints
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
