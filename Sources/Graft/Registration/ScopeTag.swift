/// A kind of scope that services can be shared within: a session, a tenant, a WebSocket
/// connection.
///
/// Declare one as a type of its own; the type is the tag, spelled once where scopes are made
/// and where services are registered:
///
/// ```swift
/// enum Session: ScopeTag {}
///
/// builder.register(Cart.self, lifetime: .scoped(in: Session.self), using: Cart.init(store:))
/// let session = container.makeScope(tagged: Session.self)
/// let request = session.makeScope()
/// let cart = try request.resolve(Cart.self)  // the session's cart
/// ```
///
/// A registration with ``TaggedLifetime/scoped(in:)`` is shared within the nearest enclosing
/// scope that carries its tag: every scope made under one session scope gets that session's
/// instance, which the session scope disposes when it closes.
public protocol ScopeTag: Sendable {}

/// The lifetime of a service shared within the nearest enclosing scope with a tag.
///
/// ```swift
/// builder.register(Cart.self, lifetime: .scoped(in: Session.self), using: Cart.init(store:))
/// ```
///
/// A lifetime of its own rather than a case of ``Lifetime``, so that a `switch` over
/// ``Lifetime`` written before tagged scopes existed still covers every case. To
/// ``ContainerObserver``s and ``StartupReport``s such a service is ``Lifetime/scoped``.
public struct TaggedLifetime: Hashable, Sendable, CustomStringConvertible {
    let tag: ScopeTagID

    /// One instance per scope tagged `tag`, shared by every scope made under it.
    ///
    /// - Parameter tag: The tag of the scope whose instance every scope under it shares.
    /// - Returns: The lifetime.
    public static func scoped<Tag: ScopeTag>(in tag: Tag.Type) -> TaggedLifetime {
        TaggedLifetime(tag: ScopeTagID(tag))
    }

    /// The lifetime as code spells it: `.scoped(in: Session)`.
    public var description: String { ".scoped(in: \(tag))" }
}

/// A tag, compared by its type.
///
/// Kept as a plain metatype, 8 bytes where `any ScopeTag.Type` takes 16 with its witness table:
/// every registration carries one (`nil` for most), and 30,000 registrations add up.
@usableFromInline
struct ScopeTagID: Hashable, Sendable, CustomStringConvertible {
    let type: any Any.Type

    init<Tag: ScopeTag>(_ type: Tag.Type) {
        self.type = type
    }

    @usableFromInline
    static func == (lhs: ScopeTagID, rhs: ScopeTagID) -> Bool {
        ObjectIdentifier(lhs.type) == ObjectIdentifier(rhs.type)
    }

    @usableFromInline
    func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(type))
    }

    /// The tag's type as code spells it: `Session`.
    @usableFromInline var description: String { ServiceKey.readable(String(describing: type)) }
}
