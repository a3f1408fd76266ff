/// What a container is still waiting for, by name: what a shutdown that overran reports.
extension Container {
    /// What keeps the container from having shut down, one line each: the scopes still open
    /// (with the services each would dispose and the leases each holds), the `dispose()` calls
    /// and lease returns being awaited, the stop hook being awaited, and each running service
    /// whose `run()` has not returned.
    ///
    /// Empty once the container has shut down. A server's last resort reads it when shutdown
    /// takes too long, logs it, and ends the process (GraftServiceLifecycle's `ContainerService`
    /// does). For example:
    ///
    /// ```
    /// an open scope holding Orders, a lease of PostgresConnection
    /// return of the lease of PostgresConnection
    /// dispose() of ReportCache
    /// stop hook of Consumer
    /// run() of PostgresClient
    /// ```
    ///
    /// ```swift
    /// if !container.openWork.isEmpty {
    ///     logger.critical("shutdown overran; still open: \(container.openWork.joined(separator: "; "))")
    /// }
    /// ```
    public var openWork: [String] {
        openScopes + core.disposing.current.map(\.beingReleased) + lifecycle.openWork
    }

    /// The scopes still open, one line each, with the services each would dispose and the leases
    /// each holds: the first lines of ``openWork``.
    ///
    /// What a grace period that runs out closes: a server reads it just before, to say which
    /// requests did not finish in time.
    public var openScopes: [String] {
        core.root.openScopeHoldings().map { held in
            held.isEmpty
                ? "an open scope holding nothing to dispose"
                : "an open scope holding \(held.map(\.held).joined(separator: ", "))"
        }
    }
}
