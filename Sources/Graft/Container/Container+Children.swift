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
            _ = try? await ancestor.instance(of: node)
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
        let link = ParentLink(parent: parent.core, listedIn: parent.children)
        let overlay = ChildOverlay(
            parent: parent.core,
            child: decoratedRegistrations(),
            hooks: lifecycleHooks,
            link: link
        )
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
            lifecycle: Lifecycle(plan: LifecyclePlan(hooks: lifecycleHooks, graph: graph)),
            parent: parent
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
    func parentNodesNeedingAwait(in parent: Container) -> [(ContainerCore, Int)] {
        let ancestors = ChildOverlay.ancestors(of: parent.core)
        let tables = ancestors.map(\.table)
        guard tables.contains(where: { $0.graph.hasAsyncFactory }) else { return [] }
        return ChildOverlay.parentNodes(reachedBy: decoratedRegistrations(), in: tables).compactMap {
            let graph = tables[$0.level].graph
            let needsAwait = graph.asyncCause($0.node) != nil && graph.lifetime($0.node).store == .rootSlot
            return needsAwait ? (ancestors[$0.level], $0.node) : nil
        }
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
