// The sync and async `withScope(providing:)` pair is not ambiguous: Swift picks the async one
// only for an async closure.
// swift-format-ignore-file: AmbiguousTrailingClosureOverload

/// Child scopes given values of their own (see ``ContainerBuilder/registerScopeValue(_:fileID:line:)``).
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
