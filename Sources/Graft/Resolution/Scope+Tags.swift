// The sync and async `withScope(tagged:)` pair is not ambiguous: Swift picks the async one only
// for an async closure.
// swift-format-ignore-file: AmbiguousTrailingClosureOverload

/// Making tagged scopes, whose `.scoped(in:)` instances every scope made under them shares (see
/// ``ScopeTag``).
extension Container {
    /// A new scope tagged `tag`: a session's, a tenant's, a connection's.
    ///
    /// ```swift
    /// let session = container.makeScope(tagged: Session.self)
    /// defer { try? session.close() }
    /// let request = session.makeScope()
    /// ```
    ///
    /// Services registered with `lifetime: .scoped(in: Session.self)` and resolved from it, or
    /// from any scope made under it, are this scope's, disposed when it closes.
    ///
    /// - Parameter tag: The scope's tag.
    /// - Returns: An open scope, a child of the root container (closed after shutdown).
    public func makeScope<Tag: ScopeTag>(tagged tag: Tag.Type) -> Scope {
        Scope(container: core, parent: core.root, tag: ScopeTagID(tag))
    }

    /// A new scope tagged `tag` and given `values`, one per declared scope-value type.
    ///
    /// ```swift
    /// let tenant = try container.makeScope(tagged: TenantScope.self, providing: TenantID("acme"))
    /// ```
    ///
    /// - Parameters:
    ///   - tag: The scope's tag.
    ///   - first: The scope's first value.
    ///   - values: Its other values.
    /// - Returns: An open scope, a child of the root container.
    /// - Throws: What ``makeScope(providing:_:)`` throws.
    public func makeScope<Tag: ScopeTag, First: Sendable, each Value: Sendable>(
        tagged tag: Tag.Type,
        providing first: First,
        _ values: repeat each Value
    ) throws(GraftError) -> Scope {
        try Scope(container: core, parent: core.root, tag: ScopeTagID(tag), providing: first, repeat each values)
    }

    /// Runs `body` with a new scope tagged `tag`, and closes the scope when `body` ends.
    ///
    /// - Parameters:
    ///   - tag: The scope's tag.
    ///   - body: Work that resolves scoped services.
    /// - Returns: What `body` returns.
    /// - Throws: `body`'s error, or a ``GraftError`` when disposal fails.
    public func withScope<Tag: ScopeTag, Result>(
        tagged tag: Tag.Type,
        body: (Scope) throws -> Result
    ) throws -> Result {
        try makeScope(tagged: tag).run(body)
    }

    /// Runs async `body` with a new scope tagged `tag`, and closes the scope, awaiting async
    /// disposals, when `body` ends.
    ///
    /// ```swift
    /// try await container.withScope(tagged: Connection.self) { connection in
    ///     for await message in messages {
    ///         try await handle(message, in: connection.makeScope())
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - tag: The scope's tag.
    ///   - body: Work that resolves scoped services.
    /// - Returns: What `body` returns.
    /// - Throws: `body`'s error, or a ``GraftError`` when disposal fails.
    public func withScope<Tag: ScopeTag, Result: Sendable>(
        tagged tag: Tag.Type,
        body: (Scope) async throws -> Result
    ) async throws -> Result {
        try await makeScope(tagged: tag).run(body)
    }
}

extension Scope {
    /// A child scope tagged `tag`, closed when this one closes.
    ///
    /// A tag nearer the scope a service is resolved from wins: a `Session` scope made under
    /// another `Session` scope has its own `.scoped(in: Session.self)` instances.
    ///
    /// - Parameter tag: The child's tag.
    /// - Returns: An open scope, or a closed one when this scope is closed already.
    public func makeScope<Tag: ScopeTag>(tagged tag: Tag.Type) -> Scope {
        Scope(container: container, parent: self, tag: ScopeTagID(tag))
    }

    /// A child scope tagged `tag` and given `values`; it sees this scope's other values.
    ///
    /// - Parameters:
    ///   - tag: The child's tag.
    ///   - first: The child's first value; it hides this scope's value of the same type.
    ///   - values: The child's other values.
    /// - Returns: An open scope, closed when this one closes.
    /// - Throws: ``GraftError`` when a value's type was not declared, or this scope is closed.
    public func makeScope<Tag: ScopeTag, First: Sendable, each Value: Sendable>(
        tagged tag: Tag.Type,
        providing first: First,
        _ values: repeat each Value
    ) throws(GraftError) -> Scope {
        try Scope(container: container, parent: self, tag: ScopeTagID(tag), providing: first, repeat each values)
    }
}

extension Scope {
    /// The nearest scope tagged `tag`: this one, or the nearest scope it was made under.
    func nearest(tagged tag: ScopeTagID) -> Scope? {
        var scope = self
        while true {
            if scope.tag == tag { return scope }
            // The root is never tagged.
            guard case .scope(let parent)? = scope.parent else { return nil }
            scope = parent
        }
    }

    /// The tags of this scope and of those it was made under, nearest first.
    var enclosingTags: [ScopeTagID] {
        var tags: [ScopeTagID] = []
        var scope = self
        while true {
            if let tag = scope.tag { tags.append(tag) }
            guard case .scope(let parent)? = scope.parent else { return tags }
            scope = parent
        }
    }
}
