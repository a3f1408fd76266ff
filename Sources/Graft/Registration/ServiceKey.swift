/// Identifies what a registration answers for: a type and an optional name.
///
/// Equality and hashing use the type's identity and the name; `type` is kept to print it.
struct ServiceKey: Hashable, Sendable, CustomStringConvertible {
    let id: ObjectIdentifier
    let name: String?
    let type: any Any.Type

    init(_ type: any Any.Type, name: String? = nil) {
        self.id = ObjectIdentifier(type)
        self.name = name
        self.type = type
    }

    /// The type's name as a user wrote it: `Engine`, `Lazy<Engine>`.
    var typeName: String { String(describing: type) }

    /// `Engine` or `Engine["v12"]`, as paths and messages show a service.
    var description: String {
        guard let name else { return typeName }
        return "\(typeName)[\"\(name)\"]"
    }

    /// `Engine` or `Engine (name: "v12")`, as a message's subject.
    var subject: String {
        guard let name else { return typeName }
        return "\(typeName) (name: \"\(name)\")"
    }

    static func == (lhs: ServiceKey, rhs: ServiceKey) -> Bool {
        lhs.id == rhs.id && lhs.name == rhs.name
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(name)
    }
}
