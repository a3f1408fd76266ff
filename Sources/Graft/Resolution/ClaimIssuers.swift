/// What claiming a shared instance's slot found.
enum SlotClaim {
    /// The instance exists (or is the provisional one of the caller's own creation).
    case existing(InstanceCell)
    /// The caller claimed the slot: it creates the instance as part of the creation it runs
    /// (its chain, which it reads next to where the creation starts), then finishes the claim.
    case claimed(CreationClaim)
    /// Another creation holds the slot: the caller was counted in as its waiter, and waits for
    /// it through the issuer (``ClaimIssuer/join(_:of:)``).
    case join(CreationClaim)
}

/// Where one kind of shared instance is kept, and who hands out the claims to create them:
/// the root container's singleton slots, a scope's `.scoped` slots, or the `.weak` table.
///
/// The creation itself is written once over this protocol (``ContainerCore/createClaimed(_:_:within:by:_:)``,
/// and its callers `createShared` and `createSharedAsync`): claim, create under the claim,
/// publish, wake the waiters. An issuer says only where the claim lives and how its waiters
/// wait. Each issuer is a value that holds no more than the scope it stands for, and each step
/// is inlined where the creation is, so the optimiser folds the algorithm to the one issuer's
/// calls: no switch, no reference count on the container, no closure between the steps.
protocol ClaimIssuer: Sendable {
    /// Whether an instance created here belongs to the scope of the resolve that creates it (a
    /// scope's slots); otherwise it belongs to the root container, and its creation resolves its
    /// dependencies on the root's behalf.
    static var ownedByScope: Bool { get }
    /// Whether the owner disposes of an instance created here (every shared instance but a
    /// `.weak` one).
    static var disposes: Bool { get }

    /// Finds `entry`'s instance, claims its slot, or counts the caller in as a waiter of the
    /// creation under way. `source` is where the caller's creation chain is read, only when
    /// the claim needs it (to tell a cycle from a wait): finding an instance or claiming the
    /// slot costs no look at the thread or the task.
    ///
    /// - Throws: A cycle error when the caller's own creation holds the slot with no instance yet.
    func claim(_ entry: Entry, of core: ContainerCore, chain source: ChainSource) throws(GraftError) -> SlotClaim
    /// Whether ``claim(_:of:chain:)`` counts a caller it answers `.join` in as a waiter of the
    /// creation in the coordinator already (the coordinator's own claims do).
    static var joinsCounted: Bool { get }
    /// The coordinator where callers that join a creation wait for it.
    func coordinator(of core: ContainerCore) -> CreationCoordinator
    /// Makes `box` visible to resolves on behalf of the creation `claim` names, before its
    /// activation hooks finish.
    func setProvisional(_ box: InstanceCell, for claim: CreationClaim, of core: ContainerCore)
    /// `value`, made by the creation of `entry`, boxed as it is published.
    func box<Service: Sendable>(
        _ value: Service,
        _ entry: Entry,
        of core: ContainerCore
    ) throws(GraftError) -> InstanceCell
    /// Ends the creation `claim` names: publishes its instance (or nothing when it failed, so the
    /// next resolve tries again) and wakes whoever waits for it.
    func finish(
        _ claim: CreationClaim,
        _ outcome: Result<InstanceCell, GraftError>,
        _ entry: Entry,
        of core: ContainerCore
    )
}

extension ClaimIssuer {
    static var ownedByScope: Bool { false }
    static var disposes: Bool { true }
    static var joinsCounted: Bool { false }

    /// The root container's coordinator, by default.
    func coordinator(of core: ContainerCore) -> CreationCoordinator {
        core.coordinator
    }

    /// In the coordinator, by default.
    func setProvisional(_ box: InstanceCell, for claim: CreationClaim, of core: ContainerCore) {
        coordinator(of: core).setProvisional(box, for: claim)
    }

    @inline(__always)
    func box<Service: Sendable>(
        _ value: Service,
        _ entry: Entry,
        of core: ContainerCore
    ) throws(GraftError) -> InstanceCell {
        InstanceCell.make(value, holdingItself: entry.holdsInstanceItself)
    }
}

/// The root container's singleton slots: each claimed with one atomic compare-and-exchange
/// (``ClaimWords``), with no trip to the creation coordinator, so making an app's singletons on
/// first use takes no lock.
///
/// The claim is a ``CreationID`` named by the slot and the claim's generation, and the creation
/// runs in the creation chain like any other, so a cycle through it is seen as before. A
/// resolve that finds the slot claimed:
/// - on behalf of that same creation (its chain holds the claim) gets the instance made before
///   its activation hooks finish, or else a cycle error;
/// - from anywhere else counts itself in to the claim's word and waits for the creation in the
///   root's coordinator (``CreationCoordinator/join(_:)``), which sees every wait, so a wait
///   that would deadlock is reported as a cycle.
///
/// The creator publishes the instance (or nothing, when the factory threw), then settles its
/// claim and so learns how many joined; only when any did (or the creation may have left a
/// provisional instance there) does it hand the outcome to the coordinator, with that count
/// (the same hand-over as a scope's claims, `Scope+Claims.swift`).
struct SingletonSlots: ClaimIssuer {
    @inline(__always)
    func claim(_ entry: Entry, of core: ContainerCore, chain source: ChainSource) throws(GraftError) -> SlotClaim {
        while true {
            switch core.rootClaims.claim(entry.slot) {
            case .claimed(let generation):
                let claim = Self.claim(entry, generation, of: core)
                // The instance may have been published between the caller's look and the claim.
                if let box = core.existing(entry, in: core.unretainedRoot) {
                    Self.settle(claim, .success(box), of: core, keepsRecord: false, publishing: false)
                    return .existing(box)
                }
                return .claimed(claim)
            case .held(let generation, let word):
                let claim = Self.claim(entry, generation, of: core)
                if let chain = source.read(), chain.contains(claim.id) {
                    if entry.hasActivations, let provisional = core.coordinator.provisional(claim.id) {
                        return .existing(provisional)
                    }
                    throw CycleReport.error(chain.keys(from: claim.id) + [entry.key])
                }
                if core.rootClaims.join(entry.slot, seen: word) { return .join(claim) }
                if let box = core.existing(entry, in: core.unretainedRoot) { return .existing(box) }
            }
        }
    }

    /// A creation with activation hooks may have left a provisional instance in the coordinator,
    /// whose record the outcome clears.
    @inline(__always)
    func finish(
        _ claim: CreationClaim,
        _ outcome: Result<InstanceCell, GraftError>,
        _ entry: Entry,
        of core: ContainerCore
    ) {
        Self.settle(claim, outcome, of: core, keepsRecord: entry.hasActivations, publishing: true)
    }

    /// Publishes the instance when `outcome` has one (and `publishing`), settles the claim, and
    /// hands the outcome to the coordinator when callers joined the creation or it may hold a
    /// provisional record (`keepsRecord`).
    @inline(__always)
    private static func settle(
        _ claim: CreationClaim,
        _ outcome: Result<InstanceCell, GraftError>,
        of core: ContainerCore,
        keepsRecord: Bool,
        publishing: Bool
    ) {
        if publishing, case .success(let box) = outcome {
            // The claim is held, so nobody else publishes in this slot: the exchange succeeds.
            _ = core.singletons.publish(box.object, at: claim.slot.index)
        }
        let joiners = core.rootClaims.settle(claim.slot.index)
        if joiners > 0 || keepsRecord { core.coordinator.finish(claim, outcome, joiners: joiners) }
    }

    /// The claim of `entry`'s slot in `generation`: unique among the claims under way, and
    /// those still awaited, of this container's singletons.
    private static func claim(_ entry: Entry, _ generation: UInt, of core: ContainerCore) -> CreationClaim {
        let serial = Int(truncatingIfNeeded: generation &<< (UInt.bitWidth / 2)) | entry.slot
        return CreationClaim(
            id: CreationID(issuer: ObjectIdentifier(core.rootClaims), serial: serial),
            key: entry.key,
            slot: SlotID(store: core.root.id, index: entry.slot)
        )
    }
}

/// One scope's `.scoped` slots (a `.scoped(in:)` instance's too, in the scope with its tag),
/// which the scope claims itself (see `Scope+Claims.swift`); waiters wait in the scope's
/// coordinator.
struct ScopeSlots: ClaimIssuer {
    /// The scope, unretained: the resolve that creates in it keeps it alive for as long as the
    /// creation runs (its ``ResolveState``'s scope, or ``ResolveState/keeping(_:frame:depth:_:)``
    /// for a tagged one), and so for as long as the task of an async factory, which it awaits.
    let scope: Unretained<Scope>

    static var ownedByScope: Bool { true }

    func coordinator(of core: ContainerCore) -> CreationCoordinator {
        scope.with { core.coordinator(of: $0) }
    }

    @inline(__always)
    func claim(_ entry: Entry, of core: ContainerCore, chain source: ChainSource) throws(GraftError) -> SlotClaim {
        do {
            return try scope.with { try $0.claim(entry.slot, key: entry.key, chain: source) }
        } catch {
            throw GraftError.wrapping(error)
        }
    }

    func setProvisional(_ box: InstanceCell, for claim: CreationClaim, of core: ContainerCore) {
        scope.with { $0.setProvisional(box, for: claim) }
    }

    @inline(__always)
    func finish(
        _ claim: CreationClaim,
        _ outcome: Result<InstanceCell, GraftError>,
        _ entry: Entry,
        of core: ContainerCore
    ) {
        scope.with { $0.finish(claim, outcome, in: core) }
    }
}

/// The `.weak` instances: claimed in the root's creation coordinator, under whose lock the
/// table is read, and published to the table, held weakly, never disposed.
struct WeakSlots: ClaimIssuer {
    static var disposes: Bool { false }
    static var joinsCounted: Bool { true }

    func claim(_ entry: Entry, of core: ContainerCore, chain source: ChainSource) throws(GraftError) -> SlotClaim {
        try core.coordinator.claim(SlotID(store: core.root.id, index: entry.slot), key: entry.key, chain: source.read())
        {
            core.existing(entry, in: core.unretainedRoot)
        }
    }

    /// Publishes `value` in the weak table: only a class instance can be held weakly.
    @inline(never)
    func box<Value: Sendable>(_ value: Value, _ entry: Entry, of core: ContainerCore) throws(GraftError) -> InstanceCell
    {
        guard let instance = WeakInstance(value) else { throw ResolutionErrors.weakNeedsClass(value, entry) }
        core.weakInstances.withLock { $0.bySlot[entry.slot] = instance }
        return InstanceCell.make(value, holdingItself: entry.holdsInstanceItself)
    }

    func finish(
        _ claim: CreationClaim,
        _ outcome: Result<InstanceCell, GraftError>,
        _ entry: Entry,
        of core: ContainerCore
    ) {
        core.coordinator.finish(claim, outcome)
    }

    /// The live `.weak` instance of `entry`, boxed (see ``ContainerCore/existing(_:in:)``), read
    /// as the type the entry answers for. Out of line: code that is not specialized looks up
    /// the run-time type of `Service?` wherever one may occur.
    @inline(never)
    static func existing(_ entry: Entry, of core: ContainerCore) -> InstanceCell? {
        func read<Service: Sendable>(_ type: Service.Type) -> InstanceCell? {
            guard let value = core.weakInstances.withLock({ $0.bySlot[entry.slot] })?.value(as: type) else {
                return nil
            }
            return InstanceCell.make(value, holdingItself: entry.holdsInstanceItself)
        }
        return read(entry.serviceType)
    }
}
