// The sync and async `makeChild` pair is not ambiguous: Swift picks the async one in async
// code, as for `build()`.
// swift-format-ignore-file: AmbiguousTrailingClosureOverload

/// Child containers: a built container plus registrations of its own, checked when made.
extension Container {
    /// A child container: this container's services plus the registrations `configure` adds,
    /// which may depend on this container's, validated before it is returned.
    ///
    /// ```swift
    /// let tenant = try app.makeChild { builder in
    ///     builder.register(TenantSettings.self, instance: TenantSettings(id: "acme"))
    ///     builder.register(Billing.self, lifetime: .singleton, using: Billing.init(settings:ledger:))
    /// }
    /// let billing = try tenant.resolve(Billing.self)   // `ledger` is the parent's singleton
    /// try tenant.shutdown()                             // disposes the tenant's Billing only
    /// ```
    ///
    /// What the child resolves: its own registration of a key when it has one, else the parent's.
    /// The parent never sees the child's registrations. A parent's service is always made by the
    /// parent, with the parent's dependencies (its singletons are shared by every child); the
    /// child's registrations are made by the child, once per child for its singletons, and are
    /// disposed when the child shuts down. A collection (``All``, ``ByName``, `resolveAll`) in a
    /// child holds the parent's registrations, then the child's.
    ///
    /// Making a child costs time in proportion to its own registrations and the parent
    /// registrations they reach, not to the size of the parent.
    ///
    /// `configure` may throw (reading a tenant's settings, say): its error is rethrown as it is,
    /// as ``overriding(_:)-1avvp`` does, and nothing is validated or built from the
    /// registrations it made before throwing.
    ///
    /// - Parameter configure: Adds the child's registrations.
    /// - Returns: The child, its `.eagerSingleton`s created.
    /// - Throws: The error `configure` throws, as it is. Otherwise ``GraftError`` with code
    ///   ``GraftError/Code/invalidGraph``, listing each problem as `build()` does (missing
    ///   dependencies, cycles, captive dependencies, across the parent and the child);
    ///   ``GraftError/Code/closed`` when this container is shutting down.
    public func makeChild(_ configure: (inout ContainerBuilder) throws -> Void) throws -> Container {
        try childBuilder(configure).buildChild(of: self)
    }

    /// A child container, awaiting its eager singletons that need `await` and the parent's
    /// singletons its registrations depend on that need `await`.
    ///
    /// - Parameter configure: Adds the child's registrations.
    /// - Returns: The child.
    /// - Throws: The error `configure` throws, as it is; otherwise ``GraftError`` with code
    ///   ``GraftError/Code/invalidGraph``.
    public func makeChild(_ configure: (inout ContainerBuilder) throws -> Void) async throws -> Container {
        try await childBuilder(configure).buildChild(of: self)
    }

    /// The container this one was made from by ``makeChild(_:)-1cp6m``; `nil` for a built one.
    public var parent: Container? { core.table.parent?.container }

    /// The child's registrations; when `configure` throws, they are dropped unchecked.
    private func childBuilder(_ configure: (inout ContainerBuilder) throws -> Void) rethrows -> ContainerBuilder {
        var builder = ContainerBuilder()
        builder.unhandledErrorHandler = core.table.problemReporter
        try configure(&builder)
        return builder
    }
}

extension ContainerBuilder {
    /// The child of `parent` with these registrations, its eager singletons made: what
    /// `makeChild` and a child's `overriding` return.
    func buildChild(of parent: Container) throws(GraftError) -> Container {
        let child = try makeChildContainer(of: parent, buildIsAsync: false)
        try finishEagerCreation(child, child.createEagerSingletons(), by: "makeChild()")
        return child
    }

    /// The child of `parent` with these registrations, awaiting what needs it.
    func buildChild(of parent: Container) async throws(GraftError) -> Container {
        // The one step only `await` can take: the parent's singletons that need it, made now so
        // that the child can hand them out synchronously like any other.
        for (ancestor, node) in parentNodesNeedingAwait(in: parent) {
            _ = try? await ancestor.core.instance(of: node)
        }
        let child = try makeChildContainer(of: parent, buildIsAsync: true)
        try finishEagerCreation(child, await child.createEagerSingletons(), by: "makeChild()")
        return child
    }

    /// Links the child's registrations over `parent`'s, validates them, and freezes the child.
    func makeChildContainer(of parent: Container, buildIsAsync: Bool) throws(GraftError) -> Container {
        if parent.isShuttingDown {
            throw GraftError(
                .closed,
                "cannot make a child container: its parent was shut down",
                hints: ["make children before the parent's shutdown()"]
            )
        }
        let link = ParentLink(parent)
        let overlay = ChildOverlay(parent: parent, child: decoratedRegistrations(), hooks: lifecycleHooks, link: link)
        let graph = overlay.graph
        let problems =
            problems(in: graph, buildIsAsync: buildIsAsync) + overlay.parentServicesNeedingAwait(in: graph)
            + hooksOnParentServices(in: graph)
        guard problems.isEmpty else { throw Self.invalidGraph(problems, by: "makeChild()") }
        let table = RegistrationTable(
            graph: graph,
            requirements: requirements,
            problemReporter: unhandledErrorHandler,
            observers: Observers.of(observers),
            parent: link
        )
        let child = Container(
            core: ContainerCore(table: table),
            lifecycle: Lifecycle(plan: LifecyclePlan(hooks: lifecycleHooks, graph: graph))
        )
        guard parent.children.add(child, for: link) else {
            _ = child.core.root.closeCollectingFailures()
            throw GraftError(.closed, "cannot make a child container: its parent was shut down")
        }
        return child
    }

    /// A problem for each hook of the child on a service the parent registers: the parent starts
    /// and stops its own services, once, whatever its children do.
    private func hooksOnParentServices(in graph: DependencyGraph) -> [GraftError] {
        lifecycleHooks.compactMap { hook in
            guard let node = graph.index.winner(for: hook.key), graph.registrations[node].kind == .parent else {
                return nil
            }
            return GraftError(
                .invalidLifecycleHook,
                "\(hook.kind.rawValue) for \(hook.key) (\(hook.source)), which the parent container registers",
                service: hook.key.description,
                hints: [
                    "a child starts and stops only its own services: add the \(hook.kind.rawValue) to the "
                        + "parent's builder, or register \(hook.key) in the child"
                ]
            )
        }
    }

    /// The parent's singletons needing `await` that the child's registrations reach: what the
    /// async `makeChild` creates before it links.
    func parentNodesNeedingAwait(in parent: Container) -> [(Container, Int)] {
        let ancestors = ChildOverlay.ancestors(of: parent)
        let tables = ancestors.map { $0.core.table }
        guard tables.contains(where: { $0.graph.hasAsyncFactory }) else { return [] }
        return ChildOverlay.parentNodes(reachedBy: decoratedRegistrations(), in: tables).compactMap {
            let graph = tables[$0.level].graph
            let needsAwait = graph.asyncCause($0.node) != nil && graph.lifetime($0.node).store == .rootSlot
            return needsAwait ? (ancestors[$0.level], $0.node) : nil
        }
    }
}

extension ContainerCore {
    /// The container that registers `type` for a resolve with runtime arguments, and where it
    /// starts: this one, or for a child that does not register it, the nearest ancestor that
    /// does, in the scope that goes with the child's.
    func inOwner<Result>(
        of type: any Any.Type,
        name: String?,
        from state: ResolveState,
        _ body: (ContainerCore, inout ResolveState) throws(GraftError) -> Result
    ) throws(GraftError) -> Result {
        // A container that is not a child pays this one test.
        guard let parent = table.parent, table.entry(for: ObjectIdentifier(type), name: name) == nil else {
            var state = state
            return try body(self, &state)
        }
        return try parent.resolving(in: state.scope, of: self, key: ServiceKey(type, name: name)) {
            (inParent) throws(GraftError) -> Result in
            try parent.core.inOwner(of: type, name: name, from: inParent, body)
        }
    }

    /// ``inOwner(of:name:from:_:)`` for a resolve that awaits.
    func inOwner<Result>(
        of type: any Any.Type,
        name: String?,
        from state: ResolveState,
        _ body: (ContainerCore, inout ResolveState) async throws(GraftError) -> Result
    ) async throws(GraftError) -> Result {
        guard let parent = table.parent, table.entry(for: ObjectIdentifier(type), name: name) == nil else {
            var state = state
            return try await body(self, &state)
        }
        return try await parent.resolving(in: state.scope, of: self, key: ServiceKey(type, name: name)) {
            (inParent) async throws(GraftError) -> Result in
            try await parent.core.inOwner(of: type, name: name, from: inParent, body)
        }
    }

    /// Whether registration `node`'s shared instance exists (or was given).
    func exists(_ node: Int) -> Bool {
        let entry = table.entries[node]
        return entry.isInstance || (entry.isRootOwned && singletons.address(entry.slot) != nil)
    }
}

// MARK: The parent, as a child sees it

/// A child's link to its parent: how the child's engine reaches the parent's services, and the
/// token under which the parent lists the child (see ``ChildContainers``).
@usableFromInline
final class ParentLink: Sendable {
    @usableFromInline let container: Container

    init(_ container: Container) {
        self.container = container
    }

    deinit {
        container.children.remove(self)
    }

    var core: ContainerCore { container.core }

    /// Where the parent makes what a resolve in `childScope` asks of it: the parent's root for
    /// the child's root, else a scope of the parent made for `childScope` (its
    /// ``ParentScopeLink``), closed when `childScope` closes.
    ///
    /// The scope it returns is kept by `childScope`'s link only, which a close of `childScope`
    /// on another thread lets go: a resolve in it starts through ``resolving(in:of:key:_:)``,
    /// which keeps it for the whole resolve.
    private func scope(
        for childScope: Scope,
        of child: ContainerCore,
        key: @autoclosure () -> ServiceKey
    ) throws(GraftError) -> Scope {
        if childScope.isClosed { throw child.closedError(key(), childScope) }
        if childScope.isRoot { return core.root }
        return try ParentScopeLink.of(childScope, in: child).scope
    }

    /// Registration `node` of `owner`, the ancestor `hops` steps up, as the child's proxy for it
    /// hands it out: made by `owner` in the scope that goes with the child's.
    static func make<Service: Sendable>(
        _ node: Int,
        of owner: ContainerCore,
        hops: Int,
        as type: Service.Type,
        for construction: borrowing Construction
    ) throws(GraftError) -> Service {
        var core = construction.resolvingContainer
        var scope = construction.resolvingScope
        let entry = owner.table.entries[node]
        for _ in 0..<hops {
            // `owner` is `hops` ancestors up, so each container on the way has a parent.
            guard let link = core.table.parent else { break }
            scope = try link.scope(for: scope, of: core, key: entry.key)
            core = link.core
        }
        if scope.isClosed { throw owner.closedError(entry.key, scope) }
        let arguments = construction.arguments
        return try ResolveState.keeping(scope) { (state) throws(GraftError) -> Service in
            // Runtime arguments, which the child checked against the same types: a new transient,
            // which the parent's scope owns, as a resolve with them from the parent makes.
            if let arguments {
                if _slowPath(entry.isObserved) {
                    return try owner.createObserved(entry, &state, disposed: true, arguments: arguments) { _ in }
                }
                return try owner.create(entry, &state, disposed: true, arguments: arguments)
            }
            return try owner.make(entry, &state)
        }
    }

    /// Runs `body` with a state on the parent's scope that goes with `childScope` (see
    /// ``scope(for:of:key:)``), which this call keeps alive until `body` returns.
    func resolving<Result>(
        in childScope: Scope,
        of child: ContainerCore,
        key: @autoclosure () -> ServiceKey,
        _ body: (inout ResolveState) throws(GraftError) -> Result
    ) throws(GraftError) -> Result {
        try ResolveState.keeping(try scope(for: childScope, of: child, key: key()), body)
    }

    /// ``resolving(in:of:key:_:)`` for a resolve that awaits.
    func resolving<Result>(
        in childScope: Scope,
        of child: ContainerCore,
        key: @autoclosure () -> ServiceKey,
        _ body: (inout ResolveState) async throws(GraftError) -> Result
    ) async throws(GraftError) -> Result {
        try await ResolveState.keeping(try scope(for: childScope, of: child, key: key()), body)
    }

    /// What the child does not register, resolved by the parent.
    @usableFromInline
    func resolve<Service: Sendable>(
        _ type: Service.Type,
        name: String?,
        from childScope: Scope,
        of child: ContainerCore
    ) throws(GraftError) -> Service {
        try resolving(in: childScope, of: child, key: ServiceKey(type, name: name)) { (state) throws(GraftError) in
            try core.resolve(type, name: name, &state)
        }
    }

    func resolveAsync<Service: Sendable>(
        _ type: Service.Type,
        name: String?,
        from childScope: Scope,
        of child: ContainerCore
    ) async throws(GraftError) -> Service {
        try await resolving(in: childScope, of: child, key: ServiceKey(type, name: name)) {
            (state) async throws(GraftError) in try await core.resolveAsync(type, name: name, &state)
        }
    }

    /// Every registration of a type the child neither registers nor depends on: the parent's.
    @usableFromInline
    func resolveAll<Service: Sendable>(
        _ type: Service.Type,
        from childScope: Scope,
        of child: ContainerCore
    ) throws(GraftError) -> [Service] {
        try resolving(in: childScope, of: child, key: ServiceKey(type)) { (state) throws(GraftError) in
            try core.resolveAll(type, &state)
        }
    }

    func resolveAllAsync<Service: Sendable>(
        _ type: Service.Type,
        from childScope: Scope,
        of child: ContainerCore
    ) async throws(GraftError) -> [Service] {
        try await resolving(in: childScope, of: child, key: ServiceKey(type)) { (state) async throws(GraftError) in
            try await core.resolveAllAsync(type, &state)
        }
    }
}

/// The parent's scope that goes with one scope of a child: where the parent's scoped services
/// resolved in that scope live. The child's scope owns it and closes it when it closes, after
/// the child's own scoped services (made later, disposed first).
final class ParentScopeLink: Disposable {
    let scope: Scope

    init(_ scope: Scope) {
        self.scope = scope
    }

    func dispose() throws {
        try scope.close()
    }

    /// The registration every child has: one parent scope per child scope, made on first use,
    /// under the parent scope of the child scope's own parent scope, so that it sees the values
    /// given to that one as the child scope does.
    static func registration(_ link: ParentLink) -> Registration {
        Registration(
            ParentScopeLink.self,
            name: nil,
            lifetime: .scoped,
            recipe: Recipe(.autowired) { [core = link.core] construction in
                let scope = construction.resolvingScope
                var outer = core.root
                if case .scope(let enclosing) = scope.parent {
                    outer = try of(enclosing, in: construction.resolvingContainer).scope
                }
                try construction.deliver(ParentScopeLink(Scope(container: core, parent: outer)))
            },
            fileID: "Graft/makeChild()",
            line: 0
        )
    }

    /// The link of `scope`, a scope of the child `child`: made now if it was not yet.
    static func of(_ scope: Scope, in child: ContainerCore) throws(GraftError) -> ParentScopeLink {
        // The caller keeps `scope` alive for the call.
        try child.resolve(ParentScopeLink.self, name: nil, from: Unretained(scope))
    }
}

extension RegistrationTable {
    /// Whether this table answers `Service` as a `Lazy`, `Provider` or `Optional` of a service
    /// it registers, or as a collection gathered at the call (whose items a child's own
    /// `resolveAll` finds, the parent's included): a child's table asks its parent only for
    /// what it does not.
    @usableFromInline
    func answersWrapped<Service>(_ type: Service.Type, name: String?) -> Bool {
        if name == nil, Service.self is any GatheredCollection.Type { return true }
        guard name == nil, let wrapping = Service.self as? any WrappedDependency.Type else { return false }
        return entry(for: wrapping.dependency.key.id, name: nil) != nil
    }
}

// MARK: The parent's children

/// The live children of a container, which its shutdown shuts down first: held weakly, so a
/// child let go without a shutdown is not kept.
final class ChildContainers: Sendable {
    private struct Weak: Sendable {
        weak let container: Container?
    }

    /// `nil` once the parent's shutdown took them: no child is added after.
    private let children = Locked<[ObjectIdentifier: Weak]?>([:])

    func add(_ child: Container, for link: ParentLink) -> Bool {
        children.withLock { children in
            guard children != nil else { return false }
            children?[ObjectIdentifier(link)] = Weak(container: child)
            return true
        }
    }

    func remove(_ link: ParentLink) {
        children.withLock { _ = $0?.removeValue(forKey: ObjectIdentifier(link)) }
    }

    /// The children still alive, newest last; none can be added from now on.
    func takeAll() -> [Container] {
        let taken = children.withLock { children in
            defer { children = nil }
            return children.map { Array($0.values) } ?? []
        }
        return taken.compactMap(\.container)
    }
}

extension Container {
    /// Shuts every live child down, collecting what failed.
    func shutDownChildren() -> [GraftError] {
        var failures: [GraftError] = []
        for child in children.takeAll() {
            do { try child.shutdown() } catch { failures.append(error) }
        }
        return failures
    }

    /// Shuts every live child down, awaiting what needs it; collects what failed.
    func shutDownChildren() async -> [GraftError] {
        var failures: [GraftError] = []
        for child in children.takeAll() {
            do { try await child.shutdown() } catch { failures.append(error) }
        }
        return failures
    }
}

extension Registration {
    /// Whether `makeChild` added this registration to a child's graph: a stand-in for a parent's
    /// registration, or the link to the parent's scopes. A child's `overriding` starts from the
    /// child's own registrations, without these.
    var standsForParent: Bool {
        kind == .parent || key.id == ObjectIdentifier(ParentScopeLink.self)
    }
}

extension Construction {
    /// The engine running this construction.
    var resolvingContainer: ContainerCore {
        site(as: ContainerCore.self)
    }

    /// The scope the construction resolves in (the root's record for the container itself).
    /// Only for recipes that Graft adds, which run inside the engine: it always lends its state.
    var resolvingScope: Scope {
        withRequest(as: ResolveState.self) { $0.scope }
    }
}
