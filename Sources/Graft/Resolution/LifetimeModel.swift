/// Each lifetime's rule, written once: where its instances are kept, whether one exists
/// already, who owns a new one and how a new one is published.
///
/// | lifetime | kept in (``InstanceStore``) | owner of a new instance | published to |
/// |---|---|---|---|
/// | `.transient` | nowhere | the scope of the resolve | nobody |
/// | `.graph` | the top-level call | the scope of the resolve | the call |
/// | `.singleton`, `.eagerSingleton` | a root slot | the root container | the slot, once |
/// | `.scoped` | a slot of the scope | the scope | the slot, once |
/// | `.scoped(in:)` | a slot of the nearest scope with the tag | that scope | its slot, once |
/// | `.weak` | the weak table | nobody (never disposed) | the table, held weakly |
///
/// The synchronous and the asynchronous resolve paths both ask ``ContainerCore/placement(of:_:as:)``
/// and differ only in whether they await the construction it asks for. Where each lifetime's
/// instances are kept is the lifetime table's to say (`Registration/Lifetime+Table.swift`).
/// What a resolve must do for one entry, as its lifetime decides.
enum Placement {
    /// The instance exists: hand it out.
    case existing(InstanceCell)
    /// Create a new instance, owned by the resolve's scope, publishing it to `call` when the
    /// lifetime shares it per call.
    case new(call: CallState?)
    /// Create the one shared instance, exactly once however many resolves race for it.
    case shared
    /// Create the one shared instance of a `.scoped(in:)` entry in `scope`, the nearest
    /// enclosing scope with its tag (see `ContainerCore+TaggedScopes.swift`).
    case sharedIn(Scope)
}

extension ContainerCore {
    /// What resolving `entry` under `state` must do.
    @inline(__always)
    func placement<Service: Sendable>(
        of entry: Entry,
        _ state: inout ResolveState,
        as type: Service.Type,
        awaiting: Bool = false
    ) throws(GraftError) -> Placement {
        switch entry.lifetime.store {
        case .none:
            return .new(call: nil)
        case .call:
            let call = state.sharedCall()
            if let box = call.graphInstance(entry.index) { return .existing(box) }
            return .new(call: call)
        case .scopeSlot:
            if let tag = entry.scopeTag { return try taggedPlacement(of: entry, tag, state, awaiting: awaiting) }
            try requireScope(entry, state)
            // Borrowed, as the state holds it: the caller keeps the scope alive.
            let box = state.unretainedScope.with { $0.scopedInstance(entry.slot) }
            if let box { return .existing(box) }
            return .shared
        case .rootSlot:
            // Read here rather than through `existingShared`, which takes the scope: passing it
            // would retain and release it.
            if let object = singletons.load(entry.slot) {
                return .existing(InstanceCell(object: object.object))
            }
            return .shared
        case .weakTable:
            if let box = existingShared(entry, state.scope, as: Service.self) { return .existing(box) }
            return .shared
        }
    }

    /// Makes a new per-call instance visible to the rest of its call.
    @inline(__always)
    func publish<Service: Sendable>(_ value: Service, _ entry: Entry, to call: CallState?) {
        call?.storeGraphInstance(InstanceCell.make(value), index: entry.index)
    }

    /// The coordinator that creates `scope`'s shared instances: the root's, or one of the scope
    /// coordinators, the same one for every resolve from `scope`.
    func coordinator(of scope: Scope) -> CreationCoordinator {
        guard !scope.isRoot else { return coordinator }
        // The scope's address picks one: heap objects are 16-byte aligned, so the low bits say
        // nothing.
        let address = UInt(bitPattern: scope.id) >> 5
        let index = Int(address % UInt(scopeCoordinators.count))
        if let made = scopeCoordinators.load(index) { return made.object }
        let candidate = CreationCoordinator()
        return scopeCoordinators.publish(candidate, at: index).object
    }

    /// The slot a shared instance of `entry` (a root one: scopes claim their own, see
    /// `Scope+Claims.swift`) is created in, for the creation coordinator.
    func rootSlot(_ entry: Entry) -> SlotID {
        SlotID(store: root.id, index: entry.slot)
    }

    /// The state a shared instance is created under: only scoped instances belong to the scope.
    func sharedState(_ entry: Entry, _ state: borrowing ResolveState) -> ResolveState {
        // From the unretained fields: the scope and the frame are alive for the whole resolve
        // (see ``ResolveState``), and going through the objects would retain and release them.
        ResolveState(
            unretainedScope: entry.lifetime.store == .scopeSlot ? state.unretainedScope : unretainedRoot,
            unretainedFrame: state.unretainedFrame,
            singleton: entry.lifetime.store == .scopeSlot ? -1 : entry.index,
            depth: state.depth
        )
    }

    /// Whether the scope a new shared instance of `entry` is created under (see
    /// ``sharedState(_:_:)``) disposes it.
    func disposesShared(_ entry: Entry) -> Bool {
        entry.lifetime.store != .weakTable
    }

    /// The shared instance of `entry`, boxed, if it exists.
    func existingShared<Service: Sendable>(
        _ entry: Entry,
        _ scope: Scope,
        as type: Service.Type
    ) -> InstanceCell? {
        switch entry.lifetime.store {
        case .scopeSlot: scope.scopedInstance(entry.slot)
        case .weakTable: weakCell(entry.slot, as: Service.self)
        case .none, .call, .rootSlot:
            singletons.load(entry.slot).map { InstanceCell(object: $0.object) }
        }
    }

    /// The live `.weak` instance in `slot`, boxed. A function of its own: code that is not
    /// specialized looks up the run-time type of `Service?` wherever one may occur.
    @inline(never)
    func weakCell<Service: Sendable>(_ slot: Int, as type: Service.Type) -> InstanceCell? {
        guard let value = weakInstance(slot, as: Service.self) else { return nil }
        return InstanceCell.make(value)
    }

    /// Publishes a new shared instance; returns the published box.
    ///
    /// Inlined: a scope's and a singleton's slot are published when their claim settles (see
    /// `Scope+Claims.swift`, `ContainerCore+RootClaims.swift`), so for them this is the boxing
    /// alone; only a `.weak` instance is published here.
    @inline(__always)
    func publishShared<Service: Sendable>(
        _ value: Service,
        _ entry: Entry
    ) throws(GraftError) -> InstanceCell {
        if entry.lifetime.store == .weakTable { try publishWeak(value, entry) }
        return InstanceCell.make(value, holdingItself: entry.holdsInstanceItself)
    }

    /// Publishes a new `.weak` instance in the weak table.
    @inline(never)
    func publishWeak<Service: Sendable>(_ value: Service, _ entry: Entry) throws(GraftError) {
        guard let instance = WeakInstance(value) else {
            throw GraftError(
                .weakNeedsClass,
                "\(entry.key) is .weak but its factory made a \(type(of: value)), which is not a class",
                service: entry.key.description,
                hints: ["only class instances can be held weakly; use .transient or .singleton for values"]
            )
        }
        weakInstances.withLock { $0.bySlot[entry.slot] = instance }
    }
}
