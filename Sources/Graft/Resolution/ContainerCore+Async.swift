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
            return try await Unregistered.resolveAsync(type, name: name, by: self, &state)
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
            return try await createAsync(entry, &state, disposed: true) {
                call?.storeGraphInstance(InstanceCell.make($0), index: entry.index)
            }
        case .shared:
            return try await createSharedAsync(entry, state)
        case .sharedIn(let scope):
            return try await ResolveState.keeping(scope, frame: state.frame, depth: state.depth) {
                (inScope) async throws(GraftError) -> Service in try await createSharedAsync(entry, inScope)
            }
        }
    }

    /// ``createShared(_:_:)``, suspending instead of blocking while it waits.
    private func createSharedAsync<Service: Sendable>(
        _ entry: Entry,
        _ state: borrowing ResolveState
    ) async throws(GraftError) -> Service {
        switch entry.lifetime.store {
        case .rootSlot: try await createSharedAsync(entry, state, in: SingletonSlots())
        case .scopeSlot: try await createSharedAsync(entry, state, in: ScopeSlots(scope: state.unretainedScope))
        case .weakTable, .none, .call: try await createSharedAsync(entry, state, in: WeakSlots())
        }
    }

    func createAsync<Service: Sendable>(
        _ entry: Entry,
        _ state: inout ResolveState,
        disposed: Bool,
        arguments: [any Sendable]? = nil,
        publish: (Service) -> Void = { _ in }
    ) async throws(GraftError) -> Service {
        let start = entry.isObserved ? Observers.creationStart() : nil
        var value: Service = try await constructAsync(entry, &state, disposed: disposed, arguments: arguments)
        try finishCreation(&value, entry, &state, disposed: disposed, publish: publish)
        if let start { Observers.reportCreation(entry, state, since: start, in: table) }
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
            var frame = entry.kind.takesResolver ? try makeFrame(for: entry, &state).frame : nil
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
                        throw ResolutionErrors.factoryFailure(error, entry, in: table)
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
                guard let arguments else { throw ResolutionErrors.missingArguments(entry) }
                values.append(arguments[dependency.argument])
            } else if dependency.isImmediate && link >= 0 {
                values.append(try await makeErasedAsync(table.entries[link], &state))
            } else {
                values.append(try argument(index, of: entry, &state))
            }
        }
        return values
    }

    /// ``createShared(_:_:in:)``, suspending instead of blocking while it waits: the shared
    /// instance of `entry` in `issuer`'s slot, found, waited for, or created here.
    ///
    /// A synchronous factory runs as the synchronous path runs it. An async factory runs in a
    /// task of its own, so cancelling the caller that happened to start the creation does not
    /// cancel it for everyone else waiting. A lease is the exception: it may wait long for what
    /// it leases (a connection from an exhausted pool), only its own scope waits with it, and a
    /// cancelled request should stop waiting, so cancelling the caller cancels it.
    private func createSharedAsync<Service: Sendable, Issuer: ClaimIssuer>(
        _ entry: Entry,
        _ state: borrowing ResolveState,
        in issuer: Issuer
    ) async throws(GraftError) -> Service {
        let claim: CreationClaim
        switch try issuer.claim(entry, of: self, chain: .thisTask) {
        case .existing(let box):
            return box.value(holdingItself: entry.holdsInstanceItself)
        case .join(let joined):
            let box = try await issuer.coordinator(of: self).joinAsync(joined, counted: Issuer.joinsCounted)
            return box.value(holdingItself: entry.holdsInstanceItself)
        case .claimed(let claimed):
            // A synchronous factory runs right here: it needs no other thread to finish, so
            // threads blocked waiting for it can never starve it.
            guard entry.asyncCause != nil else {
                return try createClaimed(entry, claimed, within: CreationChain.inThisTask, by: issuer, state)
            }
            claim = claimed
        }
        // The issuer and the task's state reach the scope unretained. The resolve that started
        // this creation keeps it alive (see `ResolveState`), and this call awaits the task
        // whatever happens; holding the scope here as well makes that hold for the whole await
        // without resting on the callers: one retain per async creation, off the resolve path.
        let keptScope = state.scope
        defer { withExtendedLifetime(keptScope) {} }
        let inner = issuer.creationState(entry, state, root: unretainedRoot)
        let creation = Task { () async throws -> Service in
            var state = inner
            return try await CreationChain.running(claim) { () async throws -> Service in
                try await self.createAsync(entry, &state, disposed: Issuer.disposes) {
                    if entry.hasActivations { issuer.setProvisional(InstanceCell.make($0), for: claim, of: self) }
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
        do {
            let value = try outcome.mapError(GraftError.wrapping).get()
            issuer.finish(claim, .success(try issuer.box(value, entry, of: self)), entry, of: self)
            return value
        } catch {
            issuer.finish(claim, .failure(error), entry, of: self)
            throw error
        }
    }
}
