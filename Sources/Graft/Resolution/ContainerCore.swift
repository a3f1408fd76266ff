import Atomics

/// The engine behind a ``Container`` and its scopes: the frozen table, the singletons, and the
/// resolution algorithm.
///
/// Resolving reads the table without a lock. An existing singleton is one atomic acquire load
/// away; shared instances are created through the ``CreationCoordinator``, which never holds a
/// lock while a factory runs.
final class ContainerCore: Sendable {
    let table: RegistrationTable
    let root: ScopeCore
    let coordinator = CreationCoordinator()
    private let singletons: [ManagedAtomicLazyReference<InstanceBox>]
    private let weakInstances = Locked([Int: WeakInstance]())

    init(table: RegistrationTable) {
        self.table = table
        self.root = ScopeCore(isRoot: true, parent: nil)
        self.singletons = (0..<table.singletonSlotCount).map { _ in ManagedAtomicLazyReference() }
    }

    // MARK: Top-level entry points

    @inline(__always)
    func resolve<Service: Sendable>(
        _ type: Service.Type,
        name: String?,
        _ state: inout ResolveState
    ) throws(GraftError) -> Service {
        guard let entry = table.entry(for: ObjectIdentifier(type), name: name) else {
            return try resolveUnregistered(type, name: name, &state)
        }
        if state.scope.isClosed { throw closedError(ServiceKey(type, name: name), state.scope) }
        let value = try make(entry, &state)
        return try cast(value, to: type, entry.key)
    }

    func resolveAll<Service: Sendable>(
        _ type: Service.Type,
        _ state: inout ResolveState
    ) throws(GraftError) -> [Service] {
        let entries = table.byType[ObjectIdentifier(type)] ?? []
        if state.scope.isClosed { throw closedError(ServiceKey(type), state.scope) }
        var services: [Service] = []
        services.reserveCapacity(entries.count)
        for entry in entries {
            services.append(try cast(try make(entry, &state), to: type, entry.key))
        }
        return services
    }

    @inline(__always)
    func cast<Service>(_ value: any Sendable, to type: Service.Type, _ key: ServiceKey) throws(GraftError) -> Service {
        guard let service = value as? Service else {
            throw GraftError(
                .typeMismatch,
                "\(key) produced a \(Swift.type(of: value)), which is not a \(Service.self)",
                service: key.description
            )
        }
        return service
    }

    // MARK: Making one entry's instance

    /// The instance for `entry` under `state`: shared if its lifetime says so, new otherwise.
    func make(_ entry: Entry, _ state: inout ResolveState) throws(GraftError) -> any Sendable {
        if let instance = entry.instance { return instance }
        state.depth &+= 1
        defer { state.depth &-= 1 }
        do {
            if state.depth % ResolveState.stackHopInterval == 0 {
                return try StackExtension.run { () throws(GraftError) -> any Sendable in
                    try makeByLifetime(entry, &state)
                }
            }
            return try makeByLifetime(entry, &state)
        } catch {
            throw CycleReport.unwinding(error, through: entry.key)
        }
    }

    private func makeByLifetime(_ entry: Entry, _ state: inout ResolveState) throws(GraftError) -> any Sendable {
        switch entry.lifetime {
        case .transient:
            if let target = entry.aliasTarget {
                return try aliased(entry, target: try make(table.entries[target], &state))
            }
            try requireNoAwait(entry)
            return try create(entry, &state, owner: state.scope)
        case .singleton, .eagerSingleton:
            if let box = singletons[entry.slot].load() { return box.value }
            try requireNoAwait(entry)
            return try createShared(entry, &state)
        case .scoped:
            try requireScope(entry, state)
            if let value = state.scope.scopedInstance(entry.slot) { return value }
            try requireNoAwait(entry)
            return try createShared(entry, &state)
        case .graph:
            let call = state.sharedCall()
            if let value = call.graphInstance(entry.index) { return value }
            try requireNoAwait(entry)
            return try create(entry, &state, owner: state.scope) { call.storeGraphInstance($0, index: entry.index) }
        case .weak:
            if let value = weakInstance(entry.slot) { return value }
            try requireNoAwait(entry)
            return try createShared(entry, &state)
        }
    }

    /// Runs the factory, hands the instance to its owner for disposal, then runs activation hooks.
    ///
    /// `publish` makes the instance visible to its own resolution before the hooks run, so
    /// services that inject each other through properties see each other.
    func create(
        _ entry: Entry,
        _ state: inout ResolveState,
        owner: ScopeCore?,
        publish: ((any Sendable) -> Void)? = nil
    ) throws(GraftError) -> any Sendable {
        var value = try construct(entry, &state)
        try finishCreation(&value, entry, &state, owner: owner, publish: publish)
        return value
    }

    func finishCreation(
        _ value: inout any Sendable,
        _ entry: Entry,
        _ state: inout ResolveState,
        owner: ScopeCore?,
        publish: ((any Sendable) -> Void)?
    ) throws(GraftError) {
        if let owner, let record = DisposalRecord(value, key: entry.key), !owner.adopt(record) {
            if case .sync(let disposable, _) = record { try? disposable.dispose() }
            throw closedError(entry.key, owner)
        }
        publish?(value)
        guard !entry.activations.isEmpty else { return }
        let frame = try makeFrame(for: entry, &state)
        for activation in entry.activations {
            do {
                try activation.run(&value, frame)
            } catch let error as GraftError {
                throw error
            } catch {
                throw GraftError(
                    .activationFailed,
                    "activation hook of \(entry.key) threw: \(error)",
                    service: entry.key.description,
                    hints: ["the hook was added at \(entry.source)"],
                    underlyingError: error
                )
            }
        }
        publish?(value)
    }

    func construct(_ entry: Entry, _ state: inout ResolveState) throws(GraftError) -> any Sendable {
        switch entry.factory {
        case .closure(let factory):
            let frame = try makeFrame(for: entry, &state)
            do {
                return try factory(frame)
            } catch {
                throw factoryFailure(error, entry)
            }
        case .autowired(let factory):
            var arguments = Arguments(container: self, entry: entry, state: state)
            defer { state = arguments.state }
            do {
                return try factory(&arguments)
            } catch {
                throw factoryFailure(error, entry)
            }
        case .instance(let value):
            return value
        case .asyncClosure, .asyncAutowired, .alias:
            throw needsAwaitError(entry)
        }
    }

    /// A frame for a closure or hook of `entry`; a cycle if `entry` is already under way.
    func makeFrame(for entry: Entry, _ state: inout ResolveState) throws(GraftError) -> ResolutionFrame {
        if let path = state.frame?.path(from: entry.index) {
            throw CycleReport.error(path + [entry.key])
        }
        _ = state.sharedCall()
        return ResolutionFrame(container: self, state: state, entry: entry)
    }

    // MARK: Shared instances

    /// Creates a singleton, scoped or weak instance exactly once, then publishes it.
    private func createShared(_ entry: Entry, _ state: inout ResolveState) throws(GraftError) -> any Sendable {
        let scope = state.scope
        let acquisition = try coordinator.acquire(sharedSlot(entry, scope), key: entry.key) {
            existingShared(entry, scope)
        }
        switch acquisition {
        case .ready(let value):
            return value
        case .claimed(let chain):
            return try createClaimed(entry, chain, state)
        }
    }

    /// Creates the shared instance whose slot `chain` claimed, publishes it and wakes the waiters.
    func createClaimed(_ entry: Entry, _ chain: CreationChain, _ state: ResolveState) throws(GraftError) -> any Sendable
    {
        var inner = sharedState(entry, state)
        let scope = state.scope
        let owner = owner(ofShared: entry, scope)
        do {
            let value = try CreationChain.$current.withValue(chain) { () throws(GraftError) -> any Sendable in
                try create(entry, &inner, owner: owner) { self.coordinator.setProvisional($0, for: chain) }
            }
            try publishShared(value, entry, scope)
            coordinator.finish(chain, .success(value))
            return value
        } catch {
            let failure = GraftError.wrapping(error)
            coordinator.finish(chain, .failure(failure))
            throw failure
        }
    }

    func sharedSlot(_ entry: Entry, _ scope: ScopeCore) -> SlotID {
        SlotID(store: entry.lifetime == .scoped ? scope.id : root.id, index: entry.slot)
    }

    /// The state a shared instance is created under: singletons and weak instances belong to the root.
    func sharedState(_ entry: Entry, _ state: ResolveState) -> ResolveState {
        guard entry.lifetime != .scoped else {
            return ResolveState(scope: state.scope, frame: state.frame, depth: state.depth)
        }
        return ResolveState(scope: root, frame: state.frame, singleton: entry.key, depth: state.depth)
    }

    func owner(ofShared entry: Entry, _ scope: ScopeCore) -> ScopeCore? {
        switch entry.lifetime {
        case .scoped: scope
        case .weak: nil
        default: root
        }
    }

    func existingShared(_ entry: Entry, _ scope: ScopeCore) -> (any Sendable)? {
        switch entry.lifetime {
        case .scoped: scope.scopedInstance(entry.slot)
        case .weak: weakInstance(entry.slot)
        default: singletons[entry.slot].load()?.value
        }
    }

    func publishShared(_ value: any Sendable, _ entry: Entry, _ scope: ScopeCore) throws(GraftError) {
        switch entry.lifetime {
        case .scoped:
            scope.storeScopedInstance(value, slot: entry.slot)
        case .weak:
            guard let instance = WeakInstance(value) else {
                throw GraftError(
                    .weakNeedsClass,
                    "\(entry.key) is .weak but its factory made a \(type(of: value)), which is not a class",
                    service: entry.key.description,
                    hints: ["only class instances can be held weakly; use .transient or .singleton for values"]
                )
            }
            weakInstances.withLock { $0[entry.slot] = instance }
        default:
            _ = singletons[entry.slot].storeIfNilThenLoad(InstanceBox(value))
        }
    }

    private func weakInstance(_ slot: Int) -> (any Sendable)? {
        weakInstances.withLock { $0[slot] }?.value
    }

    /// Whether the singleton in `entry`'s slot exists already.
    func hasSingleton(_ entry: Entry) -> Bool {
        singletons[entry.slot].load() != nil
    }

    // MARK: Checks and errors

    @inline(__always)
    func requireNoAwait(_ entry: Entry) throws(GraftError) {
        if entry.asyncCause != nil { throw needsAwaitError(entry) }
    }

    func requireScope(_ entry: Entry, _ state: ResolveState) throws(GraftError) {
        guard state.scope.isRoot else { return }
        if let singleton = state.singleton {
            throw GraftError(
                .captiveDependency,
                "captive dependency: \(singleton) (.singleton) resolved \(entry.key) (.scoped) while being created",
                service: singleton.description,
                hints: [
                    "a singleton outlives every scope; make \(singleton.typeName) .scoped, or make \(entry.key.typeName) live as long"
                ]
            )
        }
        throw GraftError(
            .scopedFromRoot,
            "\(entry.key.subject) is .scoped and cannot be resolved from the root container",
            service: entry.key.description,
            hints: ["resolve it from a scope: try container.withScope { try $0.resolve(\(entry.key.typeName).self) }"]
        )
    }

    func needsAwaitError(_ entry: Entry) -> GraftError {
        let cause = entry.asyncCause.map { table.entries[$0].key } ?? entry.key
        let reason = cause == entry.key ? "its factory is async" : "it depends on \(cause), whose factory is async"
        return GraftError(
            .needsAwait,
            "\(entry.key.subject) needs await to be created: \(reason)",
            service: entry.key.description,
            hints: ["resolve it with `try await resolve(\(entry.key.typeName).self)` from async code"]
        )
    }

    func closedError(_ key: ServiceKey, _ scope: ScopeCore) -> GraftError {
        let what = scope.isRoot ? "the container was shut down" : "its scope was closed"
        return GraftError(
            .closed,
            "cannot resolve \(key.subject): \(what)",
            service: key.description,
            hints: [scope.isRoot ? "resolve before shutdown()" : "resolve from an open scope: container.makeScope()"]
        )
    }

    func factoryFailure(_ error: any Error, _ entry: Entry) -> GraftError {
        if let error = error as? GraftError { return error }
        return GraftError(
            .factoryFailed,
            "factory of \(entry.key) threw: \(error)",
            service: entry.key.description,
            hints: ["registered at \(entry.source); the next resolve runs the factory again"],
            underlyingError: error
        )
    }

    func aliased(_ entry: Entry, target value: any Sendable) throws(GraftError) -> any Sendable {
        if case .alias(let targetKey, let fits) = entry.factory, !fits(value) {
            throw GraftError(
                .invalidAlias,
                "\(entry.key) answers with \(targetKey), but its instance, a \(type(of: value)), is not a \(entry.key.typeName)",
                service: entry.key.description,
                hints: ["alias only types the target's instances conform to"]
            )
        }
        return value
    }
}

/// A created singleton, boxed so an atomic reference can publish it.
final class InstanceBox: Sendable {
    let value: any Sendable

    init(_ value: any Sendable) {
        self.value = value
    }
}

/// A `.weak` instance: the container does not keep it alive.
final class WeakInstance: Sendable {
    // Sound without a lock: `object` is written once, in `init`, before the instance is shared,
    // and Swift's runtime makes loading a weak reference atomic. The referent arrived as a
    // `Sendable` value of the type `reopen` casts back to, so handing it out again crosses no
    // boundary the original value could not.
    private nonisolated(unsafe) weak var object: AnyObject?
    private let reopen: @Sendable (AnyObject) -> (any Sendable)?

    /// Holds `value` weakly, or returns `nil` when it is not a class instance.
    init?(_ value: any Sendable) {
        guard type(of: value) is AnyClass else { return nil }
        func reopener<Value: Sendable>(_: Value) -> @Sendable (AnyObject) -> (any Sendable)? {
            { $0 as? Value }
        }
        self.object = value as AnyObject
        self.reopen = reopener(value)
    }

    var value: (any Sendable)? {
        object.flatMap(reopen)
    }
}
