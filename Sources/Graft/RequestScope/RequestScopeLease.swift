import Synchronization

/// One request's hold on its scope: the completion step once the handler has returned, and the
/// scope's closing, exactly once, from whichever path gets there first.
///
/// ``RequestScopes/open(providing:_:reporter:)`` makes one per request. Both web framework
/// integrations drive it the same way:
///
/// - the handler returned: ``complete()`` before the response is sent (for a streamed body,
///   before its end); when it throws, the response becomes a `500`;
/// - the handler threw, or completing or writing the response failed: ``fail()``, which fails the
///   scope (its ``RequestOutcome`` reads failed) and closes it;
/// - the response was written: ``close()``.
///
/// When nobody closes it (a response dropped without being written), the lease closes the scope
/// when it is released. Disposal failures, which happen after the response was sent, go to the
/// reporter the lease was opened with.
///
/// ```swift
/// let lease = try scopes.open(providing: requestID) { logger.error("\($0)") }
/// do {
///     let response = try await handler(lease.scope)
///     try await lease.complete()
///     await lease.close()
///     return response
/// } catch {
///     await lease.fail()
///     throw error
/// }
/// ```
public final class RequestScopeLease: Sendable {
    /// The request's scope; handlers resolve from it.
    public let scope: Scope
    private let reporter: @Sendable (GraftError) -> Void
    private let closed = Atomic(false)

    init(_ scope: Scope, reporter: @escaping @Sendable (GraftError) -> Void) {
        self.scope = scope
        self.reporter = reporter
    }

    /// Runs the scope's completion step (see ``Scope/complete()``): each ``Completable`` instance
    /// the request made commits or flushes, newest first.
    ///
    /// - Throws: ``GraftError`` with code ``GraftError/Code/completionFailed``, naming the service
    ///   whose step threw. Answer `500` and call ``fail()``.
    public func complete() async throws(GraftError) {
        try await scope.complete()
    }

    /// Ends a failed request: fails the scope (its ``RequestOutcome`` reads failed), then closes it.
    ///
    /// Does nothing once the scope was closed.
    public func fail() async {
        scope.markFailed()
        await close()
    }

    /// Closes the scope, awaiting async disposals; only the first call (of this and ``fail()``)
    /// does anything.
    ///
    /// A disposal that fails is told to the reporter: the response is already on its way.
    public func close() async {
        guard closed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        await Self.close(scope, reporter)
    }

    private static func close(_ scope: Scope, _ reporter: @escaping @Sendable (GraftError) -> Void) async {
        do {
            try await scope.close()
        } catch {
            reporter(error)
        }
    }

    deinit {
        guard !closed.load(ordering: .acquiring) else { return }
        // Nobody wrote the response, so nothing awaits this close; the scope still ends.
        let (scope, reporter) = (scope, reporter)
        Task { await Self.close(scope, reporter) }
    }
}
