/// The engine behind a ``Container`` and its scopes: the frozen table, the singletons, and the
/// resolution algorithm.
///
/// Resolving reads the table without a lock and keeps every value typed: each entry's
/// ``Recipe`` delivers its service's own type (see ``Construction``), so following a dependency
/// costs no dynamic cast. An existing singleton is one atomic acquire load away; shared instances
/// are created through the ``CreationCoordinator``, which never holds a lock while a factory
/// runs. Which instance a resolve gets is the lifetime model's to say (`LifetimeModel.swift`).
///
/// `@unchecked Sendable` restates what ``ConstructionSite`` inherits (Swift requires it): every
/// stored property below is a `let` of a `Sendable` type.
@usableFromInline
final class ContainerCore: ConstructionSite, @unchecked Sendable {
    @usableFromInline let table: RegistrationTable
    @usableFromInline let root: Scope
    /// `root`, unretained: what a `Container`'s resolves start from. Passing the root itself
    /// would retain and release it on every resolve, a write to one cache line that every
    /// thread resolving from the container shares; `root` keeps it alive as long as this core.
    @usableFromInline let unretainedRoot: Unretained<Scope>
    /// Coordinates the creation of the root container's shared instances (singletons, `.weak`
    /// instances, `Lazy` values resolved from the root).
    let coordinator = CreationCoordinator()
    /// Coordinate the waits for scoped instances, each scope's with one of these (see
    /// ``coordinator(of:)``): a scope claims its own slots, and a creation comes here only when a
    /// second caller must wait for it, so requests on different threads do not meet on one lock.
    /// A creation only ever waits on creations of its own scope or of the root, never of another
    /// scope (but for an enclosing scope's `.scoped(in:)` instances: waits only ever go up the
    /// tree of scopes, never down or across), so a wait that would deadlock is always seen by one
    /// coordinator, which reports it as a cycle. Each is made on first use, so a container whose
    /// scoped instances are never waited for pays for none.
    let scopeCoordinators = LazyCells<CreationCoordinator>(count: 7)
    /// The root container's shared instances, one write-once cell per registration.
    @usableFromInline let singletons: LazyCells<AnyObject>
    /// Who is creating each singleton right now (see ``SingletonSlots``).
    let rootClaims: ClaimWords
    /// The `.weak` registrations' instances, by slot.
    ///
    /// In a struct of its own, not a bare dictionary inside `Locked`: the lock's storage would
    /// then need the dictionary type's metadata when the container is made, and the first use
    /// of `Int: Hashable` in a process scans every protocol conformance in it (1.4 million
    /// instructions in an app of 30,000 types). This way a launch pays for that only when the
    /// first weak instance is kept.
    let weakInstances = Locked(WeakInstances())
    /// The `dispose()` calls this container's scopes are awaiting, named when a shutdown overruns.
    let disposing = DisposalsInProgress()

    init(table: RegistrationTable) {
        self.table = table
        self.root = Scope(rootOf: (), isObserved: table.isObserved)
        // `root` keeps it alive as long as this core.
        self.unretainedRoot = Unretained(root)
        self.singletons = LazyCells(count: table.count)
        self.rootClaims = ClaimWords(count: table.count)
        super.init()
    }

    // MARK: What a construction asks of the engine (overrides must live in the class body)

    @usableFromInline
    override func parameter<Parameter: Sendable>(
        _ type: Parameter.Type,
        of construction: inout Construction
    ) throws(GraftError) -> Parameter {
        try resolveParameter(type, of: &construction)
    }

    @usableFromInline
    override func adopt(_ disposal: Disposal, for construction: borrowing Construction) throws(GraftError) {
        // The owner is always a `Scope`: `construct` is the only place that sets it.
        guard let owner = construction.owner(as: Scope.self) else { return }
        let entry = table.entries[construction.node]
        try owner.adoptOrDispose(Observers.observed(DisposalRecord(disposal, key: entry.key), entry, in: table))
    }

    @usableFromInline
    override func missingArguments(for construction: borrowing Construction) -> GraftError {
        ResolutionErrors.missingArguments(table.entries[construction.node])
    }

    // MARK: Top-level entry points

    /// A new scope under the root.
    ///
    /// Here rather than in `Container`, where `core` would be retained around the call: the
    /// core is borrowed as `self`. The root is borrowed too, not read from `root`, which would
    /// retain and release it: a count that every thread making scopes writes to.
    func makeScope() -> Scope {
        unretainedRoot.with { Scope(container: self, parent: $0) }
    }

    /// Resolves for a `Container` or `Scope`: an existing singleton without setting up a
    /// resolution at all, anything else through ``resolve(_:name:_:)``.
    @inlinable
    func resolve<Service: Sendable>(
        _ type: Service.Type,
        name: String?,
        from unretainedScope: Unretained<Scope>
    ) throws(GraftError) -> Service {
        if name == nil, let index = table.unnamedIndex(for: ObjectIdentifier(type)) {
            // Borrowed: the caller keeps the scope alive, and its count stays untouched.
            let isClosed = unretainedScope.with { $0.isClosed }
            // An existing singleton is found from the type alone: its slot is its registration's
            // index, and the slot keeps its box for the container's whole life, so the box is
            // borrowed and only the instance handed out is retained.
            if !isClosed, let address = singletons.address(index) {
                return InstanceCell.value(at: address, as: Service.self)
            }
            return try resolveEntry(index, from: unretainedScope)
        }
        var state = ResolveState(scope: unretainedScope.object)
        return try resolve(type, name: name, &state)
    }

    /// Resolves registration `index` for a `Container` or `Scope`, borrowing its entry (+0): no
    /// reference count changes hands, so threads resolving the same service do not contend on
    /// one cache line.
    @usableFromInline
    func resolveEntry<Service: Sendable>(
        _ index: Int,
        from scope: Unretained<Scope>
    ) throws(GraftError) -> Service {
        var state = ResolveState(unretainedScope: scope)
        return try resolveEntry(index, &state)
    }

    @inlinable
    func resolve<Service: Sendable>(
        _ type: Service.Type,
        name: String?,
        _ state: inout ResolveState
    ) throws(GraftError) -> Service {
        if name == nil, let index = table.unnamedIndex(for: ObjectIdentifier(type)) {
            // An existing singleton is found from the type alone: its slot is its registration's
            // index, and the slot keeps its box for the container's whole life, so the box is
            // borrowed and only the instance handed out is retained.
            if !state.scope.isClosed, let address = singletons.address(index) {
                return InstanceCell.value(at: address, as: Service.self)
            }
            return try resolveEntry(index, &state)
        }
        guard let entry = table.entry(for: ObjectIdentifier(type), name: name) else {
            return try Unregistered.resolve(type, name: name, by: self, &state)
        }
        if state.scope.isClosed { throw closedError(entry.key, state.scope) }
        return try make(entry, &state)
    }

    /// Resolves registration `index` under `state`, borrowing its entry.
    @usableFromInline @inline(__always)
    func resolveEntry<Service: Sendable>(_ index: Int, _ state: inout ResolveState) throws(GraftError) -> Service {
        do {
            return try table.entry(at: index).with { entry throws -> Service in
                if state.scope.isClosed { throw closedError(entry.key, state.scope) }
                return try makeNew(entry, &state)
            }
        } catch {
            throw GraftError.wrapping(error)
        }
    }

    @inlinable
    func resolveAll<Service: Sendable>(
        _ type: Service.Type,
        _ state: inout ResolveState
    ) throws(GraftError) -> [Service] {
        let entries = table.entries(ofType: ObjectIdentifier(type))
        if state.scope.isClosed { throw closedError(ServiceKey(type), state.scope) }
        if entries.isEmpty, let parent = table.parent {
            return try parent.resolveAll(type, from: state.scope, of: self)
        }
        var services: [Service] = []
        services.reserveCapacity(entries.count)
        for entry in entries {
            services.append(try make(entry, &state))
        }
        return services
    }

    // MARK: Making one entry's instance

    /// The instance for `entry` under `state`: shared if its lifetime says so, new otherwise.
    ///
    /// `entry` must answer for `Service` (it was found under `Service`'s key, or linked as a
    /// dependency of that type); constructing checks it before reading the instance.
    @inlinable
    func make<Service: Sendable>(_ entry: Entry, _ state: inout ResolveState) throws(GraftError) -> Service {
        // An existing singleton needs neither the recipe nor any bookkeeping: one acquire load.
        // The slot keeps its box for the container's whole life, so the box is borrowed, not
        // retained; only the instance handed to the caller is.
        if entry.isRootOwned, let address = singletons.address(entry.slot) {
            return InstanceCell.value(at: address, as: Service.self, holdingItself: entry.holdsInstanceItself)
        }
        return try makeNew(entry, &state)
    }

    /// The instance for `entry` when no existing singleton answers.
    @usableFromInline
    func makeNew<Service: Sendable>(_ entry: Entry, _ state: inout ResolveState) throws(GraftError) -> Service {
        if entry.isInstance {
            return try construct(entry, &state, disposed: false)
        }
        state.depth &+= 1
        defer { state.depth &-= 1 }
        do {
            if state.depth % ResolveState.stackHopInterval == 0 {
                return try CreationChain.onFreshStack {
                    () throws(GraftError) -> Service in
                    try makeByLifetime(entry, &state)
                }
            }
            return try makeByLifetime(entry, &state)
        } catch {
            throw CycleReport.unwinding(error, through: entry.key)
        }
    }

    /// The instance of `entry` as `any Sendable`, for callers that do not know its type.
    @usableFromInline
    func makeErased(_ entry: Entry, _ state: inout ResolveState) throws(GraftError) -> any Sendable {
        func make<Service: Sendable>(_ type: Service.Type) throws(GraftError) -> any Sendable {
            let service: Service = try self.make(entry, &state)
            return service
        }
        return try make(entry.serviceType)
    }

    /// The instance of `entry` as its lifetime places it: existing, new, or the one shared
    /// instance, created exactly once.
    @inline(__always)
    func makeByLifetime<Service: Sendable>(
        _ entry: Entry,
        _ state: inout ResolveState
    ) throws(GraftError) -> Service {
        switch try placement(of: entry, &state, as: Service.self) {
        case .existing(let box):
            return box.value(holdingItself: entry.holdsInstanceItself)
        case .new(let call):
            try entry.requireNoAwait(state, in: table)
            // Asked here, not in `create` (see `createObserved`).
            if _slowPath(entry.isObserved) {
                return try createObserved(entry, &state, disposed: true, arguments: nil) {
                    call?.storeGraphInstance(InstanceCell.make($0), index: entry.index)
                }
            }
            return try create(entry, &state, disposed: true) {
                call?.storeGraphInstance(InstanceCell.make($0), index: entry.index)
            }
        case .shared:
            try entry.requireNoAwait(state, in: table)
            return try createShared(entry, state)
        case .sharedIn(let scope):
            try entry.requireNoAwait(state, in: table)
            return try ResolveState.keeping(scope, frame: state.frame, depth: state.depth) {
                (inScope) throws(GraftError) -> Service in try createShared(entry, inScope)
            }
        }
    }

    /// Why `key` cannot be resolved in `scope`, which is closed.
    @usableFromInline
    func closedError(_ key: ServiceKey, _ scope: Scope) -> GraftError {
        ResolutionErrors.closed(key, scope, root: root)
    }
}
