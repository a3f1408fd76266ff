/// The `async` half of resolution: the same rules as the synchronous path, awaiting async
/// factories and the dependencies that need them.
///
/// An entry that needs no `await` takes the synchronous path even from async code, so async
/// support costs synchronous graphs nothing.
extension ContainerCore {
    func resolveAsync<Service: Sendable>(
        _ type: Service.Type,
        name: String?,
        _ state: inout ResolveState
    ) async throws(GraftError) -> Service {
        guard let entry = table.entry(for: ObjectIdentifier(type), name: name) else {
            return try await resolveUnregisteredAsync(type, name: name, &state)
        }
        if state.scope.isClosed { throw closedError(ServiceKey(type, name: name), state.scope) }
        return try cast(try await makeAsync(entry, &state), to: type, entry.key)
    }

    func resolveAllAsync<Service: Sendable>(
        _ type: Service.Type,
        _ state: inout ResolveState
    ) async throws(GraftError) -> [Service] {
        let entries = table.byType[ObjectIdentifier(type)] ?? []
        if state.scope.isClosed { throw closedError(ServiceKey(type), state.scope) }
        var services: [Service] = []
        services.reserveCapacity(entries.count)
        for entry in entries {
            services.append(try cast(try await makeAsync(entry, &state), to: type, entry.key))
        }
        return services
    }

    private func resolveUnregisteredAsync<Service: Sendable>(
        _ type: Service.Type,
        name: String?,
        _ state: inout ResolveState
    ) async throws(GraftError) -> Service {
        if name == nil, let wrapping = Service.self as? any WrappedDependency.Type,
            wrapping.dependency.wrapper == nil,
            let entry = table.entry(for: wrapping.dependency.key.id, name: nil)
        {
            return try cast(try await makeAsync(entry, &state), to: type, ServiceKey(type))
        }
        return try resolveUnregistered(type, name: name, &state)
    }

    /// The instance for `entry`, awaiting what needs it.
    ///
    /// Shared instances (singleton, scoped, weak) are created through the suspending path even
    /// when their factory is synchronous, so tasks waiting for another task's creation suspend
    /// instead of blocking a thread of the cooperative pool.
    func makeAsync(_ entry: Entry, _ state: inout ResolveState) async throws(GraftError) -> any Sendable {
        guard entry.asyncCause != nil || (entry.slot >= 0 && entry.instance == nil) else {
            return try make(entry, &state)
        }
        do {
            return try await makeByLifetimeAsync(entry, &state)
        } catch {
            throw CycleReport.unwinding(error, through: entry.key)
        }
    }

    private func makeByLifetimeAsync(
        _ entry: Entry,
        _ state: inout ResolveState
    ) async throws(GraftError) -> any Sendable {
        if let target = entry.aliasTarget {
            return try aliased(entry, target: try await makeAsync(table.entries[target], &state))
        }
        switch entry.lifetime {
        case .transient:
            return try await createAsync(entry, &state, owner: state.scope)
        case .graph:
            let call = state.sharedCall()
            if let value = call.graphInstance(entry.index) { return value }
            return try await createAsync(entry, &state, owner: state.scope) {
                call.storeGraphInstance($0, index: entry.index)
            }
        case .scoped:
            try requireScope(entry, state)
            fallthrough
        case .singleton, .eagerSingleton, .weak:
            if let value = existingShared(entry, state.scope) { return value }
            return try await createSharedAsync(entry, &state)
        }
    }

    func createAsync(
        _ entry: Entry,
        _ state: inout ResolveState,
        owner: ScopeCore?,
        publish: (@Sendable (any Sendable) -> Void)? = nil
    ) async throws(GraftError) -> any Sendable {
        var value = try await constructAsync(entry, &state)
        try finishCreation(&value, entry, &state, owner: owner, publish: publish)
        return value
    }

    private func constructAsync(_ entry: Entry, _ state: inout ResolveState) async throws(GraftError) -> any Sendable {
        switch entry.factory {
        case .asyncClosure(let factory):
            let frame = try makeFrame(for: entry, &state)
            do {
                return try await factory(frame)
            } catch {
                throw factoryFailure(error, entry)
            }
        case .autowired(let factory):
            var arguments = try await prefetchedArguments(entry, &state)
            do {
                return try factory(&arguments)
            } catch {
                throw factoryFailure(error, entry)
            }
        case .asyncAutowired(let factory):
            var arguments = try await prefetchedArguments(entry, &state)
            do {
                return try await factory(&arguments)
            } catch {
                throw factoryFailure(error, entry)
            }
        case .closure, .instance, .alias:
            return try construct(entry, &state)
        }
    }

    /// Resolves every parameter of an autowired entry first, awaiting those that need it, so a
    /// synchronous initializer can then run with finished instances.
    private func prefetchedArguments(_ entry: Entry, _ state: inout ResolveState) async throws(GraftError) -> Arguments
    {
        var values: [(any Sendable)?] = []
        values.reserveCapacity(entry.dependencies.count)
        for index in entry.dependencies.indices {
            let link = entry.links[index]
            if entry.dependencies[index].isImmediate && link >= 0 {
                values.append(try await makeAsync(table.entries[link], &state))
            } else {
                values.append(try argument(index, of: entry, &state))
            }
        }
        return Arguments(container: self, entry: entry, state: state, prefetched: values)
    }

    /// Creates a shared instance exactly once; waiters suspend instead of blocking a thread.
    ///
    /// The factory runs in a task of its own, so cancelling the caller that happened to start
    /// the creation does not cancel it for everyone else waiting.
    private func createSharedAsync(_ entry: Entry, _ state: inout ResolveState) async throws(GraftError) -> any Sendable
    {
        let scope = state.scope
        let acquisition = try await coordinator.acquireAsync(sharedSlot(entry, scope), key: entry.key) {
            existingShared(entry, scope)
        }
        switch acquisition {
        case .ready(let value):
            return value
        case .claimed(let chain) where entry.asyncCause == nil:
            // A synchronous factory runs right here: it needs no other thread to finish, so
            // threads blocked waiting for it can never starve it.
            return try createClaimed(entry, chain, state)
        case .claimed(let chain):
            let inner = sharedState(entry, state)
            let owner = owner(ofShared: entry, scope)
            let creation = Task { () async throws -> any Sendable in
                var state = inner
                return try await CreationChain.$current.withValue(chain) { () async throws -> any Sendable in
                    try await self.createAsync(entry, &state, owner: owner) { [coordinator] in
                        coordinator.setProvisional($0, for: chain)
                    }
                }
            }
            do {
                let value = try await creation.value
                try publishShared(value, entry, scope)
                coordinator.finish(chain, .success(value))
                return value
            } catch {
                let failure = GraftError.wrapping(error)
                coordinator.finish(chain, .failure(failure))
                throw failure
            }
        }
    }
}
