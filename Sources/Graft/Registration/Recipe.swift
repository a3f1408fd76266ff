/// How one registration makes its instance: a description the engine runs, with no type of
/// its own.
///
/// A recipe is made where the service's type is known (in `register`) and closes over it, so a
/// registration needs no generic class per service type: registering 30,000 services creates
/// no run-time type metadata. The recipe hands its instance to the ``Construction`` it is given,
/// typed, so following a dependency still costs no dynamic cast.
@usableFromInline
struct Recipe: Sendable {
    @usableFromInline typealias Build = @Sendable (inout Construction) throws -> Void
    @usableFromInline typealias BuildAsync = @Sendable (inout Construction) async throws -> Void

    /// The closure that makes the instance: one field for its forms, so a registration stores
    /// one closure's two words, not two.
    @usableFromInline let body: Body
    /// How the instance is made, as validation and diagrams see it.
    @usableFromInline let kind: FactoryKind

    @usableFromInline
    enum Body: Sendable {
        case sync(Build)
        case async(BuildAsync)
        /// A synchronous closure factory kept as the user made it, where its service type was a
        /// generic parameter at run time (see `Recipe.closure(_:)`): the closure that runs it
        /// is made for the registered type when the entry is first made, so the registrations
        /// that are never resolved pay for none.
        case closureOfRegisteredType(ErasedFactory)
        /// A synchronous factory with an async form too: the engine runs the async form where
        /// it makes the instance awaiting, because something the instance needs must be
        /// awaited, and the synchronous one everywhere else. For a factory whose own work can
        /// await what it needs (a recipe Graft adds that resolves in a scope of its own).
        case syncAndAsync(Build, BuildAsync)
    }

    @usableFromInline
    init(_ kind: FactoryKind, build: @escaping Build) {
        self.kind = kind
        self.body = .sync(build)
    }

    @usableFromInline
    init(_ kind: FactoryKind, buildAsync: @escaping BuildAsync) {
        self.kind = kind
        self.body = .async(buildAsync)
    }

    /// A recipe of `kind` with a synchronous factory and an async form of it (see
    /// ``Body/syncAndAsync(_:_:)``); the factory is not async itself, so the instance needs
    /// `await` only when what it needs does.
    init(_ kind: FactoryKind, build: @escaping Build, awaiting buildAsync: @escaping BuildAsync) {
        self.kind = kind
        self.body = .syncAndAsync(build, buildAsync)
    }

    @usableFromInline
    init(closureOfRegisteredType factory: ErasedFactory) {
        self.kind = .closure
        self.body = .closureOfRegisteredType(factory)
    }

    /// What an entry holds as its synchronous factory when it has only an async one; the
    /// engine checks for an async factory before it calls one, so this never runs.
    static let awaitedOnly: Build = { _ in
        throw GraftError(.factoryFailed, "internal: an async factory was run without awaiting")
    }

    /// Makes the instance, awaiting; only async factories, and those with an async form, have one.
    @usableFromInline var buildAsync: BuildAsync? {
        switch body {
        case .async(let build), .syncAndAsync(_, let build): build
        case .sync, .closureOfRegisteredType: nil
        }
    }

    /// Whether the factory must be awaited.
    var isAsync: Bool {
        guard case .async = body else { return false }
        return true
    }

    /// The synchronous factory for `serviceType`, the registered type; for an async factory,
    /// one that is never run (see ``awaitedOnly``).
    func build(for serviceType: any Sendable.Type) -> Build {
        switch body {
        case .sync(let build), .syncAndAsync(let build, _): build
        case .closureOfRegisteredType(let factory): Self.closure(running: factory, for: serviceType)
        case .async: Self.awaitedOnly
        }
    }
}

/// How a registration makes its instance, without the closures: what the graph checks need.
@usableFromInline
enum FactoryKind: Sendable {
    /// An existing object handed in; never created or disposed by Graft.
    case instance
    /// A closure that may resolve anything through the resolver it receives.
    case closure
    /// An `async` closure.
    case asyncClosure
    /// An initializer or function whose parameters are the declared dependencies.
    case autowired
    /// An `async` initializer or function whose parameters are the declared dependencies.
    case asyncAutowired
    /// Answers with another registration's instance (one instance serving several types); the
    /// target is the registration's one dependency.
    case alias
    /// A value each scope is given when it is made (see
    /// ``ContainerBuilder/registerScopeValue(_:fileID:line:)``); the recipe runs only when a
    /// scope was not given one, and reports that.
    case scopeValue
    /// An `async` closure that leases the instance from a with-style API (see
    /// ``ContainerBuilder/register(_:name:lifetime:dependencies:fileID:line:leasedFrom:)``): its
    /// creation is cancelled with the resolve that started it.
    case lease
    /// A child container's stand-in for a registration of its parent: hands out the parent's
    /// instance, which the parent makes and owns; like an instance, never shared or disposed by
    /// the child (see `ChildOverlay`).
    case parent

    var isInstance: Bool { self == .instance || self == .parent }

    var isAsync: Bool { self == .asyncClosure || self == .asyncAutowired || self == .lease }

    /// Whether the factory receives a resolver (and so may resolve what `build()` cannot see).
    var takesResolver: Bool { self == .closure || self == .asyncClosure || self == .lease }
}
