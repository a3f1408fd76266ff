extension All: GatheredCollection {
    static func gather(from core: ContainerCore, _ state: inout ResolveState) throws(GraftError) -> any Sendable {
        All(try core.resolveAll(Service.self, &state))
    }

    static func gatherAsync(
        from core: ContainerCore,
        _ state: inout ResolveState
    ) async throws(GraftError) -> any Sendable {
        All(try await core.resolveAllAsync(Service.self, &state))
    }
}

extension ByName: GatheredCollection {
    /// Each name once, in the order first registered, answered by its winning registration.
    private static func names(in core: ContainerCore) -> [String] {
        var seen = Set<String>()
        return core.table.entries(ofType: ObjectIdentifier(Service.self)).compactMap(\.key.name)
            .filter { seen.insert($0).inserted }
    }

    static func gather(from core: ContainerCore, _ state: inout ResolveState) throws(GraftError) -> any Sendable {
        var pairs: [(String, Service)] = []
        for name in names(in: core) { pairs.append((name, try core.resolve(Service.self, name: name, &state))) }
        return ByName(pairs: pairs)
    }

    static func gatherAsync(
        from core: ContainerCore,
        _ state: inout ResolveState
    ) async throws(GraftError) -> any Sendable {
        var pairs: [(String, Service)] = []
        for name in names(in: core) {
            pairs.append((name, try await core.resolveAsync(Service.self, name: name, &state)))
        }
        return ByName(pairs: pairs)
    }
}
