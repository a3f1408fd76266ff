/// Where a `.scoped(in:)` instance lives: in the nearest enclosing scope with its tag.
///
/// Everything else about it is what a `.scoped` instance is: once the scope is found, the
/// instance is looked up, created (through that scope's coordinator, owned by that scope, with
/// its dependencies resolved from that scope) and published as a `.scoped` instance of that
/// scope would be. Only resolves of `.scoped(in:)` services walk up the scopes; a resolve of
/// anything else pays one comparison in ``placement(of:_:as:)``.
extension ContainerCore {
    /// The placement of `entry`, a `.scoped(in:)` entry, under `state`.
    @inline(never)
    func taggedPlacement(
        of entry: Entry,
        _ tag: ScopeTagID,
        _ state: borrowing ResolveState,
        awaiting: Bool
    ) throws(GraftError) -> Placement {
        guard let scope = state.scope.nearest(tagged: tag) else {
            throw noTaggedScopeError(entry, tag, state, awaiting: awaiting)
        }
        if let box = scope.scopedInstance(entry.slot) { return .existing(box) }
        return .sharedIn(scope)
    }

    /// Why `entry` cannot be resolved under `state`, where no enclosing scope carries `tag`.
    private func noTaggedScopeError(
        _ entry: Entry,
        _ tag: ScopeTagID,
        _ state: borrowing ResolveState,
        awaiting: Bool
    ) -> GraftError {
        let lifetime = Lifetime.scopedInTag(tag)
        if state.scope.isRoot, state.singleton >= 0 {
            let holder = table.entries[state.singleton]
            return GraftError(
                .captiveDependency,
                "captive dependency: \(holder.key) (\(holder.lifetime)) resolved \(entry.key) (\(lifetime)) "
                    + "while being created",
                service: holder.key.description,
                hints: [
                    Lifetime.Kind.outlives(holder.lifetime, holder.lifetime.description, lifetime.description)
                        + "; make \(holder.key.typeName) \(lifetime), or make \(entry.key.typeName) live as long"
                ]
            )
        }
        let summary =
            state.scope.isRoot
            ? "\(entry.key.subject) is \(lifetime) and cannot be resolved from the root container"
            : "\(entry.key.subject) is \(lifetime), but neither its scope nor any scope it was made under "
                + "is tagged \(tag)"
        var hints = [
            "make the scopes that resolve it under a \(tag) scope: let scope = container.makeScope(tagged: "
                + "\(tag).self), then scope.makeScope() for each unit of work under it",
            "or resolve it within one: " + withTaggedScopeSpelling(entry, tag, awaiting: awaiting),
        ]
        let others = state.scope.enclosingTags
        if !others.isEmpty {
            hints.append(
                "the scopes it was resolved in are tagged \(others.map(\.description).joined(separator: ", ")); "
                    + "a \(tag) scope must enclose them, not the other way round"
            )
        }
        return GraftError(.noTaggedScope, summary, service: entry.key.description, hints: hints)
    }

    /// How to resolve `entry` within a scope tagged `tag`, spelled as it compiles where the
    /// failed resolve was written: with `await` when the service needs it or that resolve awaits
    /// (a synchronous resolve inside a task is synchronous code, which the synchronous form suits).
    private func withTaggedScopeSpelling(_ entry: Entry, _ tag: ScopeTagID, awaiting: Bool) -> String {
        let name = entry.key.name.map { ", name: \"\($0)\"" } ?? ""
        let resolve = "$0.resolve(\(entry.key.typeName).self\(name))"
        guard entry.asyncCause != nil || awaiting else {
            return "try container.withScope(tagged: \(tag).self) { try \(resolve) }"
        }
        return "try await container.withScope(tagged: \(tag).self) { try await \(resolve) }"
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
