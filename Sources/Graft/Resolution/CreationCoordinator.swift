/// Makes each shared instance (singleton, scoped, weak) exactly once, however many threads and
/// tasks ask at the same time, and turns would-be deadlocks into cycle errors.
///
/// The first caller claims the slot and runs the factory without holding any lock; the others
/// wait for its outcome (threads block, tasks suspend) and all receive the same instance or the
/// same error. While a factory runs, the instance it produced before its activation hooks finish
/// is visible to resolves made on behalf of that same creation, so services that inject each
/// other through properties see each other. A caller that would wait on a creation which itself
/// (transitively) waits on the caller gets a cycle error instead of hanging.
///
/// A scope claims its own `.scoped` slots under its own lock (see `Scope+Claims.swift`); only
/// when a second caller finds such a slot claimed does the creation come here, "promoted": the
/// caller joins it (``join(_:)``), and its creator, told how many joined, finishes it here too.
final class CreationCoordinator: Sendable {
    private struct Record {
        let slot: SlotID
        let key: ServiceKey
        var provisional: InstanceCell?
        var outcome: Result<InstanceCell, GraftError>?
        var waiters = 0
        /// Joins of a promoted creation that its creator has counted (``finish(_:_:joiners:)``)
        /// and that have not arrived yet; negative while joins arrive before the creator finishes.
        var unjoined = 0
        var continuations: [CheckedContinuation<Void, Never>] = []
    }

    private struct State {
        var nextSerial = 0
        // Few creations are under way at any moment, so these are small arrays searched in
        // order: no hashing, and no allocation once they have grown to their working size.
        var inProgress = CompactMap<SlotID, CreationID>()
        var records = CompactMap<CreationID, Record>()
        /// For every creation whose work is blocked, the creation it waits for.
        var waitingFor: [CreationID: CreationID] = [:]
    }

    private enum Step {
        case done(SlotClaim)
        case wait(CreationID)
        case fail(GraftError)
    }

    private let state = WaitableLocked(State())

    /// Returns the existing instance, claims the slot, or counts the caller (whose creation
    /// chain is `chain`) in as a waiter of the creation under way, which it then waits for with
    /// ``join(_:counted:)`` or ``joinAsync(_:counted:)``.
    ///
    /// `existing` is asked under the coordinator's lock.
    func claim(
        _ slot: SlotID,
        key: ServiceKey,
        chain: CreationChain?,
        existing: () -> InstanceCell?
    ) throws(GraftError) -> SlotClaim {
        switch step(slot, key: key, chain: chain, existing: existing) {
        case .done(let claim): return claim
        case .fail(let error): throw error
        case .wait(let id): return .join(CreationClaim(id: id, key: key, slot: slot))
        }
    }

    /// Waits (blocking the thread) for the creation `claim` names: its instance, or its error.
    ///
    /// - Parameter counted: Whether the caller was counted in as its waiter already, as
    ///   ``claim(_:key:chain:existing:)`` does; otherwise the creation is one that a scope (or
    ///   the root's singleton slots) claimed on its own and promoted because this caller found
    ///   it claimed, and the caller enters it here.
    func join(_ claim: CreationClaim, counted: Bool = false) throws(GraftError) -> InstanceCell {
        let chain = CreationChain.current()
        if !counted { try enter(claim, chain: chain) }
        return try wait(for: claim.id, chain: chain)
    }

    /// Like ``join(_:counted:)``, but suspends instead of blocking while it waits.
    func joinAsync(_ claim: CreationClaim, counted: Bool = false) async throws(GraftError) -> InstanceCell {
        let chain = CreationChain.inThisTask
        if !counted { try enter(claim, chain: chain) }
        return try await waitAsync(for: claim.id, chain: chain)
    }

    /// Counts the caller in as a waiter of the promoted creation `claim` names, unless waiting
    /// for it would close a wait loop (then a cycle error).
    private func enter(_ claim: CreationClaim, chain: CreationChain?) throws(GraftError) {
        let loop = state.withLock { state -> [ServiceKey]? in
            // The record first: a deadlock report names the creations it waits on by their records.
            var record = state.records[claim.id] ?? Record(slot: claim.slot, key: claim.key)
            record.unjoined -= 1
            state.records[claim.id] = record
            guard record.outcome == nil else {
                state.records[claim.id]?.waiters += 1
                return nil
            }
            if let chain, let loop = Self.deadlock(waitingOn: claim.id, chain: chain, state: state) {
                // The creator's finish, which counted this join, forgets the record.
                return loop
            }
            state.records[claim.id]?.waiters += 1
            chain?.forEachClaim { own in
                state.waitingFor[own.id] = claim.id
                return true
            }
            return nil
        }
        if let loop { throw CycleReport.error(loop, concurrent: true) }
    }

    /// Blocks until the creation `id` ends, which the caller counted itself a waiter of.
    private func wait(for id: CreationID, chain: CreationChain?) throws(GraftError) -> InstanceCell {
        let outcome = state.waitUntil { state in state.records[id]?.outcome }
        try consume(id, outcome: outcome, chain: chain)
        return try outcome.get()
    }

    /// Suspends until the creation `id` ends, which the caller counted itself a waiter of.
    private func waitAsync(for id: CreationID, chain: CreationChain?) async throws(GraftError) -> InstanceCell {
        while true {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    guard state.records[id]?.outcome == nil else { return true }
                    state.records[id]?.continuations.append(continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
            if let outcome = state.withLock({ $0.records[id]?.outcome }) {
                try consume(id, outcome: outcome, chain: chain)
                return try outcome.get()
            }
        }
    }

    private func step(
        _ slot: SlotID,
        key: ServiceKey,
        chain: CreationChain?,
        existing: () -> InstanceCell?
    ) -> Step {
        state.withLock { state -> Step in
            if let value = existing() {
                return .done(.existing(value))
            }
            guard let id = state.inProgress[slot] else {
                // Claimed with no record: most creations finish before anyone waits for them,
                // and a record is made only for one that somebody does (or that has a
                // provisional instance).
                let id = CreationID(issuer: ObjectIdentifier(self), serial: state.nextSerial)
                state.nextSerial += 1
                state.inProgress[slot] = id
                return .done(.claimed(CreationClaim(id: id, key: key, slot: slot)))
            }
            if let chain, chain.contains(id) {
                if let provisional = state.records[id]?.provisional {
                    return .done(.existing(provisional))
                }
                return .fail(CycleReport.error(chain.keys(from: id) + [key]))
            }
            // The record first: a deadlock report names the creations it waits on by their records.
            if state.records[id] == nil { state.records[id] = Record(slot: slot, key: key) }
            if let chain, let loop = Self.deadlock(waitingOn: id, chain: chain, state: state) {
                return .fail(CycleReport.error(loop, concurrent: true))
            }
            state.records[id]?.waiters += 1
            chain?.forEachClaim { claim in
                state.waitingFor[claim.id] = id
                return true
            }
            return .wait(id)
        }
    }

    /// Takes a waiter's share of an outcome and forgets the record once every waiter has it.
    private func consume(
        _ id: CreationID,
        outcome: Result<InstanceCell, GraftError>,
        chain: CreationChain?
    ) throws(GraftError) {
        state.withLock { state in
            chain?.forEachClaim { claim in
                state.waitingFor[claim.id] = nil
                return true
            }
            state.records[id]?.waiters -= 1
            if let record = state.records[id], record.waiters <= 0, record.unjoined <= 0, record.outcome != nil {
                state.records[id] = nil
            }
        }
        if case .failure(let error) = outcome { throw error }
    }

    /// Makes `value` visible to resolves on behalf of the creation `claim` names, before it is finished.
    func setProvisional(_ value: InstanceCell, for claim: CreationClaim) {
        state.withLock { state in
            var record = state.records[claim.id] ?? Record(slot: claim.slot, key: claim.key)
            record.provisional = value
            state.records[claim.id] = record
        }
    }

    /// The instance the creation `id` made visible before it finished, if it did.
    func provisional(_ id: CreationID) -> InstanceCell? {
        state.withLock { $0.records[id]?.provisional }
    }

    /// Ends the creation `claim` names, handing its outcome to every waiter.
    ///
    /// - Parameter joiners: For a creation a scope claimed and promoted, how many callers were
    ///   told to ``join(_:)`` it: its record stays until each has taken the outcome.
    func finish(_ claim: CreationClaim, _ outcome: Result<InstanceCell, GraftError>, joiners: Int = 0) {
        let (continuations, hadWaiters) = state.withLock {
            state -> ([CheckedContinuation<Void, Never>], Bool) in
            if state.inProgress[claim.slot] == claim.id { state.inProgress[claim.slot] = nil }
            guard var record = state.records[claim.id] ?? (joiners > 0 ? Record(slot: claim.slot, key: claim.key) : nil)
            else { return ([], false) }
            let continuations = record.continuations
            record.continuations = []
            record.outcome = outcome
            record.provisional = nil
            record.unjoined += joiners
            let hadWaiters = record.waiters > 0
            if hadWaiters || record.unjoined > 0 {
                state.records[claim.id] = record
            } else {
                state.records[claim.id] = nil
            }
            return (continuations, hadWaiters)
        }
        // A waiter counts itself under the lock before it sleeps, so with none counted, nobody
        // sleeps on this creation.
        if hadWaiters { state.broadcast() }
        for continuation in continuations {
            continuation.resume()
        }
    }

    /// The services on a wait loop that would close if the caller waited for `id`, or `nil`.
    private static func deadlock(waitingOn id: CreationID, chain: CreationChain, state: State) -> [ServiceKey]? {
        var current = id
        var visited: Set<CreationID> = []
        var loop: [ServiceKey] = []
        while visited.insert(current).inserted {
            if let key = state.records[current]?.key { loop.append(key) }
            guard let next = state.waitingFor[current] else { return nil }
            if chain.contains(next) {
                // The loop closes where it started: at the caller's own creation `next`.
                let ours = chain.keys(from: next)
                return ours + loop + ours.prefix(1)
            }
            current = next
        }
        return nil
    }
}

/// Identifies one shared instance: a store (the container's singletons, or one scope) and a slot in it.
struct SlotID: Hashable, Sendable {
    let store: ObjectIdentifier
    let index: Int
}
