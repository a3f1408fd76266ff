import Synchronization

/// Whether the request's handler failed: a scoped service reads it while its scope closes, to
/// commit or roll back.
///
/// Register it as a scoped service and depend on it; ``RequestScopeMiddleware`` marks it
/// failed when the handler throws or the response body cannot be written, before it closes
/// the scope, so a unit of work disposed with the scope knows how the request ended.
///
/// ```swift
/// builder.register(RequestOutcome.self, lifetime: .scoped) { _ in RequestOutcome() }
/// builder.register(UnitOfWork.self, lifetime: .scoped, using: UnitOfWork.init(pool:outcome:))
///
/// // in UnitOfWork.dispose():
/// try await connection.query(outcome.failed ? "ROLLBACK" : "COMMIT")
/// ```
public final class RequestOutcome: Sendable {
    private let failure = Atomic(false)

    /// An outcome that has not failed (yet).
    ///
    /// Register it with a scoped lifetime, so each request has its own.
    public init() {}

    /// Whether the handler threw or the response could not be written.
    ///
    /// Read it in `dispose()`: by then the middleware has set it for a failed request.
    public var failed: Bool { failure.load(ordering: .acquiring) }

    /// Marks the request failed.
    ///
    /// The middleware calls it, and so may a handler that answers with an error status without
    /// throwing:
    ///
    /// ```swift
    /// try await context.resolve(RequestOutcome.self).markFailed()
    /// return .conflict
    /// ```
    public func markFailed() { failure.store(true, ordering: .releasing) }
}
