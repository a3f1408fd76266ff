/// Each lifetime's rule, written once: where its instances are kept, whether one exists
/// already, who owns a new one and how a new one is published.
///
/// | lifetime | kept in (``InstanceStore``) | owner of a new instance | published to |
/// |---|---|---|---|
/// | `.transient` | nowhere | the scope of the resolve | nobody |
/// | `.graph` | the top-level call | the scope of the resolve | the call |
/// | `.singleton`, `.eagerSingleton` | a root slot (``SingletonSlots``) | the root container | the slot, once |
/// | `.scoped` | a slot of the scope (``ScopeSlots``) | the scope | the slot, once |
/// | `.scoped(in:)` | a slot of the nearest scope with the tag | that scope | its slot, once |
/// | `.weak` | the weak table (``WeakSlots``) | nobody (never disposed) | the table, held weakly |
///
/// The synchronous and the asynchronous resolve paths both ask ``ContainerCore/placement(of:_:as:awaiting:)``
/// and create a shared instance through the one algorithm below, over the ``ClaimIssuer`` of its
/// slot; they differ only in whether they await. Where each lifetime's instances are kept is the
/// lifetime table's to say (`Registration/Lifetime+Table.swift`).
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
    /// enclosing scope with its tag.
    case sharedIn(Scope)

    /// The placement of `entry`, a `.scoped(in:)` entry, under `state`: only resolves of such
    /// services walk up the scopes; a resolve of anything else pays one comparison.
    @inline(never)
    static func tagged(
        _ entry: Entry,
        _ tag: ScopeTagID,
        _ state: borrowing ResolveState,
        of core: ContainerCore,
        awaiting: Bool
    ) throws(GraftError) -> Placement {
        guard let scope = state.scope.nearest(tagged: tag) else {
            throw ResolutionErrors.noTaggedScope(entry, tag, state, in: core.table, awaiting: awaiting)
        }
        // `scope` is kept by this function while it reads.
        if let box = core.existing(entry, in: Unretained(scope)) { return .existing(box) }
        return .sharedIn(scope)
    }
}

extension ClaimIssuer {
    /// The state a shared instance of `entry` is created under: a scope's own instances belong
    /// to the scope, the others to the root container (`root`), on whose behalf their
    /// dependencies are resolved.
    @inline(__always)
    func creationState(_ entry: Entry, _ state: borrowing ResolveState, root: Unretained<Scope>) -> ResolveState {
        // From the unretained fields: the scope and the frame are alive for the whole resolve
        // (see ``ResolveState``), and going through the objects would retain and release them.
        ResolveState(
            unretainedScope: Self.ownedByScope ? state.unretainedScope : root,
            unretainedFrame: state.unretainedFrame,
            singleton: Self.ownedByScope ? -1 : entry.index,
            depth: state.depth
        )
    }
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
            if let tag = entry.scopeTag {
                return try Placement.tagged(entry, tag, state, of: self, awaiting: awaiting)
            }
            // Inlined: every resolve of a `.scoped` service asks, and as a call of its own the
            // question cost four times the comparison it makes.
            if state.scope.isRoot { throw ResolutionErrors.scopeRequired(entry, state, in: table) }
            if let box = existing(entry, in: state.unretainedScope) { return .existing(box) }
            return .shared
        case .rootSlot, .weakTable:
            if let box = existing(entry, in: state.unretainedScope) { return .existing(box) }
            return .shared
        }
    }

    /// The shared instance of `entry`, boxed, if it exists: in `scope`'s slot (borrowed: the
    /// caller keeps it alive), the singleton's slot or the weak table, as its lifetime keeps it.
    /// The one read of an existing shared instance, but for the resolve paths' first look at a
    /// singleton, which reads the slot's address borrowed (`make`, `resolve`) to box nothing.
    ///
    /// Not generic: the claims that read it are types of their own, and a generic one's
    /// metadata would be looked up at run time in code that is not specialized (measured:
    /// 400 instructions each singleton's creation).
    @inline(__always)
    func existing(_ entry: Entry, in scope: Unretained<Scope>) -> InstanceCell? {
        switch entry.lifetime.store {
        case .scopeSlot: scope.with { $0.scopedInstance(entry.slot) }
        case .rootSlot: singletons.load(entry.slot).map { InstanceCell(object: $0.object) }
        case .weakTable: WeakSlots.existing(entry, of: self)
        case .none, .call: nil
        }
    }

    /// The shared instance of `entry`, in the slot its lifetime keeps it in (the scope's for a
    /// `.scoped` or `.scoped(in:)` entry: `state`'s): found, waited for (blocking the thread), or
    /// created here.
    ///
    /// Out of line: it inlines the creation once for each kind of slot, which inlined in turn
    /// into every resolve path (twice in ``makeNew(_:_:)``) made each of them pay, in registers
    /// saved and stack, for code that only the first resolve of a shared service runs
    /// (measured: 10% more instructions per transient).
    @inline(never)
    func createShared<Service: Sendable>(_ entry: Entry, _ state: borrowing ResolveState) throws(GraftError) -> Service
    {
        switch entry.lifetime.store {
        case .rootSlot: return try createShared(entry, state, in: SingletonSlots())
        case .scopeSlot: return try createShared(entry, state, in: ScopeSlots(scope: state.unretainedScope))
        case .weakTable, .none, .call: return try createShared(entry, state, in: WeakSlots())
        }
    }

    /// The shared instance of `entry` in `issuer`'s slot: found, waited for (blocking the
    /// thread), or created here.
    ///
    /// Inlined into each caller, where the issuer is known, with what it calls: the issuer's
    /// steps fold to its own calls, and it costs no reference count. As a generic call of its
    /// own, in code that is not specialized, it would pass type metadata, witness tables,
    /// closure contexts and an indirect result.
    @inline(__always)
    func createShared<Service: Sendable, Issuer: ClaimIssuer>(
        _ entry: Entry,
        _ state: borrowing ResolveState,
        in issuer: Issuer
    ) throws(GraftError) -> Service {
        switch try issuer.claim(entry, of: self, chain: .thisThread(known: state.creation)) {
        case .existing(let box):
            return box.value(holdingItself: entry.holdsInstanceItself)
        case .join(let claim):
            let box = try issuer.coordinator(of: self).join(claim, counted: Issuer.joinsCounted)
            return box.value(holdingItself: entry.holdsInstanceItself)
        case .claimed(let claim):
            // Read here, next to where the creation records itself in the same slot.
            let parent = CreationChain.current(known: state.creation)
            return try createClaimed(entry, claim, within: parent, by: issuer, state)
        }
    }

    /// Creates the shared instance whose slot `claim` claimed from `issuer`, publishes it and
    /// wakes the waiters: the one rule for every issuer (a singleton's slot, a scope's, the weak
    /// table), the synchronous and asynchronous paths alike (an async factory differs only in
    /// running awaited, see `createSharedAsync`).
    @inline(__always)
    func createClaimed<Service: Sendable, Issuer: ClaimIssuer>(
        _ entry: Entry,
        _ claim: consuming CreationClaim,
        within parent: CreationChain?,
        by issuer: Issuer,
        _ state: borrowing ResolveState
    ) throws(GraftError) -> Service {
        var inner = issuer.creationState(entry, state, root: unretainedRoot)
        do {
            // The link borrows the claim (`&claim`), so recording the creation copies nothing.
            let value: Service = try CreationChain.running(&claim, within: parent) {
                chain throws(GraftError) -> Service in
                // Resolves nested in this creation run under its chain, on this thread.
                inner.creation = chain.word.bitPattern
                // Observed or not is asked here, each call with a closure of its own, as in
                // `makeByLifetime`. Only activation hooks can see a provisional instance.
                if _slowPath(entry.isObserved) {
                    return try createObserved(entry, &inner, disposed: Issuer.disposes, arguments: nil) {
                        if entry.hasActivations { issuer.setProvisional(InstanceCell.make($0), for: claim, of: self) }
                    }
                }
                return try create(entry, &inner, disposed: Issuer.disposes) {
                    if entry.hasActivations { issuer.setProvisional(InstanceCell.make($0), for: claim, of: self) }
                }
            }
            // Published as it is boxed: `box` may fail (a `.weak` value that is no class).
            issuer.finish(claim, .success(try issuer.box(value, entry, of: self)), entry, of: self)
            return value
        } catch {
            issuer.finish(claim, .failure(error), entry, of: self)
            throw error
        }
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
}
