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
        switch resolver {
        case let container as Container: self.init(container: container.core, scope: container.core.root)
        case let scope as Scope: self.init(container: scope.container, scope: scope)
        case let frame as ResolutionFrame: self.init(container: frame.container, scope: frame.scope)
        default: return nil
        }
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
}
