import Synchronization

/// Whether a request failed: a scoped service reads it while its scope closes, to roll back.
///
/// Register it as a scoped service and depend on it. The web framework integrations
/// (GraftHummingbird, GraftVapor) mark it failed, through ``RequestScopeLease/fail()``, when the
/// handler throws, when the completion step fails, or when the response body cannot be written,
/// before they close the scope; so a service disposed with the scope knows how the request ended.
///
/// ```swift
/// builder.register(RequestOutcome.self, lifetime: .scoped) { _ in RequestOutcome() }
/// builder.register(UnitOfWork.self, lifetime: .scoped, using: UnitOfWork.init(pool:outcome:))
///
/// // in UnitOfWork.dispose():
/// if outcome.failed { try await connection.query("ROLLBACK") }
/// ```
///
/// Commit in the scope's completion step (``Completable``), not in `dispose()`: disposal runs after
/// the response has been sent, too late to tell the client that the commit failed.
public final class RequestOutcome: Sendable {
    private let failure = Atomic(false)

    /// An outcome that has not failed (yet).
    ///
    /// Register it with a scoped lifetime, so each request has its own.
    public init() {}

    /// Whether the handler threw, the completion step failed or the response could not be written.
    ///
    /// Read it in `dispose()`: by then a failed request has set it.
    public var failed: Bool { failure.load(ordering: .acquiring) }

    /// Marks the request failed.
    ///
    /// The integrations call it, and so may a handler that answers with an error status without
    /// throwing:
    ///
    /// ```swift
    /// try await context.resolve(RequestOutcome.self).markFailed()
    /// return .conflict
    /// ```
    public func markFailed() { failure.store(true, ordering: .releasing) }
}
