/// Graceful shutdown: stop making scopes, let the open ones finish, then dispose.
extension Container {
    /// Drains the container, then shuts it down: the graceful shutdown of a server.
    ///
    /// From the moment `drainingAfter` returns (at once by default), the container makes no new
    /// scope: ``makeScope()`` returns a closed scope, which resolves nothing but errors. Scopes
    /// that are already open keep working, so requests in flight finish with their scoped
    /// services intact. When the last of them has closed (and its disposals are done), or when
    /// `gracePeriod` ends, whichever comes first, the container closes whatever scopes are still
    /// open (children first) and disposes what it created, newest first, awaiting async
    /// disposals. Cancelling the calling task ends the grace period at once. A call after the
    /// container has shut down does nothing.
    ///
    /// ```swift
    /// // on SIGTERM: requests in flight keep their unit of work until they answer
    /// try await container.shutdown(gracePeriod: .seconds(10))
    /// ```
    ///
    /// A grace period that ends with scopes still open is a failure, not a normal end: the work
    /// in them was cut off. The shutdown still runs to its end, then throws
    /// ``GraftError/Code/gracePeriodRanOut`` naming those scopes, so that a server exits with a
    /// status that tells its supervisor requests did not finish.
    ///
    /// - Parameters:
    ///   - gracePeriod: How long, from the call, open scopes may go on before they are closed for
    ///     them.
    ///   - drainingAfter: What must happen before the container stops making scopes, such as
    ///     the server no longer accepting requests; the grace period runs meanwhile. It is
    ///     cancelled when the grace period ends first.
    /// - Throws: ``GraftError`` with code ``GraftError/Code/gracePeriodRanOut`` naming the scopes
    ///   the grace period's end closed, or ``GraftError/Code/disposalFailed`` listing every
    ///   `dispose()` that threw, after all of them ran.
    public func shutdown(
        gracePeriod: Duration,
        drainingAfter: @escaping @Sendable () async -> Void = {}
    ) async throws(GraftError) {
        let cutOff = await drain(for: gracePeriod, after: drainingAfter)
        try await shutdown()
        if !cutOff.isEmpty { throw Self.gracePeriodRanOut(gracePeriod, closing: cutOff) }
    }

    /// Whether a shutdown has begun: the container is draining its open scopes or has shut down.
    ///
    /// A server checks it to answer "unavailable" instead of starting work that needs a scope.
    public var isShuttingDown: Bool {
        core.root.isClosed || core.root.isDraining
    }

    /// Drains from when `beginning` returns until the last open scope has closed or
    /// `gracePeriod` has passed; returns the scopes still open when it passed.
    ///
    /// Only the grace period's task names what is open, and it does so before anything is closed
    /// for it: whether scopes were cut off is then decided by which task ends first, not by how
    /// fast the work in them fails once it is.
    private func drain(
        for gracePeriod: Duration,
        after beginning: @escaping @Sendable () async -> Void
    ) async -> [String] {
        await withTaskGroup(of: [String].self) { group in
            group.addTask {
                await beginning()
                let (drained, signal) = AsyncStream<Never>.makeStream()
                self.core.root.drain { signal.finish() }
                // Ends when the last open scope has closed, or when the group cancels it.
                for await _ in drained {}
                return []
            }
            group.addTask {
                try? await Task.sleep(for: gracePeriod)
                // Cancelled: the caller asked for everything to close at once; nothing overran.
                return Task.isCancelled ? [] : self.openScopes
            }
            let first = await group.next() ?? []
            group.cancelAll()
            return first
        }
    }

    static func gracePeriodRanOut(_ gracePeriod: Duration, closing open: [String]) -> GraftError {
        let scopes = open.count == 1 ? "1 scope was" : "\(open.count) scopes were"
        return GraftError(
            .gracePeriodRanOut,
            "the shutdown's grace period of \(gracePeriod) ran out and \(scopes) still open; "
                + "they were closed for the work in them: \(open.joined(separator: "; "))",
            hints: [
                "work that outlives the grace period is stuck or too slow: give it a limit of its own "
                    + "(a query or connection timeout), or a longer gracePeriod"
            ]
        )
    }
}
