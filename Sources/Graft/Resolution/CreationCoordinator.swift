/// Makes each shared instance (singleton, scoped, weak) exactly once, however many threads and
/// tasks ask at the same time, and turns would-be deadlocks into cycle errors.
///
/// The first caller claims the slot and runs the factory without holding any lock; the others
/// wait for its outcome (threads block, tasks suspend) and all receive the same instance or the
/// same error. While a factory runs, the instance it produced before its activation hooks finish
/// is visible to resolves made on behalf of that same creation, so services that inject each
/// other through properties see each other. A caller that would wait on a creation which itself
/// (transitively) waits on the caller gets a cycle error instead of hanging.
final class CreationCoordinator: Sendable {
    private struct Record {
        let slot: SlotID
        let key: ServiceKey
        var provisional: InstanceCell?
        var outcome: Result<InstanceCell, GraftError>?
        var waiters = 0
        var continuations: [CheckedContinuation<Void, Never>] = []
    }

    private struct State {
        var nextID: Int
        // Few creations are under way at any moment, so these are small arrays searched in
        // order: no hashing, and no allocation once they have grown to their working size.
        var inProgress = CompactMap<SlotID, Int>()
        var records = CompactMap<Int, Record>()
        /// For every creation whose work is blocked, the creation it waits for.
        var waitingFor: [Int: Int] = [:]
    }

    /// What `acquire` found.
    enum Acquisition {
        /// The instance exists (or a provisional one is visible to this caller).
        case ready(InstanceCell)
        /// The caller must create the instance, as part of the creation it runs `within` (the
        /// current chain, read once here), then call `finish`.
        case claimed(CreationClaim, within: CreationChain?)
    }

    private enum Step {
        case done(Acquisition)
        case wait(Int)
        case fail(GraftError)
    }

    private let state: WaitableLocked<State>
    /// How far apart this coordinator's creation ids are: coordinators that share a container
    /// number their creations apart (see ``init(firstID:idStride:)``).
    private let idStride: Int

    /// A coordinator whose creations are numbered `firstID`, `firstID + idStride`, and so on,
    /// so that creations of coordinators made with the same stride and different first ids
    /// never share an id: a creation chain, which may cross coordinators, tells them apart.
    init(firstID: Int = 0, idStride: Int = 1) {
        self.state = WaitableLocked(State(nextID: firstID))
        self.idStride = idStride
    }

    /// Returns the existing instance, claims the slot, or waits (blocking the thread) for the
    /// creation under way to finish.
    func acquire(
        _ slot: SlotID,
        key: ServiceKey,
        existing: () -> InstanceCell?
    ) throws(GraftError) -> Acquisition {
        let chain = CreationChain.current
        while true {
            switch step(slot, key: key, chain: chain, existing: existing) {
            case .done(let acquisition):
                return acquisition
            case .fail(let error):
                throw error
            case .wait(let id):
                let outcome = state.waitUntil { state in state.records[id]?.outcome }
                try consume(id, outcome: outcome, chain: chain)
                if case .success(let value) = outcome { return .ready(value) }
            }
        }
    }

    /// Like ``acquire(_:key:existing:)``, but suspends instead of blocking while it waits.
    func acquireAsync(
        _ slot: SlotID,
        key: ServiceKey,
        existing: () -> InstanceCell?
    ) async throws(GraftError) -> Acquisition {
        let chain = CreationChain.current
        while true {
            switch step(slot, key: key, chain: chain, existing: existing) {
            case .done(let acquisition):
                return acquisition
            case .fail(let error):
                throw error
            case .wait(let id):
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let resumeNow = state.withLock { state -> Bool in
                        guard state.records[id]?.outcome == nil else { return true }
                        state.records[id]?.continuations.append(continuation)
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
                let outcome = state.withLock { $0.records[id]?.outcome }
                if let outcome {
                    try consume(id, outcome: outcome, chain: chain)
                    if case .success(let value) = outcome { return .ready(value) }
                }
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
                return .done(.ready(value))
            }
            guard let id = state.inProgress[slot] else {
                // Claimed with no record: most creations finish before anyone waits for them,
                // and a record is made only for one that somebody does (or that has a
                // provisional instance).
                let id = state.nextID
                state.nextID += idStride
                state.inProgress[slot] = id
                return .done(.claimed(CreationClaim(id: id, key: key, slot: slot), within: chain))
            }
            if let chain, chain.contains(id) {
                if let provisional = state.records[id]?.provisional {
                    return .done(.ready(provisional))
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
        _ id: Int,
        outcome: Result<InstanceCell, GraftError>,
        chain: CreationChain?
    ) throws(GraftError) {
        state.withLock { state in
            chain?.forEachClaim { claim in
                state.waitingFor[claim.id] = nil
                return true
            }
            state.records[id]?.waiters -= 1
            if let record = state.records[id], record.waiters <= 0, record.outcome != nil {
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

    /// Ends the creation `claim` names, handing its outcome to every waiter.
    func finish(_ claim: CreationClaim, _ outcome: Result<InstanceCell, GraftError>) {
        let (continuations, hadWaiters) = state.withLock {
            state -> ([CheckedContinuation<Void, Never>], Bool) in
            state.inProgress[claim.slot] = nil
            guard var record = state.records[claim.id] else { return ([], false) }
            let continuations = record.continuations
            record.continuations = []
            record.outcome = outcome
            record.provisional = nil
            let hadWaiters = record.waiters > 0
            if hadWaiters {
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
    private static func deadlock(waitingOn id: Int, chain: CreationChain, state: State) -> [ServiceKey]? {
        var current = id
        var visited: Set<Int> = []
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
