/// What a `Lazy` or `Provider` needs to resolve its service later: the entry, and the container
/// and scope it was injected from, held weakly so the holder never keeps a container alive.
@usableFromInline
struct DeferredLink: Sendable {
    let origin: ResolutionOrigin
    @usableFromInline let target: Int
    @usableFromInline let key: ServiceKey

    init(container: ContainerCore, scope: Scope, target: Int, key: ServiceKey) {
        self.origin = ResolutionOrigin(container: container, scope: scope)
        self.target = target
        self.key = key
    }

    /// The coordinator of the container the link came from, which makes a `Lazy` value once.
    func coordinator() throws(GraftError) -> CreationCoordinator {
        let (container, scope) = try origin.resolvable(key)
        return container.coordinator(of: scope)
    }

    func resolve<Service: Sendable>(_ type: Service.Type) throws(GraftError) -> Service {
        try origin.resolving(key) { container, state throws(GraftError) in
            try container.make(container.table.entries[target], &state)
        }
    }

    func resolveAsync<Service: Sendable>(_ type: Service.Type) async throws(GraftError) -> Service {
        try await origin.resolving(key) { container, state async throws(GraftError) in
            try await container.makeAsync(container.table.entries[target], &state)
        }
    }
}
