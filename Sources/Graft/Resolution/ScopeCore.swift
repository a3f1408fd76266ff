import Synchronization

/// The state of one scope, or of the root container: the instances it owns and must dispose.
@usableFromInline
final class ScopeCore: Sendable {
    private struct State {
        var scoped = CompactMap<Int, InstanceCell>()
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
    private let state = Locked(State())
    /// The disposals this scope's container is awaiting, shared from the root down (`Lifecycle/`).
    let disposing: DisposalsInProgress

    init(isRoot: Bool, parent: ScopeCore?) {
        self.isRoot = isRoot
        self.disposing = parent?.disposing ?? DisposalsInProgress()
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

    /// A new child scope, or `nil` when this one is already closed.
    func makeChild() -> ScopeCore? {
        let child = ScopeCore(isRoot: false, parent: self)
        let added = state.withLock { state -> Bool in
            guard !isClosed, state.drainWaiters == nil else { return false }
            state.children[child.id] = child
            return true
        }
        return added ? child : nil
    }

    @usableFromInline
    func scopedInstance(_ slot: Int) -> InstanceCell? {
        state.withLock { $0.scoped[slot] }
    }

    func storeScopedInstance(_ box: InstanceCell, slot: Int) {
        state.withLock { $0.scoped[slot] = box }
    }

    /// Takes ownership of `value` for disposal, if it is disposable.
    ///
    /// - Returns: `false` when the scope closed meanwhile; the caller disposes and reports it.
    func adopt(_ record: DisposalRecord) -> Bool {
        state.withLock { state -> Bool in
            guard !isClosed else { return false }
            state.disposables.append(record)
            return true
        }
    }

    /// Marks the scope closed and hands over what must be disposed: open children first (each
    /// with its own records), then this scope's records, newest first. `nil` if already closed.
    private func beginClose() -> [DisposalRecord]? {
        let taken = state.withLock { state -> (children: [ScopeCore], records: [DisposalRecord])? in
            guard closed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
            else { return nil }
            let taken = (state.children.values, Array(state.disposables.reversed()))
            state = State()
            return taken
        }
        guard let taken else { return nil }
        var records: [DisposalRecord] = []
        for child in taken.children {
            records += child.beginClose() ?? []
        }
        return records + taken.records
    }

    /// Called once a child's disposals are done, so a drain waits for them to finish.
    private func forget(_ child: ScopeCore) {
        let waiters = state.withLock { state -> [@Sendable () -> Void] in
            state.children[child.id] = nil
            guard state.children.isEmpty, let waiters = state.drainWaiters else { return [] }
            state.drainWaiters = []
            return waiters
        }
        for waiter in waiters { waiter() }
    }

    /// Refuses new children from now on; `whenEmpty` runs once no child is open (now, if none is).
    func drain(whenEmpty: @escaping @Sendable () -> Void) {
        let isEmpty = state.withLock { state -> Bool in
            if state.children.isEmpty {
                state.drainWaiters = state.drainWaiters ?? []
                return true
            }
            state.drainWaiters = (state.drainWaiters ?? []) + [whenEmpty]
            return false
        }
        if isEmpty { whenEmpty() }
    }

    var isDraining: Bool { state.withLock { $0.drainWaiters != nil } }

    /// For each scope open under this one (each before the scopes under it), the services it
    /// would dispose.
    func openScopeHoldings() -> [[ServiceKey]] {
        let (children, held) = state.withLock { ($0.children.values, $0.disposables.map(\.key)) }
        // A scope that is closing names its disposals instead (see `disposing`).
        return (isRoot ? [] : [held]) + children.filter { !$0.isClosed }.flatMap { $0.openScopeHoldings() }
    }

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
            let disposal = disposing.begin(record.key)
            defer { disposing.end(disposal) }
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
