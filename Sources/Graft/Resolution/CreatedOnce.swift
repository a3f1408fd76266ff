/// A deferred link's value, created at most once: the engine's side of ``Lazy``.
///
/// The rule, written once for the synchronous and the asynchronous read: a kept value is
/// returned as it is; otherwise the container's creation coordinator decides who creates it
/// (claim), the caller that claimed it resolves the link as that creation (run), so reading
/// the same value again while it is being created is a cycle error, and the outcome is kept
/// and handed to every caller waiting for it (finish). A failure is not kept: the next read
/// tries again.
struct CreatedOnce<Value: Sendable>: Sendable {
    private let link: DeferredLink
    private let kept = Locked<Value?>(nil)

    init(_ link: DeferredLink) {
        self.link = link
    }

    /// Whether the value has been created.
    var isCreated: Bool { kept.withLock { $0 != nil } }

    /// The value, created by the first call; concurrent first calls block until it exists.
    ///
    /// - Parameter owner: The object holding this value, which names its creation slot.
    func value(of owner: AnyObject) throws(GraftError) -> Value {
        if let value = kept.withLock({ $0 }) { return value }
        let coordinator = try link.coordinator()
        let chain = CreationChain.current()
        switch try coordinator.claim(slot(of: owner), key: link.key, chain: chain, existing: existing) {
        case .existing(let cell):
            return cell.value()
        case .join(let claim):
            return try coordinator.join(claim, counted: true).value()
        case .claimed(var claim):
            let outcome = Result { () throws(GraftError) -> Value in
                try CreationChain.running(&claim, within: chain) { _ throws(GraftError) -> Value in
                    try link.resolve(Value.self)
                }
            }
            return try finish(claim, by: coordinator, outcome)
        }
    }

    /// The value, created by the first call, awaiting an async factory; concurrent first calls
    /// suspend until it exists.
    ///
    /// - Parameter owner: The object holding this value, which names its creation slot.
    func value(of owner: AnyObject) async throws(GraftError) -> Value {
        if let value = kept.withLock({ $0 }) { return value }
        let coordinator = try link.coordinator()
        switch try coordinator.claim(
            slot(of: owner),
            key: link.key,
            chain: CreationChain.inThisTask,
            existing: existing
        ) {
        case .existing(let cell):
            return cell.value()
        case .join(let claim):
            return try await coordinator.joinAsync(claim, counted: true).value()
        case .claimed(let claim):
            let outcome: Result<Value, GraftError>
            do {
                outcome = .success(try await CreationChain.running(claim) { try await link.resolveAsync(Value.self) })
            } catch {
                outcome = .failure(GraftError.wrapping(error))
            }
            return try finish(claim, by: coordinator, outcome)
        }
    }

    /// Keeps what the creation `claim` names made, and tells the callers waiting for it.
    private func finish(
        _ claim: CreationClaim,
        by coordinator: CreationCoordinator,
        _ outcome: Result<Value, GraftError>
    ) throws(GraftError) -> Value {
        switch outcome {
        case .success(let value):
            // Kept before the coordinator forgets the creation: a caller arriving in between
            // finds the value instead of claiming a second creation.
            kept.withLock { $0 = value }
            coordinator.finish(claim, .success(InstanceCell.make(value)))
            return value
        case .failure(let failure):
            coordinator.finish(claim, .failure(failure))
            throw failure
        }
    }

    /// The kept value, as the coordinator reads it under its lock.
    private func existing() -> InstanceCell? {
        kept.withLock { $0 }.map(InstanceCell.make)
    }

    private func slot(of owner: AnyObject) -> SlotID {
        SlotID(store: ObjectIdentifier(owner), index: 0)
    }
}
