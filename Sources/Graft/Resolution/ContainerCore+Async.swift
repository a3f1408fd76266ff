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
            if let parent = table.parent, !table.answersWrapped(type, name: name) {
                return try await parent.resolveAsync(type, name: name, from: state.scope, of: self)
            }
            return try await resolveUnregisteredAsync(type, name: name, &state)
        }
        if state.scope.isClosed { throw closedError(entry.key, state.scope) }
        return try await makeAsync(entry, &state)
    }

    func resolveAllAsync<Service: Sendable>(
        _ type: Service.Type,
        _ state: inout ResolveState
    ) async throws(GraftError) -> [Service] {
        let entries = table.entries(ofType: ObjectIdentifier(type))
        if state.scope.isClosed { throw closedError(ServiceKey(type), state.scope) }
        if entries.isEmpty, let parent = table.parent {
            return try await parent.resolveAllAsync(type, from: state.scope, of: self)
        }
        var services: [Service] = []
        services.reserveCapacity(entries.count)
        for entry in entries {
            services.append(try await makeAsync(entry, &state))
        }
        return services
    }

    private func resolveUnregisteredAsync<Service: Sendable>(
        _ type: Service.Type,
        name: String?,
        _ state: inout ResolveState
    ) async throws(GraftError) -> Service {
        if name == nil, let collection = Service.self as? any GatheredCollection.Type {
            return try cast(try await collection.gatherAsync(from: self, &state), to: type, ServiceKey(type))
        }
        if name == nil, let wrapping = Service.self as? any WrappedDependency.Type,
            wrapping.dependency.kind != .deferred,
            let entry = table.entry(for: wrapping.dependency.key.id, name: nil)
        {
            return try cast(try await makeErasedAsync(entry, &state), to: type, ServiceKey(type))
        }
        return try resolveUnregistered(type, name: name, &state)
    }

    /// The instance for `entry`, awaiting what needs it.
    ///
    /// Shared instances (singleton, scoped, weak) are created through the suspending path even
    /// when their factory is synchronous, so tasks waiting for another task's creation suspend
    /// instead of blocking a thread of the cooperative pool.
    func makeAsync<Service: Sendable>(_ entry: Entry, _ state: inout ResolveState) async throws(GraftError) -> Service {
        guard entry.asyncCause != nil || (entry.slot >= 0 && !entry.isInstance) else {
            return try make(entry, &state)
        }
        do {
            return try await makeByLifetimeAsync(entry, &state)
        } catch {
            throw CycleReport.unwinding(error, through: entry.key)
        }
    }

    /// The instance of `entry` as `any Sendable`, awaiting what needs it.
    func makeErasedAsync(_ entry: Entry, _ state: inout ResolveState) async throws(GraftError) -> any Sendable {
        func make<Service: Sendable>(_ type: Service.Type) async throws(GraftError) -> any Sendable {
            let service: Service = try await makeAsync(entry, &state)
            return service
        }
        return try await make(entry.serviceType)
    }

    private func makeByLifetimeAsync<Service: Sendable>(
        _ entry: Entry,
        _ state: inout ResolveState
    ) async throws(GraftError) -> Service {
        switch try placement(of: entry, &state, as: Service.self, awaiting: true) {
        case .existing(let box):
            return box.value(holdingItself: entry.holdsInstanceItself)
        case .new(let call):
            return try await createAsync(entry, &state, disposed: true) { publish($0, entry, to: call) }
        case .shared:
            return try await createSharedAsync(entry, &state)
        case .sharedIn(let scope):
            return try await ResolveState.keeping(scope, frame: state.frame, depth: state.depth) {
                (inScope) async throws(GraftError) -> Service in try await createSharedAsync(entry, &inScope)
            }
        }
    }

    func createAsync<Service: Sendable>(
        _ entry: Entry,
        _ state: inout ResolveState,
        disposed: Bool,
        arguments: [any Sendable]? = nil,
        publish: (Service) -> Void = { _ in }
    ) async throws(GraftError) -> Service {
        let start = entry.isObserved ? observationStart() : nil
        var value: Service = try await constructAsync(entry, &state, disposed: disposed, arguments: arguments)
        try finishCreation(&value, entry, &state, disposed: disposed, publish: publish)
        if let start { reportCreation(entry, state, since: start) }
        return value
    }

    /// Runs `entry`'s recipe, awaiting an async factory, or the dependencies of an autowired one
    /// before its initializer runs with finished instances.
    private func constructAsync<Service: Sendable>(
        _ entry: Entry,
        _ state: inout ResolveState,
        disposed: Bool,
        arguments: [any Sendable]?
    ) async throws(GraftError) -> Service {
        let owner = disposed ? state.owner : nil
        switch entry.kind {
        case .closure, .instance, .scopeValue, .parent:
            return try construct(entry, &state, disposed: disposed, arguments: arguments)
        case .autowired where entry.buildAsync == nil, .alias:
            let prefetched = try await prefetchedArguments(entry, &state, arguments)
            return try construct(entry, &state, disposed: disposed, arguments: arguments, prefetched: prefetched)
        case .asyncClosure, .asyncAutowired, .lease, .autowired:
            var frame = entry.kind.takesResolver ? try makeFrame(for: entry, &state) : nil
            defer { ResolutionFrame.giveBackAfterAwait(&frame) }
            let prefetched =
                entry.kind.takesResolver ? nil : try await prefetchedArguments(entry, &state, arguments)
            // On the heap when there are any: the construction is used across awaits.
            return try await ConstructionInputs.onHeap(prefetched: prefetched, arguments: arguments) {
                inputs async throws(GraftError) -> Service in
                try await ConstructionOutput.make(Service.self, expected: entry.key.id) {
                    output async throws(GraftError) in
                    var construction = Construction(
                        site: self,
                        node: entry.index,
                        output: output,
                        inputs: inputs,
                        frame: frame,
                        owner: owner
                    )
                    do {
                        // Only entries that have an async recipe (or form) are of these kinds.
                        guard let build = entry.buildAsync else { return try entry.build(&construction) }
                        try await build(&construction)
                    } catch {
                        throw factoryFailure(error, entry)
                    }
                }
            }
        }
    }

    /// Resolves every parameter of an autowired entry first, awaiting those that need it, so a
    /// synchronous initializer can then run with finished instances.
    private func prefetchedArguments(
        _ entry: Entry,
        _ state: inout ResolveState,
        _ arguments: [any Sendable]?
    ) async throws(GraftError) -> [(any Sendable)?] {
        var values: [(any Sendable)?] = []
        values.reserveCapacity(entry.dependencies.count)
        for index in entry.dependencies.indices {
            let link = entry.links[index]
            let dependency = entry.dependencies[index]
            if dependency.kind == .argument {
                guard let arguments else { throw missingArgumentsError(entry) }
                values.append(arguments[dependency.argument])
            } else if dependency.isImmediate && link >= 0 {
                values.append(try await makeErasedAsync(table.entries[link], &state))
            } else {
                values.append(try argument(index, of: entry, &state))
            }
        }
        return values
    }

    /// Creates a shared instance exactly once; waiters suspend instead of blocking a thread.
    ///
    /// An async factory runs in a task of its own, so cancelling the caller that happened to
    /// start the creation does not cancel it for everyone else waiting. A lease is the exception:
    /// it may wait long for what it leases (a connection from an exhausted pool), only its own
    /// scope waits with it, and a cancelled request should stop waiting, so cancelling the
    /// caller cancels it.
    private func createSharedAsync<Service: Sendable>(
        _ entry: Entry,
        _ state: inout ResolveState
    ) async throws(GraftError) -> Service {
        let scope = state.scope
        let claim: CreationClaim
        let issuer: ClaimIssuer
        let chain: CreationChain?
        if entry.lifetime.store == .scopeSlot {
            switch try scope.claim(entry.slot, key: entry.key, chain: .thisTask) {
            case .existing(let box):
                return box.value(holdingItself: entry.holdsInstanceItself)
            case .join(let joined):
                let box = try await coordinator(of: scope).joinAsync(joined)
                return box.value(holdingItself: entry.holdsInstanceItself)
            case .claimed(let claimed):
                (claim, issuer, chain) = (claimed, .scope(scope), CreationChain.inThisTask)
            }
        } else if entry.lifetime.store == .rootSlot {
            switch try claimRoot(entry, chain: .thisTask) {
            case .existing(let box):
                return box.value(holdingItself: entry.holdsInstanceItself)
            case .join(let joined):
                let box = try await coordinator.joinAsync(joined)
                return box.value(holdingItself: entry.holdsInstanceItself)
            case .claimed(let claimed, let parent):
                (claim, issuer, chain) = (claimed, .root(self, keepsRecord: entry.hasActivations), parent)
            }
        } else {
            let acquisition = try await coordinator.acquireAsync(rootSlot(entry), key: entry.key) {
                existingShared(entry, scope, as: Service.self)
            }
            switch acquisition {
            case .ready(let box):
                return box.value(holdingItself: entry.holdsInstanceItself)
            case .claimed(let claimed, let parent):
                (claim, issuer, chain) = (claimed, .coordinator(coordinator), parent)
            }
        }
        if entry.asyncCause == nil {
            // A synchronous factory runs right here: it needs no other thread to finish, so
            // threads blocked waiting for it can never starve it.
            return try createClaimed(entry, claim, within: chain, by: issuer, state)
        }
        let inner = sharedState(entry, state)
        let disposed = disposesShared(entry)
        let creation = Task { () async throws -> Service in
            var state = inner
            return try await CreationChain.running(claim) { () async throws -> Service in
                try await self.createAsync(entry, &state, disposed: disposed) {
                    if entry.hasActivations { issuer.setProvisional(InstanceCell.make($0), for: claim) }
                }
            }
        }
        let outcome =
            entry.kind == .lease
            ? await withTaskCancellationHandler {
                await creation.result
            } onCancel: {
                creation.cancel()
            }
            : await creation.result
        return try completeShared(entry, claim, by: issuer) { () throws(GraftError) -> Service in
            do { return try outcome.get() } catch { throw GraftError.wrapping(error) }
        }
    }
}
