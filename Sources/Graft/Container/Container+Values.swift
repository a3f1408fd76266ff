// The sync and async `withScope(providing:)` pair is not ambiguous: Swift picks the async one
// only for an async closure.
// swift-format-ignore-file: AmbiguousTrailingClosureOverload

/// Making scopes that are given values (see ``ContainerBuilder/registerScopeValue(_:fileID:line:)``).
extension Container {
    /// A new scope given `values`, one per declared scope-value type.
    ///
    /// ```swift
    /// let scope = try container.makeScope(providing: RequestID("7f3a"), logger)
    /// defer { try? scope.close() }
    /// let audit = try scope.resolve(AuditLog.self)
    /// ```
    ///
    /// Each value is known by its static type: pass a `Logger` for a declared `Logger`, an
    /// `any Principal` for a declared `any Principal`.
    ///
    /// - Parameters:
    ///   - first: The scope's first value.
    ///   - values: Its other values.
    /// - Returns: An open scope, a child of the root container.
    /// - Throws: ``GraftError`` with code ``GraftError/Code/notRegistered`` when a value's type
    ///   was not declared with `registerScopeValue`, or ``GraftError/Code/closed`` after
    ///   ``shutdown()-6bp33``.
    public func makeScope<First: Sendable, each Value: Sendable>(
        providing first: First,
        _ values: repeat each Value
    ) throws(GraftError) -> Scope {
        try Scope(container: core, parent: core.root, providing: first, repeat each values)
    }

    /// Runs `body` with a new scope given `values`, and closes the scope when `body` ends.
    ///
    /// - Parameters:
    ///   - first: The scope's first value.
    ///   - values: Its other values, one per declared scope-value type.
    ///   - body: Work that resolves scoped services.
    /// - Returns: What `body` returns.
    /// - Throws: What ``makeScope(providing:_:)`` throws, `body`'s error, or a ``GraftError`` when
    ///   disposal fails.
    public func withScope<First: Sendable, each Value: Sendable, Result>(
        providing first: First,
        _ values: repeat each Value,
        body: (Scope) throws -> Result
    ) throws -> Result {
        try makeScope(providing: first, repeat each values).run(body)
    }

    /// Runs async `body` with a new scope given `values`, and closes the scope, awaiting async
    /// disposals, when `body` ends.
    ///
    /// ```swift
    /// try await container.withScope(providing: RequestID("7f3a"), logger) { scope in
    ///     try await scope.resolve(CheckoutHandler.self).run()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - first: The scope's first value.
    ///   - values: Its other values, one per declared scope-value type.
    ///   - body: Work that resolves scoped services.
    /// - Returns: What `body` returns.
    /// - Throws: What ``makeScope(providing:_:)`` throws, `body`'s error, or a ``GraftError`` when
    ///   disposal fails.
    public func withScope<First: Sendable, each Value: Sendable, Result: Sendable>(
        providing first: First,
        _ values: repeat each Value,
        body: (Scope) async throws -> Result
    ) async throws -> Result {
        try await makeScope(providing: first, repeat each values).run(body)
    }
}

extension Container {
    /// Whether `type` was declared with
    /// ``ContainerBuilder/registerScopeValue(_:fileID:line:)``: ``RequestScopes`` and the
    /// integrations' WebSocket sessions give a scope the request's values only when the app
    /// declared them. For integrations only (`@_spi(Integrations) import Graft`), not the API an
    /// app uses.
    ///
    /// - Parameter type: A scope-value type.
    /// - Returns: `true` when scopes can be given a `Value`.
    @_spi(Integrations)
    public func declaresScopeValue<Value: Sendable>(_ type: Value.Type) -> Bool {
        let index = core.table.unnamedIndex(for: ObjectIdentifier(type))
        // A child's scopes are given the values its parent declares too.
        if let parent, index.map({ core.table.registrations[$0].kind == .parent }) ?? true {
            return parent.declaresScopeValue(type)
        }
        guard let index else { return false }
        return core.table.registrations[index].kind == .scopeValue
    }
}
