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
    /// ``ContainerBuilder/registerScopeValue(_:fileID:line:)``: for integrations that give
    /// scopes a value only when the app declared it.
    ///
    /// - Parameter type: A scope-value type.
    /// - Returns: `true` when scopes can be given a `Value`.
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

extension Scope {
    /// A child scope given `values`; it sees this scope's other values.
    ///
    /// - Parameters:
    ///   - first: The child's first value; it hides this scope's value of the same type.
    ///   - values: The child's other values.
    /// - Returns: An open scope, closed when this one closes.
    /// - Throws: ``GraftError`` when a value's type was not declared, or this scope is closed.
    public func makeScope<First: Sendable, each Value: Sendable>(
        providing first: First,
        _ values: repeat each Value
    ) throws(GraftError) -> Scope {
        try Scope(container: container, parent: self, providing: first, repeat each values)
    }

    convenience init<First: Sendable, each Value: Sendable>(
        container: ContainerCore,
        parent: Scope,
        tag: ScopeTagID? = nil,
        providing first: First,
        _ values: repeat each Value
    ) throws(GraftError) {
        self.init(container: container, parent: parent, tag: tag)
        do throws(GraftError) {
            guard !isClosed else {
                throw GraftError(
                    .closed,
                    "cannot make a scope: \(Self.whyClosed(parent))",
                    hints: ["make scopes before shutdown(), from an open scope"]
                )
            }
            try give(first)
            for value in repeat each values {
                try give(value)
            }
        } catch {
            // Nothing was created in it yet; closing unhooks it from its parent.
            _ = closeCollectingFailures()
            throw error
        }
    }

    /// Why a scope made under `parent` was born closed.
    private static func whyClosed(_ parent: Scope) -> String {
        guard parent.isRoot else { return "its parent scope was closed" }
        return parent.isClosed ? "the container was shut down" : "the container is shutting down"
    }

    /// Stores `value` as this scope's instance of its declared scope-value registration.
    func give<Value: Sendable>(_ value: Value) throws(GraftError) {
        let key = ServiceKey(Value.self)
        let index = container.table.unnamedIndex(for: key.id)
        // A child container's scope hands a value its parent declares to the parent's scope
        // that goes with it, where the parent's services read it.
        if container.table.parent != nil, index.map({ container.table.registrations[$0].kind == .parent }) ?? true {
            return try ParentScopeLink.of(self, in: container).scope.give(value)
        }
        guard let index, container.table.registrations[index].kind == .scopeValue else {
            let registered = container.table.unnamedIndex(for: key.id) != nil
            throw GraftError(
                .notRegistered,
                "\(key.typeName) was given to a scope but is not declared as a scope value",
                service: key.description,
                hints: [
                    registered
                        ? "\(key.typeName) is registered as a service; a scope is given only the types "
                            + "declared with builder.registerScopeValue(\(key.typeName).self)"
                        : "declare it before build(): builder.registerScopeValue(\(key.typeName).self)"
                ]
            )
        }
        storeScopedInstance(InstanceCell.make(value), slot: index)
    }
}
