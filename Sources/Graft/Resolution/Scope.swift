import Synchronization

/// A child of a container that owns `.scoped` instances: one per request, screen or session.
///
/// Closing a scope disposes what it created, newest first, and closes its child scopes first.
/// Resolving from a closed scope is an error. A scope let go without being closed leaves what it
/// created to its parent, which disposes it when it closes (the container, at shutdown).
///
/// ```swift
/// let scope = container.makeScope()
/// let order = try scope.resolve(PitStopOrder.self)
/// try scope.close()
/// ```
//
// The engine's record of a scope is the scope itself: its instances, its disposal records and
// its open children live in this one object, so making a request's scope is one allocation.
// The root container has one too, which the container holds and never hands out as a `Scope`.
//
// `@unchecked Sendable` is sound: every stored property but `state` is a `let` of a `Sendable`
// type, and `state` is private and only ever touched with `lock` held (`withState`), and what
// leaves the lock is `Sendable`. The conformance cannot rest on the compiler's check alone:
// `state` is a `var` in the scope's own memory (see its comment).
public final class Scope: Resolver, @unchecked Sendable {
    /// Non-copyable, as the instances it holds: only ever reached in place, through `withState`.
    struct State: ~Copyable {
        var scoped = ScopedInstances()
        /// The `.scoped` slots being created (see `Scope+Claims.swift`); kept when the scope
        /// closes, so that creations under way still settle and wake their waiters.
        var claims = ScopedClaims()
        var disposables: [DisposalRecord] = []
        /// The completion steps of the instances made here, oldest first, until the scope's
        /// owner runs them (see `Scope+Completion.swift`).
        var completions: [PendingCompletion] = []
        /// Whether the scope's work failed (``Scope/markFailed()``): its completion step is
        /// skipped on purpose, and closing it with the step not run is no mistake to report.
        var failed = false
        /// The open scopes made under this one, unretained: a child that is let go without being
        /// closed takes itself off this list (see `deinit`), so listing it here does not keep it,
        /// or the container it holds, alive. The list runs through the children themselves (see
        /// ``Scope/siblings``): listing and unlisting a scope allocates nothing and costs the
        /// same however many scopes are open.
        var children = OpenChildren()
        /// Non-`nil` while the container drains (see `Container+Draining.swift`): no new child is
        /// made, and these run once the last child has closed.
        var drainWaiters: [@Sendable () -> Void]?
    }

    /// The container, which a scope keeps alive. `nil` only for the root's record, which is
    /// never handed out as a `Scope` and so never resolves through `container`.
    @usableFromInline let retainedContainer: ContainerCore?
    let isRoot: Bool
    /// Whether the container has observers, told when this scope opens and closes (see
    /// ``Observers``).
    let isObserved: Bool
    /// What `.scoped(in:)` services look for (see `Scope+Tags.swift`); `nil` for most scopes.
    let tag: ScopeTagID?
    /// The scope this one was made under, told when this one closes.
    let parent: Parent?
    /// Set once, when the scope closes; read by every resolve through the scope.
    let closed = Atomic(false)
    /// Whether the parent lists this scope among its open children (see ``ListedMark``).
    let listing = ListedMark()
    /// Guards `state`. In the scope's own memory: a request's scope costs no allocation for it.
    private let lock = InlineLock()
    /// Unchecked exclusivity: `lock` already makes every access exclusive, and the run-time
    /// check would cost about as much as taking the lock.
    ///
    /// A `var` of this class, not a `let` of a locked box from Runtime/: a box that lets its
    /// holder change what it holds through a `let` needs the value at an address of its own, so
    /// an allocation per scope (Swift has no public cell type to keep it in place, and
    /// `Synchronization.Mutex` waits where ThreadSanitizer cannot see; see `InlineLock`), and a
    /// public class cannot inherit a Runtime base class that would hold it.
    @exclusivity(unchecked) private var state = State()
    /// This scope's neighbours in its parent's list of open children: the parent's state, kept
    /// in the child's memory, so only ever read or written with the parent's lock held.
    let siblings = OpenChildren.Links()

    /// A child of `parent`, or a scope born closed when `parent` is closed or draining.
    ///
    /// `container` and `parent` are borrowed (`__shared`): an initializer owns its arguments by
    /// default, so the caller would retain them, the core and most often the root that every
    /// thread making scopes shares, only for this initializer to release them.
    init(container: __shared ContainerCore, parent: __shared Scope, tag: ScopeTagID? = nil) {
        self.retainedContainer = container
        self.isRoot = false
        self.isObserved = container.table.isObserved
        self.tag = tag
        // The root, kept alive by the container this scope holds (see `Parent`).
        self.parent = parent.isRoot ? .root(Unretained(parent)) : .scope(parent)
        guard parent.add(child: self) else {
            closed.store(true, ordering: .releasing)
            return
        }
        if isObserved { reportOpened() }
        // A child sees the values its parent was given, unless it is given its own.
        guard !container.table.scopeValueSlots.isEmpty else { return }
        for slot in container.table.scopeValueSlots {
            if let value = parent.scopedInstance(slot) { storeScopedInstance(value, slot: slot) }
        }
    }

    /// The root container's record: what its singletons' disposals and its open scopes belong to.
    init(rootOf container: Void, isObserved: Bool) {
        self.retainedContainer = nil
        self.isRoot = true
        self.isObserved = isObserved
        self.tag = nil
        self.parent = nil
    }

    /// The container a scope that a user holds resolves through.
    ///
    /// Checked: only the root's record has none, and it is never handed out as a `Scope`, so
    /// the check never fails; it costs a compare and a branch the processor predicts.
    @inlinable
    var container: ContainerCore {
        retainedContainer!
    }

    @inlinable
    public func resolve<Service: Sendable>(_ type: Service.Type, name: String?) throws(GraftError) -> Service {
        // `self` is alive for the call.
        try container.resolve(type, name: name, from: Unretained(self))
    }

    public func resolve<Service: Sendable>(_ type: Service.Type, name: String?) async throws(GraftError) -> Service {
        var state = ResolveState(scope: self)
        return try await container.resolveAsync(type, name: name, &state)
    }

    @inlinable
    public func resolveAll<Service: Sendable>(_ type: Service.Type) throws(GraftError) -> [Service] {
        var state = ResolveState(scope: self)
        return try container.resolveAll(type, &state)
    }

    public func resolveAll<Service: Sendable>(_ type: Service.Type) async throws(GraftError) -> [Service] {
        var state = ResolveState(scope: self)
        return try await container.resolveAllAsync(type, &state)
    }

    /// Whether the scope has been closed.
    @inline(__always)
    public var isClosed: Bool { closed.load(ordering: .acquiring) }

    /// A child scope, closed when this one closes.
    ///
    /// - Returns: An open scope, or a closed one when this scope is closed already.
    public func makeScope() -> Scope {
        Scope(container: container, parent: self)
    }

    var id: ObjectIdentifier { ObjectIdentifier(self) }

    /// Tells the observers that this scope opened.
    @inline(never)
    private func reportOpened() {
        container.table.observers?.didOpenScope(id)
    }

    /// Tells the observers that this scope, let go without being closed, is closed.
    @inline(never)
    private func reportClosed() {
        retainedContainer?.table.observers?.didCloseScope(id)
    }

    @inline(__always)
    func withState<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }

    /// Lists `child` as open under this scope; `false` when this one is closed or draining.
    /// Inlined into the initializer, its one caller.
    @inline(__always)
    private func add(child: Scope) -> Bool {
        withState { state -> Bool in
            guard !isClosed, state.drainWaiters == nil else { return false }
            state.children.insert(child)
            return true
        }
    }

    deinit {
        // A scope let go without being closed leaves what it must dispose to its parent.
        // Listed, it waits for the parent's lock, which a parent closing it holds while it reads
        // this scope; unlisted, the parent is done with it (see `ListedMark`).
        let isListed = listing.isListed
        let id = self.id
        Interleavings.reach(.scopeLetGo(id, listed: isListed))
        if isListed, parent?.unlist(self) == true, isObserved { reportClosed() }
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

    /// Takes `record` for disposal; when the scope has closed meanwhile, disposes it now (if that
    /// needs no `await`) and throws.
    func adoptOrDispose(_ record: DisposalRecord) throws(GraftError) {
        guard !adopt(record) else { return }
        if case .sync(let disposable, _) = record { try? disposable.dispose() }
        throw ResolutionErrors.closed(record.key, self, root: isRoot ? self : container.root)
    }
}
