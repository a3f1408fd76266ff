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
/// A registration with ``Lifetime/scoped(in:)`` is shared within the nearest enclosing
/// scope that carries its tag: every scope made under one session scope gets that session's
/// instance, which the session scope disposes when it closes.
public protocol ScopeTag: Sendable {}

/// The tag of a `.scoped(in:)` lifetime: which ``ScopeTag`` type its scopes carry. Made by
/// ``Lifetime/scoped(in:)``; compared and printed (`Session`), nothing more.
public struct ScopeTagID: Hashable, Sendable, CustomStringConvertible {
    let type: any Any.Type

    init<Tag: ScopeTag>(_ type: Tag.Type) {
        self.type = type
    }

    public static func == (lhs: ScopeTagID, rhs: ScopeTagID) -> Bool {
        ObjectIdentifier(lhs.type) == ObjectIdentifier(rhs.type)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(type))
    }

    /// The tag's type as code spells it: `Session`.
    /// The tag type's name: `Session`.
    public var description: String { ServiceKey.readable(String(describing: type)) }
}
