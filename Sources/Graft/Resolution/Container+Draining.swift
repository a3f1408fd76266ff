/// Graceful shutdown: stop making scopes, let the open ones finish, then dispose.
extension Container {
    /// Drains the container, then shuts it down: the graceful shutdown of a server.
    ///
    /// From the moment this is called, the container makes no new scope: ``makeScope()`` returns
    /// a closed scope, which resolves nothing but errors. Scopes that are already open keep
    /// working, so requests in flight finish with their scoped services intact. When the last of
    /// them has closed (and its disposals are done), or when `gracePeriod` ends, whichever comes
    /// first, the container closes whatever scopes are still open (children first) and disposes
    /// what it created, newest first, awaiting async disposals. Cancelling the calling task ends
    /// the grace period at once. A call after the container has shut down does nothing.
    ///
    /// ```swift
    /// // on SIGTERM: requests in flight keep their unit of work until they answer
    /// try await container.shutdown(gracePeriod: .seconds(10))
    /// ```
    ///
    /// - Parameter gracePeriod: How long open scopes may go on before they are closed for them.
    /// - Throws: ``GraftError`` with code ``GraftError/Code/disposalFailed`` listing every
    ///   `dispose()` that threw, after all of them ran.
    public func shutdown(gracePeriod: Duration) async throws(GraftError) {
        let (drained, signal) = AsyncStream<Never>.makeStream()
        core.root.drain { signal.finish() }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                // Ends when the last open scope has closed, or when the group cancels it.
                for await _ in drained {}
            }
            group.addTask {
                try? await Task.sleep(for: gracePeriod)
            }
            await group.next()
            group.cancelAll()
        }
        try await shutdown()
    }

    /// Whether a shutdown has begun: the container is draining its open scopes or has shut down.
    ///
    /// A server checks it to answer "unavailable" instead of starting work that needs a scope.
    public var isShuttingDown: Bool {
        core.root.isClosed || core.root.isDraining
    }
}
