/// What the lifecycle asks of the engine: a service's instance, made or only if it exists.
extension ContainerCore {
    /// The instance of registration `node`, made now if it was not yet, awaiting what needs it.
    func instance(of node: Int) async throws(GraftError) -> any Sendable {
        var state = ResolveState(scope: root)
        return try await makeErasedAsync(table.entries[node], &state)
    }

    /// The instance of registration `node` if the container made it (or was given it), without
    /// making it: a service stopped at shutdown only if it exists.
    func existingInstance(of node: Int) -> (any Sendable)? {
        let entry = table.entries[node]
        guard entry.isInstance || (entry.isRootOwned && singletons.address(entry.slot) != nil) else { return nil }
        // An existing singleton (or a given instance) is returned as it is: nothing is made.
        var state = ResolveState(scope: root)
        return try? makeErased(entry, &state)
    }
}
