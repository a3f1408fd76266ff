/// The container and scope a deferred resolution came from, held weakly.
///
/// `Lazy`, `Provider` and `@Injected` resolve long after they were handed out, often from
/// objects the container itself keeps (a singleton, say). Holding the container strongly there
/// would close a reference cycle and keep the container, and everything it made, alive forever.
struct ResolutionOrigin: Sendable {
    weak var container: ContainerCore?
    weak var scope: Scope?

    init(container: ContainerCore, scope: Scope) {
        self.container = container
        self.scope = scope
    }

    /// The origin of resolves through `resolver`, or `nil` for a resolver Graft did not make.
    init?(_ resolver: any Resolver) {
        guard let start = (resolver as? any EngineResolver)?.resolutionStart else { return nil }
        self.init(container: start.core, scope: start.state.scope)
    }

    /// The container and scope to resolve `key` from, both alive and open.
    ///
    /// - Throws: ``GraftError/Code/closed`` when the container is gone, or the scope is closed.
    func resolvable(_ key: ServiceKey) throws(GraftError) -> (ContainerCore, Scope) {
        guard let container, let scope else {
            throw GraftError(
                .closed,
                "cannot resolve \(key.subject): the container it came from no longer exists",
                service: key.description,
                hints: ["keep the Container alive while Lazy, Provider or @Injected values from it are in use"]
            )
        }
        if scope.isClosed { throw container.closedError(key, scope) }
        return (container, scope)
    }

    /// Resolves `type`, registered under `name`, from the origin, as a top-level resolve there.
    ///
    /// - Throws: ``GraftError/Code/closed`` when the container is gone or the scope is closed,
    ///   or the error resolving it throws.
    func resolve<Service: Sendable>(_ type: Service.Type, name: String?) throws(GraftError) -> Service {
        try resolving(ServiceKey(type, name: name)) { container, state throws(GraftError) in
            try container.resolve(type, name: name, &state)
        }
    }

    /// Runs `body`, a top-level resolve of `key` from the origin: its container, and a resolution
    /// state on its scope, both kept alive by this call until `body` returns.
    ///
    /// - Throws: ``GraftError/Code/closed`` when the container is gone or the scope is closed,
    ///   or what `body` throws.
    func resolving<Result>(
        _ key: ServiceKey,
        _ body: (ContainerCore, inout ResolveState) throws(GraftError) -> Result
    ) throws(GraftError) -> Result {
        let (container, scope) = try resolvable(key)
        return try ResolveState.keeping(scope) { (state) throws(GraftError) -> Result in
            try body(container, &state)
        }
    }

    /// Like ``resolving(_:_:)``, for a resolve that awaits.
    func resolving<Result>(
        _ key: ServiceKey,
        _ body: (ContainerCore, inout ResolveState) async throws(GraftError) -> Result
    ) async throws(GraftError) -> Result {
        let (container, scope) = try resolvable(key)
        return try await ResolveState.keeping(scope) { (state) async throws(GraftError) -> Result in
            try await body(container, &state)
        }
    }
}

/// A resolver an engine answers for: the container, a scope, the resolver a factory receives.
/// Where a resolve through it starts, for what reaches the engine through the public `Resolver`
/// protocol (runtime arguments, `@Injected`): a resolver Graft did not make has no start.
protocol EngineResolver: Resolver {
    /// The engine, and a resolution state on the scope the resolver resolves in.
    var resolutionStart: (core: ContainerCore, state: ResolveState) { get }
}

extension Scope: EngineResolver {
    var resolutionStart: (core: ContainerCore, state: ResolveState) { (container, ResolveState(scope: self)) }
}

extension ResolutionFrame: EngineResolver {
    var resolutionStart: (core: ContainerCore, state: ResolveState) { (container, state) }
}
