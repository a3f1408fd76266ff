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
/// `.scoped(in: Session.self)` is one instance per scope tagged `Session`, shared by every scope
/// made under it (see ``ScopeTag``):
///
/// ```swift
/// builder.register(Subscriptions.self, lifetime: .scoped(in: Connection.self), using: Subscriptions.init)
/// ```
public enum Lifetime: Hashable, Sendable, CaseIterable, CustomStringConvertible {
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
    /// One instance per scope with the tag, shared by every scope made under it: spelled
    /// ``scoped(in:)``.
    case scopedInTag(ScopeTagID)

    /// One instance per scope tagged `tag`, shared by every scope made under it; resolving it
    /// where no enclosing scope has the tag is an error.
    ///
    /// - Parameter tag: The tag of the scopes that share an instance.
    /// - Returns: The lifetime `.scoped(in: tag)`.
    public static func scoped<Tag: ScopeTag>(in tag: Tag.Type) -> Lifetime {
        .scopedInTag(ScopeTagID(tag))
    }

    /// The lifetimes without a tag, in order of declaration.
    public static let allCases: [Lifetime] = [.transient, .singleton, .eagerSingleton, .scoped, .graph, .weak]

    /// The lifetime's name without its tag: `singleton`, and `scoped` for `.scoped(in: Session)`.
    /// For metrics labels and other places a tag would make too many values.
    public var name: String { kind.name }

    /// The lifetime as code spells it: `.singleton`, `.scoped(in: Session)`.
    public var description: String {
        guard case .scopedInTag(let tag) = self else { return ".\(name)" }
        return ".scoped(in: \(tag))"
    }

    /// The lifetime as the engine keeps it, in one byte: a tagged one is `.scoped`, its tag kept
    /// beside it (see ``tag``), so that a registration of a plain lifetime pays nothing for tags.
    var kind: Kind {
        switch self {
        case .transient: .transient
        case .singleton: .singleton
        case .eagerSingleton: .eagerSingleton
        case .scoped, .scopedInTag: .scoped
        case .graph: .graph
        case .weak: .weak
        }
    }

    /// The tag of a `.scoped(in:)` lifetime; `nil` for the others.
    var tag: ScopeTagID? {
        guard case .scopedInTag(let tag) = self else { return nil }
        return tag
    }

    /// The lifetime of `kind`, tagged `tag` when it has one.
    init(_ kind: Kind, tag: ScopeTagID?) {
        switch (kind, tag) {
        case (.scoped, let tag?): self = .scopedInTag(tag)
        case (.transient, _): self = .transient
        case (.singleton, _): self = .singleton
        case (.eagerSingleton, _): self = .eagerSingleton
        case (.scoped, nil): self = .scoped
        case (.graph, _): self = .graph
        case (.weak, _): self = .weak
        }
    }

    /// A lifetime without its tag, as registrations and entries store it.
    @usableFromInline
    enum Kind: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        case transient, singleton, eagerSingleton, scoped, graph, weak

        var name: String { rawValue }

        /// As code spells it: `.singleton`.
        @usableFromInline var description: String { ".\(rawValue)" }
    }
}
