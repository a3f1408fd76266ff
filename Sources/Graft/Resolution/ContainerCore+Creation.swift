/// Creating one instance: running its recipe (``construct(_:_:disposed:arguments:prefetched:)``),
/// handing it to its owner for disposal, running its activation hooks, and the parameters a
/// construction asks for on the way.
extension ContainerCore {
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
        let start = Observers.creationStart()
        var value: Service = try construct(entry, &state, disposed: disposed, arguments: arguments)
        try finishCreation(&value, entry, &state, disposed: disposed, publish: publish)
        Observers.reportCreation(entry, state, since: start, in: table)
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
            try state.scope.adoptOrDispose(
                Observers.observed(DisposalRecord(disposer, value, key: entry.key), entry, in: table)
            )
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
        // Giving it back moves the loan's one reference onto the shelf.
        var loan = try makeFrame(for: entry, &state)
        defer { loan.giveBack() }
        var erased: any Sendable = value
        // Bound for the loop only: by `giveBack`, the frame's one reference is the loan's again.
        guard let lent = loan.frame else { return }
        for activation in entry.activations {
            do {
                try activation.run(&erased, lent)
            } catch {
                throw ResolutionErrors.activationFailure(error, activation.role.rawValue, entry)
            }
        }
        value = try Untyped.cast(erased, to: Service.self, entry.key)
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
        if entry.isAsync { throw ResolutionErrors.needsAwait(entry, in: table) }
        var loan = entry.kind.takesResolver ? try makeFrame(for: entry, &state) : .none
        defer { loan.giveBack() }
        let owner = disposed ? state.owner : nil
        try ConstructionInputs.with(prefetched: prefetched, arguments: arguments) { inputs throws(GraftError) in
            try Construction.lending(&state, links: entry.plainTargets) { lent throws(GraftError) in
                var construction = Construction(
                    site: self,
                    node: entry.index,
                    output: output,
                    lent: lent,
                    inputs: inputs,
                    frame: loan.frame,
                    owner: owner,
                    existing: entry.linksToSingletons ? singletons.baseAddress : nil
                )
                do {
                    try entry.build(&construction)
                } catch {
                    throw ResolutionErrors.factoryFailure(error, entry, in: table)
                }
            }
        }
    }

    /// A frame for a closure or hook of `entry`; a cycle if `entry` is already under way.
    ///
    /// Inlined, with ``ResolutionFrame/lend(_:from:)``, into each construction that lends one: as
    /// calls of their own they cost as much again as the lending itself.
    @inline(__always)
    func makeFrame(for entry: Entry, _ state: inout ResolveState) throws(GraftError) -> FrameLoan {
        if let frame = state.unretainedFrame { try frame.requireNoCycle(entering: entry) }
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
            ),
            from: ResolutionFrame.shelfForThisThread
        )
    }

    /// Called once per autowired parameter. Each call follows the link `build()` prepared for
    /// that parameter, so no key is hashed per edge, and a plain dependency arrives with its
    /// type, with no dynamic cast.
    ///
    /// A function of its own, inlined into ``parameter(_:of:)``: written in the override itself,
    /// its closures are compiled as calls of their own (measured: 3% more instructions in the
    /// graph scenario).
    @inline(__always)
    func resolveParameter<Parameter: Sendable>(
        _ type: Parameter.Type,
        of construction: inout Construction
    ) throws(GraftError) -> Parameter {
        let index = construction.position
        if let prefetched = construction.prefetched {
            return try Untyped.parameter(prefetched[index], as: type, construction.node, index, in: table)
        }
        // The request is the `ResolveState` of the resolve that runs this construction (see
        // `construct`), lent for exactly as long as the construction runs.
        if let target = construction.plainLink(at: index), target >= 0 {
            return try construction.withRequest(as: ResolveState.self) { (state) throws(GraftError) -> Parameter in
                try makePlain(table.entry(at: target), &state, as: type)
            }
        }
        let entry = table.entries[construction.node]
        let dependency = entry.dependencies[index]
        if dependency.kind == .argument {
            return try construction.argument(dependency.argument, as: type)
        }
        // Everything else (`Lazy`, `Provider`, `Factory`, optionals) arrives untyped.
        let node = construction.node
        return try construction.withRequest(as: ResolveState.self) { (state) throws(GraftError) -> Parameter in
            try Untyped.parameter(try argument(index, of: entry, &state), as: type, node, index, in: table)
        }
    }

    /// The instance of a plain dependency, borrowing the entry instead of retaining it (the
    /// container is `self`, which the caller already lends).
    @inline(__always)
    func makePlain<Parameter: Sendable>(
        _ target: Unretained<Entry>,
        _ state: inout ResolveState,
        as type: Parameter.Type
    ) throws(GraftError) -> Parameter {
        // The borrowing closure rethrows untyped errors, and its value cannot come back in an
        // optional or a `Result`: this code is not specialized, so such a generic type would be
        // looked up at run time on every call. The value comes back as it is, and an error,
        // always a `GraftError`, is unboxed on the way out.
        do {
            return try target.with { entry in try make(entry, &state) as Parameter }
        } catch {
            throw GraftError.wrapping(error)
        }
    }

    /// The value for parameter `index` of `entry`, untyped: resolved now, a `Lazy`/`Provider`,
    /// or `nil` for an unregistered optional.
    @usableFromInline
    func argument(_ index: Int, of entry: Entry, _ state: inout ResolveState) throws(GraftError) -> (any Sendable)? {
        let link = entry.links[index]
        if let form = entry.deferredForms[index] {
            return form.init(
                DeferredLink(container: self, scope: state.scope, target: link, key: entry.dependencies[index].key)
            )
        }
        guard link >= 0 else { return nil }
        return try makeErased(table.entries[link], &state)
    }
}

/// What the lifecycle and child containers ask of the engine: a service's instance, made or
/// only if it exists.
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
