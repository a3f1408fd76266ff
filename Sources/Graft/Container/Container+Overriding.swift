// The sync and async `overriding` pair is not ambiguous: in an async function `try await`
// picks the async one, elsewhere the synchronous one is the only candidate.
// swift-format-ignore-file: AmbiguousTrailingClosureOverload

/// Overriding: a container's registrations again, with some replaced, for tests.
extension Container {
    /// A cheap copy of this container's registrations with some replaced or added: for tests.
    ///
    /// The result is validated again and has its own singletons, all of them fresh; only
    /// `instance:` registrations are shared with this container, which stays untouched. A
    /// registration in `changes` replaces every registration of the same type and name. The copy
    /// of a child container (``makeChild(_:)-1cp6m``) is a new child of the same parent, whose
    /// services it shares as the original does.
    ///
    /// ```swift
    /// let testContainer = try container.overriding { $0.register(Engine.self) { _ in MockEngine() } }
    /// ```
    ///
    /// - Parameter changes: Registers the replacements.
    /// - Returns: A new container.
    /// - Throws: ``GraftError`` when the changed graph is invalid.
    public func overriding(_ changes: (inout ContainerBuilder) throws -> Void) throws -> Container {
        let builder = try overridingBuilder(changes)
        // A child's copy is a child of the same parent, checked as `makeChild` checks one.
        if let parent { return try builder.buildChild(of: parent) }
        return try builder.build()
    }

    /// A copy of this container's registrations with some replaced or added, built with the
    /// async `build()`: for a container with an `.eagerSingleton` that needs `await` (a
    /// connection pool opened at start-up), which the synchronous form reports as a problem.
    ///
    /// ```swift
    /// let testContainer = try await container.overriding { $0.register(Engine.self) { _ in MockEngine() } }
    /// ```
    ///
    /// Swift picks this overload where `await` is written in an async function; in top-level code
    /// (`main.swift`) it picks the synchronous one even after `await`.
    ///
    /// - Parameter changes: Registers the replacements.
    /// - Returns: A new container, its eager singletons created.
    /// - Throws: ``GraftError`` when the changed graph is invalid.
    public func overriding(_ changes: (inout ContainerBuilder) throws -> Void) async throws -> Container {
        let builder = try overridingBuilder(changes)
        if let parent { return try await builder.buildChild(of: parent) }
        return try await builder.build()
    }

    /// The builder both forms build: the registrations, with `changes` replacing.
    private func overridingBuilder(_ changes: (inout ContainerBuilder) throws -> Void) rethrows -> ContainerBuilder {
        var builder = ContainerBuilder(overriding: core.table)
        builder.lifecycleHooks = lifecycle.plan.hooks
        try changes(&builder)
        builder.replacesExisting = false
        return builder
    }
}

extension ContainerBuilder {
    /// A builder holding `table`'s registrations, in which new registrations replace old ones.
    init(overriding table: RegistrationTable) {
        self.init()
        registrations =
            table.parent == nil
            ? table.graph.userRegistrations : table.graph.userRegistrations.filter { !$0.standsForParent }
        requirements = table.requirements
        unhandledErrorHandler = table.problemReporter
        replacesExisting = true
    }
}
