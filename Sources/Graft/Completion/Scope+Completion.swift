extension Scope {
    /// Runs the scope's completion step: the ``Completable/complete()`` (or `onComplete` closure)
    /// of each instance this scope made whose registration has one, newest first.
    ///
    /// Call it when the scope's work succeeded and before you report success: after a request's
    /// handler returns and before its response is sent. GraftHummingbird and GraftVapor call it
    /// for you; call it yourself for a scope you run by hand:
    ///
    /// ```swift
    /// let scope = container.makeScope()
    /// try await scope.resolve(UnitOfWork.self).insert(order)
    /// try await scope.complete()     // COMMIT; a failure is thrown here, before the answer
    /// try await scope.close()        // dispose: release the connection
    /// ```
    ///
    /// Each instance completes at most once: a second call runs only the steps of instances made
    /// since the first. The step stops at the first instance that throws; the scope stays open,
    /// and closing it disposes every instance as usual.
    ///
    /// - Throws: ``GraftError`` with code ``GraftError/Code/completionFailed``, naming the
    ///   service whose step threw, with the error it threw as its `underlyingError`.
    public func complete() async throws(GraftError) {
        // A scope that made nothing with a completion step has no list: making an empty one
        // only to run nothing cost every request a creation (and, observed, its metrics).
        guard mayHaveCompletionSteps else { return }
        // `resolveAll` answers an empty array, and throws nothing, when no registration has a
        // completion step: the common case costs no error.
        for steps in try await resolveAll(CompletionSteps.self) {
            try await steps.run()
        }
    }
}

extension Scope {
    /// Whether this scope may hold a list of completion steps: `false` only when it surely holds
    /// none, so ``complete()`` has nothing to run. A closed scope answers `true`, so that
    /// completing it reports the closed scope as it always did; so does a child container's scope
    /// whose steps its parent's table registers, which is left to `resolveAll`.
    var mayHaveCompletionSteps: Bool {
        guard !isClosed else { return true }
        let table = container.table
        // The registration indexes, not the entries: no array is made for this question.
        let indexes = table.graph.index.group(ofType: ObjectIdentifier(CompletionSteps.self))
        guard !indexes.isEmpty else { return table.parent != nil }
        return indexes.contains { index in
            let entry = table.entries[Int(index)]
            // The list is a plain scoped service (see `ContainerBuilder+Completion.swift`): it
            // exists once made, or is being made, in this scope's slot.
            return entry.lifetime.store != .scopeSlot
                || withState { $0.scoped[entry.slot] != nil || $0.claims[entry.slot] != nil }
        }
    }
}
