/// How long an instance lives and who shares it.
///
/// | lifetime | one instance per | created | disposed |
/// |---|---|---|---|
/// | ``transient`` | resolve | every resolve | by the scope or container that created it |
/// | ``singleton`` | root container | first resolve | ``Container/shutdown()-6bp33`` |
/// | ``eagerSingleton`` | root container | during ``ContainerBuilder/build()-4ammy`` | ``Container/shutdown()-6bp33`` |
/// | ``scoped`` | scope | first resolve in that scope | ``Scope/close()-y6f1`` |
/// | ``graph`` | top-level resolve call | first use within that call | as transient |
/// | ``weak`` | while anyone holds it | when no live instance exists | never by the container |
///
/// ```swift
/// builder.register(Engine.self, lifetime: .singleton) { _ in RCEngine() }
/// builder.register(PitStopOrder.self, lifetime: .scoped, using: PitStopOrder.init(car:))
/// ```
///
/// One more lifetime is not a case here: `.scoped(in: Session.self)`, one instance per scope
/// tagged `Session`, shared by every scope made under it (see ``TaggedLifetime`` and
/// ``ScopeTag``).
public enum Lifetime: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// A new instance for every resolve; the default.
    case transient
    /// One instance for the root container, created on first resolve.
    case singleton
    /// One instance for the root container, created while the container is built.
    case eagerSingleton
    /// One instance per ``Scope``; resolving it from the root container is an error.
    case scoped
    /// One instance per top-level resolve call, shared by everything that call creates.
    case graph
    /// The live instance while anything else holds it; a new one once it is gone.
    case weak

    /// The lifetime as code spells it: `.singleton`.
    public var description: String { ".\(rawValue)" }
}
