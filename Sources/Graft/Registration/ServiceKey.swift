/// Identifies what a registration answers for: a type and an optional name.
///
/// Equality and hashing use the type's identity and the name; `type` is kept to print it.
@usableFromInline
struct ServiceKey: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline let id: ObjectIdentifier
    @usableFromInline let name: String?
    @usableFromInline let type: any Any.Type

    @usableFromInline
    init(_ type: any Any.Type, name: String? = nil) {
        self.id = ObjectIdentifier(type)
        self.name = name
        self.type = type
    }

    /// The type's name as a user wrote it: `Engine`, `Lazy<Engine>`, `Factory<PitStop, Lap>`.
    @usableFromInline var typeName: String { Self.readable(String(describing: type)) }

    /// `name` without the `Pack{…}` the runtime prints around a variadic type's arguments.
    static func readable(_ name: String) -> String {
        guard name.contains("Pack{") else { return name }
        var result = ""
        var packDepths: [Int] = []
        var depth = 0
        var rest = Substring(name)
        while let character = rest.first {
            if rest.hasPrefix("Pack{") {
                packDepths.append(depth)
                depth += 1
                rest = rest.dropFirst(5)
                continue
            }
            if character == "{" { depth += 1 }
            if character == "}" {
                depth -= 1
                if packDepths.last == depth {
                    packDepths.removeLast()
                    rest = rest.dropFirst()
                    continue
                }
            }
            result.append(character)
            rest = rest.dropFirst()
        }
        return result
    }

    /// Whether the key is ``Resolver`` itself, which is no service: a closure factory receives
    /// one as its first parameter, and nothing registers it.
    var isResolver: Bool { id == ObjectIdentifier((any Resolver).self) }

    /// `Engine` or `Engine["v12"]`, as paths and messages show a service.
    @usableFromInline var description: String {
        guard let name else { return typeName }
        return "\(typeName)[\"\(name)\"]"
    }

    /// `Engine` or `Engine (name: "v12")`, as a message's subject.
    @usableFromInline var subject: String {
        guard let name else { return typeName }
        return "\(typeName) (name: \"\(name)\")"
    }

    @usableFromInline
    static func == (lhs: ServiceKey, rhs: ServiceKey) -> Bool {
        lhs.id == rhs.id && lhs.name == rhs.name
    }

    @usableFromInline
    func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(name)
    }
}

extension [ServiceKey] {
    /// `(Lap, String)`: the types, as messages list runtime arguments.
    var typeList: String {
        "(\(map(\.typeName).joined(separator: ", ")))"
    }
}
