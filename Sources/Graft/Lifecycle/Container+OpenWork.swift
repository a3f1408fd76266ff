/// What a container is still waiting for, by name: what a shutdown that overran reports.
extension Container {
    /// What keeps the container from having shut down, one line each: the scopes still open
    /// (with the services each would dispose), the `dispose()` calls being awaited, and the stop
    /// hook or `run()` the shutdown is waiting for.
    ///
    /// Empty once the container has shut down. A server's last resort reads it when shutdown
    /// takes too long, logs it, and ends the process (GraftServiceLifecycle's `ContainerService`
    /// does).
    ///
    /// ```swift
    /// if !container.openWork.isEmpty {
    ///     logger.critical("shutdown overran; still open: \(container.openWork.joined(separator: "; "))")
    /// }
    /// ```
    public var openWork: [String] {
        let scopes = core.root.openScopeHoldings().map { held in
            held.isEmpty ? "an open scope" : "an open scope holding \(held.map(\.description).joined(separator: ", "))"
        }
        let disposals = core.disposing.current.map { "dispose() of \($0)" }
        let awaited = lifecycle.state.withLock { $0.awaiting }
        return scopes + disposals + (awaited.map { [$0] } ?? [])
    }
}
