/// How the root container's singletons are made exactly once: the container claims each slot
/// with one atomic compare-and-exchange (``ClaimWords``), with no trip to the creation
/// coordinator, so making an app's singletons on first use takes no lock.
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
/// claim and so learns how many joined; only when any did does it hand the outcome to the
/// coordinator, with that count (the same hand-over as a scope's claims, `Scope+Claims.swift`).
extension ContainerCore {
    /// What resolving a singleton's slot found.
    enum RootClaim {
        /// The instance exists (or is the provisional one of the caller's own creation).
        case existing(InstanceCell)
        /// The caller claimed the slot: it creates the instance as part of the creation it runs
        /// `within` (the current chain, read once here), then settles the claim.
        case claimed(CreationClaim, within: CreationChain?)
        /// Another creation holds the slot: the caller waits for it in the coordinator.
        case join(CreationClaim)
    }

    /// Finds the singleton of `entry`, claims its slot, or counts the caller in as a waiter of
    /// the creation under way.
    ///
    /// `source` is where the caller's creation chain is read, only when the slot is claimed: a
    /// synchronous caller's thread (told the chain when it knows it, which spares reading the
    /// thread slot), an asynchronous caller's task.
    ///
    /// - Throws: A cycle error when the caller's own creation holds the slot with no instance yet.
    func claimRoot(_ entry: Entry, chain source: ChainSource) throws(GraftError) -> RootClaim {
        while true {
            switch rootClaims.claim(entry.slot) {
            case .claimed(let generation):
                let claim = rootClaim(entry, generation)
                // The instance may have been published between the caller's look and the claim.
                if let existing = singletons.load(entry.slot) {
                    let box = InstanceCell(object: existing.object)
                    settleRoot(claim, .success(box), keepsRecord: false, publishing: false)
                    return .existing(box)
                }
                return .claimed(claim, within: source.read())
            case .held(let generation, let word):
                let claim = rootClaim(entry, generation)
                if let chain = source.read(), chain.contains(claim.id) {
                    if entry.hasActivations, let provisional = coordinator.provisional(claim.id) {
                        return .existing(provisional)
                    }
                    throw CycleReport.error(chain.keys(from: claim.id) + [entry.key])
                }
                if rootClaims.join(entry.slot, seen: word) { return .join(claim) }
                if let existing = singletons.load(entry.slot) {
                    return .existing(InstanceCell(object: existing.object))
                }
            }
        }
    }

    /// Creates the singleton whose slot `claim` claimed (see ``claimRoot(_:)``), then publishes
    /// it and settles the claim: ``createClaimed(_:_:within:by:_:)`` for the root's own claims,
    /// which the synchronous path makes for every singleton it creates.
    ///
    /// Written out rather than through a ``ClaimIssuer`` and ``completeShared(_:_:_:by:_:)``:
    /// the issuer would retain and release the container, and each closure between the steps is
    /// a call of its own in code that is not specialized (measured: about 400 instructions a
    /// singleton).
    func createRootClaimed<Service: Sendable>(
        _ entry: Entry,
        _ claim: consuming CreationClaim,
        within parent: CreationChain?,
        _ state: borrowing ResolveState
    ) throws(GraftError) -> Service {
        // Field by field, as `sharedState` would make it, but without retaining the frame.
        var inner = ResolveState(unretainedScope: unretainedRoot, singleton: entry.index, depth: state.depth)
        inner.unretainedFrame = state.unretainedFrame
        let keepsRecord = entry.hasActivations
        do {
            let value: Service = try CreationChain.running(&claim, within: parent) {
                chain throws(GraftError) -> Service in
                // Resolves nested in this creation run under its chain, on this thread.
                inner.creation = chain.word.bitPattern
                return try createShowingProvisional(entry, &inner, disposed: true) {
                    coordinator.setProvisional($0, for: claim)
                }
            }
            let box = InstanceCell.make(value, holdingItself: entry.holdsInstanceItself)
            settleRoot(claim, .success(box), keepsRecord: keepsRecord)
            return value
        } catch {
            settleRoot(claim, .failure(error), keepsRecord: keepsRecord)
            throw error
        }
    }

    /// Ends the claim `claim` of a singleton's slot: publishes the instance when `outcome` has
    /// one (and `publishing`), settles the claim, and hands the outcome to the coordinator when
    /// callers joined the creation or it may hold a provisional record (`keepsRecord`).
    func settleRoot(
        _ claim: CreationClaim,
        _ outcome: Result<InstanceCell, GraftError>,
        keepsRecord: Bool,
        publishing: Bool = true
    ) {
        if publishing, case .success(let box) = outcome {
            // The claim is held, so nobody else publishes in this slot: the exchange succeeds.
            _ = singletons.publish(box.object, at: claim.slot.index)
        }
        let joiners = rootClaims.settle(claim.slot.index)
        if joiners > 0 || keepsRecord { coordinator.finish(claim, outcome, joiners: joiners) }
    }

    /// The claim of `entry`'s slot in `generation`: unique among the claims under way, and
    /// those still awaited, of this container's singletons.
    private func rootClaim(_ entry: Entry, _ generation: UInt) -> CreationClaim {
        let serial = Int(truncatingIfNeeded: generation &<< (UInt.bitWidth / 2)) | entry.slot
        return CreationClaim(
            id: CreationID(issuer: ObjectIdentifier(rootClaims), serial: serial),
            key: entry.key,
            slot: rootSlot(entry)
        )
    }
}
