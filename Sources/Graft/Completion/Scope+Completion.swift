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
        // `resolveAll` answers an empty array, and throws nothing, when no registration has a
        // completion step: the common case costs no error.
        for steps in try await resolveAll(CompletionSteps.self) {
            try await steps.run()
        }
    }
}
