/// How a scope's `.scoped` instances are made exactly once: the scope claims its own slots, in
/// its own state under its own lock, with no trip to a coordinator that other scopes share.
///
/// The first resolve of an empty slot claims it and creates the instance with no lock held. The
/// claim is a ``CreationID`` the scope issues (the scope and a serial), and the creation runs in
/// the creation chain like any other, so a cycle through it is seen as one through a singleton
/// is. A resolve that finds the slot claimed:
/// - on behalf of that same creation (its chain holds the claim) gets the instance made before
///   its activation hooks finish, or else a cycle error;
/// - from anywhere else counts itself a joiner of the claim, under the lock, and waits for the
///   creation in the scope's coordinator (``CreationCoordinator/join(_:)``), "promoting" it: the
///   coordinator sees every wait there, so a wait that would deadlock is reported as a cycle.
///
/// The creator settles its claim under the lock (publishing the instance, or nothing when the
/// factory threw) and so learns how many joined; only when any did does it hand the outcome to
/// the coordinator, with that count, so a joiner that reaches the coordinator after the creator
/// finished still finds the outcome there. Most creations are never waited for, and cost two
/// turns of the scope's lock.
extension Scope {
    /// Finds `slot`'s instance, claims the slot, or counts the caller in as a waiter of the
    /// creation under way.
    ///
    /// The caller's creation chain is read only when the slot is claimed already: finding an
    /// instance, or claiming the slot, costs no look at the thread or the task.
    ///
    /// - Throws: A cycle error when the caller's own creation holds the slot with no instance yet.
    func claim(_ slot: Int, key: ServiceKey, chain source: ChainSource) throws(GraftError) -> SlotClaim {
        var reentered: (claim: CreationClaim, chain: CreationChain)?
        let found = withState { state -> SlotClaim? in
            if let box = state.scoped[slot] { return .existing(box) }
            guard let pending = state.claims[slot] else {
                return .claimed(makeClaim(serial: state.claims.claim(slot).serial, slot, key))
            }
            let claim = makeClaim(serial: pending.serial, slot, key)
            if let chain = source.read(), chain.contains(claim.id) {
                if let provisional = state.claims.provisional(slot) { return .existing(provisional) }
                reentered = (claim, chain)
                return nil
            }
            state.claims.update(slot) { $0.joiners += 1 }
            return .join(claim)
        }
        if let found { return found }
        // `found` is `nil` only when the caller's own creation holds the slot.
        guard let (claim, chain) = reentered else { throw CycleReport.error([key]) }
        throw CycleReport.error(chain.keys(from: claim.id) + [key])
    }

    /// Makes `box` visible to resolves on behalf of the creation `claim` names, before it is finished.
    func setProvisional(_ box: InstanceCell, for claim: CreationClaim) {
        withState { $0.claims.setProvisional(box, slot: claim.slot.index) }
    }

    /// Ends the creation `claim` names: publishes its instance, or nothing when it failed, so
    /// the next resolve tries again. Returns how many callers joined it.
    @inline(__always)
    func settle(_ claim: CreationClaim, _ outcome: Result<InstanceCell, GraftError>) -> Int {
        // Taken out before the lock, and moved into the slot: the closure would otherwise copy
        // the cell only for the slot to retain it again.
        var made: InstanceCell?
        if case .success(let box) = outcome { made = box }
        return withState { state -> Int in
            if let box = made.take() { state.scoped.store(box, slot: claim.slot.index) }
            return state.claims.remove(claim.slot.index)?.joiners ?? 0
        }
    }

    /// Settles `claim` (see ``settle(_:_:)``), then wakes the callers that joined it, in this
    /// scope's coordinator of `container`.
    @inline(__always)
    func finish(_ claim: CreationClaim, _ outcome: Result<InstanceCell, GraftError>, in container: ContainerCore) {
        let joiners = settle(claim, outcome)
        if joiners > 0 { container.coordinator(of: self).finish(claim, outcome, joiners: joiners) }
    }

    private func makeClaim(serial: Int, _ slot: Int, _ key: ServiceKey) -> CreationClaim {
        CreationClaim(
            id: CreationID(issuer: id, serial: serial),
            key: key,
            slot: SlotID(store: id, index: slot)
        )
    }
}
