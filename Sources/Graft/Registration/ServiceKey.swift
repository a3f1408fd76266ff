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

    /// The type's name as a user wrote it: `Engine`, `Lazy<Engine>`.
    @usableFromInline var typeName: String { String(describing: type) }

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
