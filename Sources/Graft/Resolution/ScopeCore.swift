import Synchronization

/// The state of one scope, or of the root container: the instances it owns and must dispose.
///
/// `@unchecked Sendable` is sound: `state` is private and only ever touched with `lock` held
/// (``withState(_:)``), the other stored properties are `let`s of `Sendable` types, and what
/// leaves the lock is `Sendable`.
@usableFromInline
final class ScopeCore: @unchecked Sendable {
    private struct State {
        var scoped = ScopedInstances()
        var disposables: [DisposalRecord] = []
        var children = CompactMap<ObjectIdentifier, ScopeCore>()
        /// Non-`nil` while the container drains (see `Container+Draining.swift`): no new child is
        /// made, and these run once the last child has closed.
        var drainWaiters: [@Sendable () -> Void]?
    }

    let isRoot: Bool
    /// The scope this one was made under, told when this one closes.
    private let parent: Parent?
    /// Set once, when the scope closes; read by every resolve through the scope.
    private let closed = Atomic(false)
    /// Guards `state`. In the scope's own memory: a request's scope costs one allocation, not
    /// one more for a lock.
    private let lock = InlineLock()
    /// Unchecked exclusivity: `lock` already makes every access exclusive.
    @exclusivity(unchecked) private var state = State()

    init(isRoot: Bool, parent: ScopeCore?) {
        self.isRoot = isRoot
        self.parent = parent.map { $0.isRoot ? .root(Unmanaged.passUnretained($0)) : .scope($0) }
    }

    /// A child's reference to its parent.
    ///
    /// The root is referred to unretained: every scope made from a container would otherwise
    /// retain and release the root, or form a weak reference to it, writes to one object that
    /// every thread making scopes shares. That is sound because only a `Scope` closes a child
    /// (`close(by:)`, `closeAsync()`), and a `Scope` holds its container, which holds the root.
    /// A scope made under another scope holds that one: nothing else keeps it alive.
    private enum Parent {
        case root(Unmanaged<ScopeCore>)
        case scope(ScopeCore)

        func forget(_ child: ScopeCore) {
            switch self {
            case .root(let root): root._withUnsafeGuaranteedRef { $0.forget(child) }
            case .scope(let scope): scope.forget(child)
            }
        }
    }

    var id: ObjectIdentifier { ObjectIdentifier(self) }

    @inline(__always)
    @usableFromInline
    var isClosed: Bool { closed.load(ordering: .acquiring) }

    @inline(__always)
    private func withState<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }

    /// A new child scope, or `nil` when this one is already closed.
    func makeChild() -> ScopeCore? {
        let child = ScopeCore(isRoot: false, parent: self)
        let added = withState { state -> Bool in
            guard !isClosed, state.drainWaiters == nil else { return false }
            state.children[child.id] = child
            return true
        }
        return added ? child : nil
    }

    @usableFromInline
    func scopedInstance(_ slot: Int) -> InstanceCell? {
        withState { $0.scoped[slot] }
    }

    func storeScopedInstance(_ box: InstanceCell, slot: Int) {
        withState { $0.scoped.store(box, slot: slot) }
    }

    /// Takes ownership of `value` for disposal, if it is disposable.
    ///
    /// - Returns: `false` when the scope closed meanwhile; the caller disposes and reports it.
    func adopt(_ record: DisposalRecord) -> Bool {
        withState { state -> Bool in
            guard !isClosed else { return false }
            state.disposables.append(record)
            return true
        }
    }

    /// Marks the scope closed and hands over what must be disposed: open children first (each
    /// with its own records), then this scope's records, newest first. `nil` if already closed.
    private func beginClose() -> [DisposalRecord]? {
        // Taken whole and let go after the lock: releasing instances runs their deinits, which
        // must not run with the lock held.
        let taken = withState { state -> State? in
            guard closed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
            else { return nil }
            var taken = State()
            swap(&taken, &state)
            return taken
        }
        guard let taken else { return nil }
        var records: [DisposalRecord] = []
        for child in taken.children.values {
            records += child.beginClose() ?? []
        }
        return records + taken.disposables.reversed()
    }

    /// Called once a child's disposals are done, so a drain waits for them to finish.
    private func forget(_ child: ScopeCore) {
        let waiters = withState { state -> [@Sendable () -> Void] in
            state.children[child.id] = nil
            guard state.children.isEmpty, let waiters = state.drainWaiters else { return [] }
            state.drainWaiters = []
            return waiters
        }
        for waiter in waiters { waiter() }
    }

    /// Refuses new children from now on; `whenEmpty` runs once no child is open (now, if none is).
    func drain(whenEmpty: @escaping @Sendable () -> Void) {
        let isEmpty = withState { state -> Bool in
            if state.children.isEmpty {
                state.drainWaiters = state.drainWaiters ?? []
                return true
            }
            state.drainWaiters = (state.drainWaiters ?? []) + [whenEmpty]
            return false
        }
        if isEmpty { whenEmpty() }
    }

    var isDraining: Bool { withState { $0.drainWaiters != nil } }

    /// Closes the scope, disposing synchronously; async disposables are reported as failures,
    /// with hints for the call that closed it.
    func close(by call: SynchronousClose = .scope) -> [GraftError] {
        var failures: [GraftError] = []
        for record in beginClose() ?? [] {
            switch record {
            case .sync(let disposable, _):
                do { try disposable.dispose() } catch { failures.append(record.failure(error)) }
            case .async(_, let key):
                failures.append(
                    GraftError(
                        .disposalFailed,
                        "\(key) is AsyncDisposable and was not disposed by a synchronous close",
                        service: key.description,
                        hints: call.hints(for: key)
                    )
                )
            }
        }
        parent?.forget(self)
        return failures
    }

    /// Closes the scope, awaiting async disposals.
    func closeAsync() async -> [GraftError] {
        var failures: [GraftError] = []
        for record in beginClose() ?? [] {
            do {
                switch record {
                case .sync(let disposable, _): try disposable.dispose()
                case .async(let disposable, _): try await disposable.dispose()
                }
            } catch {
                failures.append(record.failure(error))
            }
        }
        parent?.forget(self)
        return failures
    }
}
