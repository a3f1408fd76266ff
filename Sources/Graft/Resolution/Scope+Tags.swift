// The sync and async `withScope(tagged:)` pair is not ambiguous: Swift picks the async one only
// for an async closure.
// swift-format-ignore-file: AmbiguousTrailingClosureOverload

/// Tagged child scopes: a session scope under a tenant's, say (see ``ScopeTag``).
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
