// The engine's hooks: what it asks of the features above it, declared here so that it names
// none of them. A feature plugs in by conforming (`All` and `ByName` resolve themselves, a
// lease returns itself); the engine never learns which feature answered.

/// A type a caller can resolve directly though nobody registers it, and no registration depends
/// on it (so linking added none for it): a collection gathered at the call from the
/// registrations of its element type, as `resolveAll` would (`container.resolve(All<any
/// Plugin>.self)`); a unit of work opened under the scope resolved from (`Owned`); the state of
/// that scope (`RequestOutcome`).
protocol GatheredCollection {
    static func gather(from core: ContainerCore, _ state: inout ResolveState) throws(GraftError) -> any Sendable
    static func gatherAsync(
        from core: ContainerCore,
        _ state: inout ResolveState
    ) async throws(GraftError) -> any Sendable
}

/// A disposal that can let go of its resource without being awaited: what a synchronous
/// `close()` does with a lease, so that the lender's task ends instead of holding it forever.
protocol LeaseReturning: Sendable {
    func returnWithoutAwaiting()
}

/// A type handed over in place of the service it defers (`Lazy`, `Provider`, `Factory`, the unit
/// inside an `Owned`): the engine links it without making the service and gives it the link, which
/// resolves the service later. What it defers, and how, it says as any wrapped dependency does.
protocol DeferredForm: WrappedDependency, Sendable {
    init(_ link: DeferredLink)
}
