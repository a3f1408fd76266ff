// The sync and async `withScope`/`run` pair is not ambiguous: Swift picks the async one only
// for an async closure.
// swift-format-ignore-file: AmbiguousTrailingClosureOverload

/// The frozen, validated graph: resolves services and owns the singletons.
///
/// Make one with ``ContainerBuilder/build()-4ammy``. A container is `Sendable`: resolve from any
/// thread or task. A singleton is created exactly once however many threads race for it.
///
/// ```swift
/// let container = try builder.build()
/// let car = try container.resolve(RaceCar.self)
/// let order = try container.withScope { scope in try scope.resolve(PitStopOrder.self) }
/// try container.shutdown()
/// ```
public final class Container: Resolver {
    @usableFromInline let core: ContainerCore
    /// Start hooks, stop hooks and running services, and the one shutdown (`Lifecycle/`).
    let lifecycle: Lifecycle
    /// The live children made by `makeChild`, which shutdown shuts down first (`Children/`).
    let children = ChildContainers<Container>()
    /// The container this one was made from by ``makeChild(_:)-1cp6m``; `nil` for a built one.
    public let parent: Container?

    init(core: ContainerCore, lifecycle: Lifecycle = Lifecycle(plan: .empty), parent: Container? = nil) {
        self.core = core
        self.lifecycle = lifecycle
        self.parent = parent
    }

    @inlinable
    public func resolve<Service: Sendable>(_ type: Service.Type, name: String?) throws(GraftError) -> Service {
        try _resolve(type, name: name)
    }

    @inlinable
    func _resolve<Service: Sendable>(_ type: Service.Type, name: String?) throws(GraftError) -> Service {
        try core.resolve(type, name: name, from: core.unretainedRoot)
    }

    public func resolve<Service: Sendable>(_ type: Service.Type, name: String?) async throws(GraftError) -> Service {
        var state = ResolveState(scope: core.root)
        return try await core.resolveAsync(type, name: name, &state)
    }

    @inlinable
    public func resolveAll<Service: Sendable>(_ type: Service.Type) throws(GraftError) -> [Service] {
        var state = ResolveState(scope: core.root)
        return try core.resolveAll(type, &state)
    }

    public func resolveAll<Service: Sendable>(_ type: Service.Type) async throws(GraftError) -> [Service] {
        var state = ResolveState(scope: core.root)
        return try await core.resolveAllAsync(type, &state)
    }

    /// A new scope for a request, a screen or a session; close it when done.
    ///
    /// After ``shutdown()-6bp33`` the scope is born closed: it resolves nothing but errors.
    ///
    /// ```swift
    /// let scope = container.makeScope()
    /// defer { try? scope.close() }
    /// ```
    ///
    /// - Returns: An open scope, a child of the root container.
    public func makeScope() -> Scope {
        // Borrowed, as `self` keeps it: reading `core` would retain and release it, a write to
        // one count that every thread making scopes shares.
        Unretained(core).with { $0.makeScope() }
    }

    /// Runs `body` with a new scope and closes the scope when `body` ends.
    ///
    /// If `body` throws and disposal fails too, `body`'s error is rethrown unchanged and the
    /// disposal failures go to ``ContainerBuilder/unhandledErrorHandler``.
    ///
    /// - Parameter body: Work that resolves scoped services.
    /// - Returns: What `body` returns.
    /// - Throws: `body`'s error, or a ``GraftError`` when disposal fails or `body` made work with a
    ///   completion step, which only the async form can run.
    public func withScope<Result>(_ body: (Scope) throws -> Result) throws -> Result {
        try makeScope().run(body)
    }

    /// Runs async `body` with a new scope; when `body` returns, runs the scope's completion step
    /// (see ``Scope/complete()``: what it made commits), then closes the scope, awaiting async
    /// disposals. When `body` throws, nothing is completed and the scope closes.
    ///
    /// - Parameter body: Work that resolves scoped services.
    /// - Returns: What `body` returns.
    /// - Throws: `body`'s error, or a ``GraftError`` when the completion step or disposal fails.
    public func withScope<Result: Sendable>(_ body: (Scope) async throws -> Result) async throws -> Result {
        try await makeScope().run(body)
    }

    /// Closes every open scope (children first), then disposes what the container created,
    /// newest first. A second call does nothing.
    ///
    /// A container with stop hooks or running services to stop needs the `async` form.
    ///
    /// - Throws: ``GraftError`` with code ``GraftError/Code/disposalFailed`` listing every
    ///   `dispose()` that threw, after all of them ran; ``GraftError/Code/needsAwait``, before
    ///   anything is disposed, when a service has stop hooks or a `run()` to stop.
    public func shutdown() throws(GraftError) {
        try shutDownSynchronously()
    }

    /// Stops what started (running services cancelled, stop hooks run, newest first), then
    /// closes every open scope and disposes what the container created, awaiting async
    /// disposals. A call while a shutdown runs waits for it; a call after it does nothing.
    ///
    /// - Throws: ``GraftError`` listing every stop hook and `dispose()` that threw.
    public func shutdown() async throws(GraftError) {
        try await shutDownOnce()
    }
}

extension Container {
    /// The container's validated graph as a diagram.
    ///
    /// - Parameter format: The diagram language.
    /// - Returns: The diagram's source text.
    public func exportGraph(as format: GraphFormat) -> String {
        GraphRenderer(graph: core.table.graph, problems: []).render(format)
    }
}

extension Container: EngineResolver {
    var resolutionStart: (core: ContainerCore, state: ResolveState) { (core, ResolveState(scope: core.root)) }
}
