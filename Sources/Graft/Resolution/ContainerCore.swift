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
    /// Who is creating each singleton right now (see `ContainerCore+RootClaims.swift`).
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
        try adoptDelivered(disposal, for: construction)
    }

    @usableFromInline
    override func missingArguments(for construction: borrowing Construction) -> GraftError {
        missingArgumentsError(table.entries[construction.node])
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
            return try resolveUnregistered(type, name: name, &state)
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

    @inline(__always)
    func makeByLifetime<Service: Sendable>(
        _ entry: Entry,
        _ state: inout ResolveState
    ) throws(GraftError) -> Service {
        switch try placement(of: entry, &state, as: Service.self) {
        case .existing(let box):
            return box.value(holdingItself: entry.holdsInstanceItself)
        case .new(let call):
            try requireNoAwait(entry, state)
            // Asked here, not in `create` (see `createObserved`).
            if _slowPath(entry.isObserved) {
                return try createObserved(entry, &state, disposed: true, arguments: nil) {
                    publish($0, entry, to: call)
                }
            }
            return try create(entry, &state, disposed: true) { publish($0, entry, to: call) }
        case .shared:
            try requireNoAwait(entry, state)
            return try createShared(entry, &state)
        case .sharedIn(let scope):
            try requireNoAwait(entry, state)
            return try ResolveState.keeping(scope, frame: state.frame, depth: state.depth) {
                (inScope) throws(GraftError) -> Service in try createShared(entry, &inScope)
            }
        }
    }

    /// Runs the factory, hands the instance to `state`'s scope for disposal when `disposed`, then
    /// runs activation hooks.
    ///
    /// A flag rather than the owning scope: passing a scope would retain and release it, and
    /// the root scope is shared by every thread that resolves from the container.
    ///
    /// `publish` makes the instance visible to its own resolution before the hooks run, so
    /// services that inject each other through properties see each other.
    @inline(__always)
    func create<Service: Sendable>(
        _ entry: Entry,
        _ state: inout ResolveState,
        disposed: Bool,
        arguments: [any Sendable]? = nil,
        publish: (Service) -> Void = { _ in }
    ) throws(GraftError) -> Service {
        var value: Service = try construct(entry, &state, disposed: disposed, arguments: arguments)
        try finishCreation(&value, entry, &state, disposed: disposed, publish: publish)
        return value
    }

    /// ``create(_:_:disposed:arguments:publish:)`` for a container with observers, which are
    /// told of the instance made; kept out of line, so a container without any pays one branch.
    ///
    /// Callers ask `entry.isObserved` themselves, each call with a closure of its own: asked
    /// inside `create`, one closure passed to both kept the fast path's closure from being
    /// inlined (measured: twice the cost).
    @inline(never)
    func createObserved<Service: Sendable>(
        _ entry: Entry,
        _ state: inout ResolveState,
        disposed: Bool,
        arguments: [any Sendable]?,
        publish: (Service) -> Void
    ) throws(GraftError) -> Service {
        let start = observationStart()
        var value: Service = try construct(entry, &state, disposed: disposed, arguments: arguments)
        try finishCreation(&value, entry, &state, disposed: disposed, publish: publish)
        reportCreation(entry, state, since: start)
        return value
    }

    @inline(__always)
    func finishCreation<Service: Sendable>(
        _ value: inout Service,
        _ entry: Entry,
        _ state: inout ResolveState,
        disposed: Bool,
        publish: (Service) -> Void
    ) throws(GraftError) {
        if disposed, let disposer = entry.disposer {
            try adopt(observed(DisposalRecord(disposer, value, key: entry.key), entry), by: state.scope)
        }
        // `publish` is a plain closure, not an optional one: in generic code that is not
        // specialized, an optional of a generic function type costs a run-time type lookup.
        publish(value)
        if entry.hasActivations {
            try activate(&value, entry, &state)
            publish(value)
        }
        // The instance as its hooks left it: a decorated one completes as it was handed out.
        if let step = entry.completion { try state.scope.enlist(step, of: value, key: entry.key) }
    }

    /// Runs `entry`'s activation hooks on `value`.
    @usableFromInline
    func activate<Service: Sendable>(
        _ value: inout Service,
        _ entry: Entry,
        _ state: inout ResolveState
    ) throws(GraftError) {
        // Optional, so that giving it back moves the one reference onto the shelf.
        var frame: ResolutionFrame? = try makeFrame(for: entry, &state)
        defer { ResolutionFrame.giveBack(&frame) }
        var erased: any Sendable = value
        // Bound for the loop only: by `giveBack`, the frame's one reference is `frame`'s again.
        guard let lent = frame else { return }
        for activation in entry.activations {
            do {
                try activation.run(&erased, lent)
            } catch let error as GraftError {
                throw error
            } catch {
                throw GraftError(
                    .activationFailed,
                    "\(activation.role.rawValue) of \(entry.key) threw: \(error)",
                    service: entry.key.description,
                    hints: ["the hook was added at \(entry.source)"],
                    underlyingError: error
                )
            }
        }
        value = try cast(erased, to: Service.self, entry.key)
    }

    /// Runs `entry`'s recipe without awaiting; a disposable instance goes to `state`'s scope
    /// when `disposed`.
    ///
    /// The only generic step is moving the instance out of the memory it was delivered to:
    /// everything else is ``run(_:_:disposed:arguments:prefetched:into:)``, which is not generic,
    /// so the engine's code runs without looking up `Service`'s run-time type at each step.
    func construct<Service: Sendable>(
        _ entry: Entry,
        _ state: inout ResolveState,
        disposed: Bool,
        arguments: [any Sendable]? = nil,
        prefetched: [(any Sendable)?]? = nil
    ) throws(GraftError) -> Service {
        var scratch = ConstructionScratch()
        return try ConstructionOutput.make(Service.self, expected: entry.key.id, scratch: &scratch) {
            output throws(GraftError) in
            try run(
                entry,
                &state,
                disposed: disposed,
                arguments: arguments,
                prefetched: prefetched,
                into: ConstructionOutput.Destination(lentTo: output)
            )
        }
    }

    /// Runs `entry`'s synchronous recipe, which delivers its instance to `output`.
    ///
    /// `prefetched` holds the parameters an async resolve awaited ahead of time, in order.
    func run(
        _ entry: Entry,
        _ state: inout ResolveState,
        disposed: Bool,
        arguments: [any Sendable]?,
        prefetched: [(any Sendable)?]?,
        into output: ConstructionOutput.Destination
    ) throws(GraftError) {
        if entry.isAsync { throw needsAwaitError(entry) }
        var frame = entry.kind.takesResolver ? try makeFrame(for: entry, &state) : nil
        defer { ResolutionFrame.giveBack(&frame) }
        let owner = disposed ? state.owner : nil
        try ConstructionInputs.with(prefetched: prefetched, arguments: arguments) { inputs throws(GraftError) in
            try Construction.lending(&state, links: entry.plainTargets) { lent throws(GraftError) in
                var construction = Construction(
                    site: self,
                    node: entry.index,
                    output: output,
                    lent: lent,
                    inputs: inputs,
                    frame: frame,
                    owner: owner,
                    existing: entry.linksToSingletons ? singletons.baseAddress : nil
                )
                do {
                    try entry.build(&construction)
                } catch {
                    throw factoryFailure(error, entry)
                }
            }
        }
    }

    /// A frame for a closure or hook of `entry`; a cycle if `entry` is already under way.
    ///
    /// Inlined, with ``ResolutionFrame/lend(_:)``, into each construction that lends one: as
    /// calls of their own they cost as much again as the lending itself.
    @inline(__always)
    func makeFrame(for entry: Entry, _ state: inout ResolveState) throws(GraftError) -> ResolutionFrame {
        if let frame = state.unretainedFrame { try requireNoCycle(entering: entry, under: frame) }
        // Nested resolves through the frame share the call's `.graph` instances; a table
        // without `.graph` registrations needs no call state, and saves its allocation.
        if table.hasGraphLifetime { _ = state.sharedCall() }
        // Field by field: passing the state itself would copy it, retaining what it holds.
        return ResolutionFrame.lend(
            ResolutionFrame.Step(
                // The resolve lending the frame keeps all four alive while it is lent.
                container: Unretained(self),
                scope: state.unretainedScope,
                parent: state.unretainedFrame,
                call: state.call.map { Unretained($0) },
                entryIndex: entry.index,
                singleton: state.singleton,
                depth: state.depth
            )
        )
    }

    /// Throws the cycle when `entry`'s closure or hook is already under way above `frame`.
    @inline(never)
    func requireNoCycle(entering entry: Entry, under frame: Unretained<ResolutionFrame>) throws(GraftError) {
        if let path = frame.object.path(from: entry.index) {
            throw CycleReport.error(path + [entry.key])
        }
    }

    // MARK: Shared instances

    /// Creates a singleton, scoped or weak instance exactly once, then publishes it.
    @usableFromInline
    func createShared<Service: Sendable>(
        _ entry: Entry,
        _ state: inout ResolveState
    ) throws(GraftError) -> Service {
        if entry.lifetime.store == .scopeSlot {
            return try createScopedShared(entry, in: state.scope, state)
        }
        if entry.lifetime.store == .rootSlot {
            switch try claimRoot(entry, chain: .thisThread(known: state.creation)) {
            case .existing(let box):
                return box.value(holdingItself: entry.holdsInstanceItself)
            case .join(let claim):
                return try coordinator.join(claim).value(holdingItself: entry.holdsInstanceItself)
            case .claimed(let claim, let parent):
                return try createRootClaimed(entry, claim, within: parent, state)
            }
        }
        // Taken only here: a singleton's creation never needs the scope, and holding it would
        // retain and release it.
        let scope = state.scope
        let acquisition = try coordinator.acquire(rootSlot(entry), key: entry.key) {
            existingShared(entry, scope, as: Service.self)
        }
        switch acquisition {
        case .ready(let box):
            return box.value(holdingItself: entry.holdsInstanceItself)
        case .claimed(let claim, let parent):
            return try createClaimed(entry, claim, within: parent, by: .coordinator(coordinator), state)
        }
    }

    /// The `.scoped` instance of `entry` in `scope`: found, waited for, or created here.
    @inline(__always)
    func createScopedShared<Service: Sendable>(
        _ entry: Entry,
        in scope: Scope,
        _ state: borrowing ResolveState
    ) throws(GraftError) -> Service {
        switch try scope.claim(entry.slot, key: entry.key, chain: .thisThread()) {
        case .existing(let box):
            return box.value(holdingItself: entry.holdsInstanceItself)
        case .join(let claim):
            return try coordinator(of: scope).join(claim).value(holdingItself: entry.holdsInstanceItself)
        case .claimed(let claim):
            return try createClaimed(entry, claim, within: CreationChain.current(), by: .scope(scope), state)
        }
    }

    /// Creates the shared instance whose slot `claim` claimed from `issuer`, publishes it and
    /// wakes the waiters: the one rule for every issuer (a scope's slot, a singleton's, the
    /// coordinator's), the synchronous and asynchronous paths alike.
    ///
    /// Inlined into each caller, where the issuer is known: the switches on it fold away, and a
    /// scope issuer costs no reference count. As a generic call of its own, in code that is not
    /// specialized, it would pass type metadata, closure contexts and an indirect result.
    @inline(__always)
    func createClaimed<Service: Sendable>(
        _ entry: Entry,
        _ claim: consuming CreationClaim,
        within parent: CreationChain?,
        by issuer: ClaimIssuer,
        _ state: borrowing ResolveState
    ) throws(GraftError) -> Service {
        var inner = sharedState(entry, state)
        let disposed = disposesShared(entry)
        return try completeShared(entry, claim, by: issuer) { () throws(GraftError) -> Service in
            // The link borrows the claim (`&claim`), so recording the creation copies nothing.
            try CreationChain.running(&claim, within: parent) { _ throws(GraftError) -> Service in
                try createShowingProvisional(entry, &inner, disposed: disposed) {
                    issuer.setProvisional($0, for: claim)
                }
            }
        }
    }

    /// Creates a shared instance of `entry`, showing it to `showProvisional` before its
    /// activation hooks run: only those hooks can see a provisional instance.
    ///
    /// Observed or not is asked here, each call with a closure of its own, as in
    /// `makeByLifetime`.
    @inline(__always)
    func createShowingProvisional<Service: Sendable>(
        _ entry: Entry,
        _ state: inout ResolveState,
        disposed: Bool,
        _ showProvisional: (InstanceCell) -> Void
    ) throws(GraftError) -> Service {
        if _slowPath(entry.isObserved) {
            return try createObserved(entry, &state, disposed: disposed, arguments: nil) {
                if entry.hasActivations { showProvisional(InstanceCell.make($0)) }
            }
        }
        return try create(entry, &state, disposed: disposed) {
            if entry.hasActivations { showProvisional(InstanceCell.make($0)) }
        }
    }

    /// Publishes what `creation` made, or its failure, and wakes every waiter of `claim`, which
    /// `issuer` issued; returns the instance made.
    ///
    /// Inlined into its callers: as a generic call of its own in code that is not specialized,
    /// it passes type metadata, a closure context and an indirect result.
    @inline(__always)
    func completeShared<Service: Sendable>(
        _ entry: Entry,
        _ claim: borrowing CreationClaim,
        by issuer: ClaimIssuer,
        _ creation: () throws(GraftError) -> Service
    ) throws(GraftError) -> Service {
        do {
            let value = try creation()
            issuer.finish(claim, .success(try publishShared(value, entry)), in: self)
            return value
        } catch {
            issuer.finish(claim, .failure(error), in: self)
            throw error
        }
    }

    @usableFromInline
    func weakInstance<Service: Sendable>(_ slot: Int, as type: Service.Type) -> Service? {
        weakInstances.withLock { $0.bySlot[slot] }?.value(as: type)
    }
}
