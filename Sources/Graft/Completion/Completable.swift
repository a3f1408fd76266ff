/// A service that finishes its work in its scope's completion step: it commits or flushes there,
/// before the request's response is sent, and releases its resources later, in `dispose()`.
///
/// Disposal runs when a scope closes, which for a web request is after the response has been
/// written: too late to tell the client that the work failed. The completion step runs earlier,
/// when the scope's owner asks for it with ``Scope/complete()`` (GraftHummingbird and GraftVapor
/// ask after the handler returns and before the response is sent), so a `COMMIT` that fails turns
/// the response into an error instead of a success for work that never happened.
///
/// Adopt it and register the type as any other: its registration completes each instance made in
/// a scope, with no second line. A `Completable` is ``AsyncDisposable``: its `dispose()` (by
/// default doing nothing) runs when the scope closes, where it rolls back what was not completed.
///
/// ```swift
/// final class UnitOfWork: Completable {
///     func complete() async throws { try await connection.query("COMMIT") }
///     func dispose() async throws {
///         if !committed { try await connection.query("ROLLBACK") }
///         await pool.release(connection)
///     }
/// }
///
/// builder.register(UnitOfWork.self, lifetime: .scoped, using: UnitOfWork.init(pool:))
/// ```
///
/// The step is chosen from the registered type, when registering, at no cost at run time: a
/// service registered as a protocol that does not refine `Completable` (`any Repository`) is not
/// completed unless ``ContainerBuilder/onComplete(_:name:fileID:line:)`` says so. A `Completable`
/// made outside any scope (a singleton) is not completed.
///
/// The step runs each instance's `complete()` newest first, at most once, and stops at the first
/// that throws: the ones after it are not completed (their `dispose()` still runs when the scope
/// closes, where they roll back). A scope that closes without its completion step having run
/// completes nothing.
public protocol Completable: AsyncDisposable {
    /// Finishes the work this instance did in its scope: commits a transaction, flushes a buffer.
    ///
    /// It runs before the scope's response is sent, so an error thrown here reaches the client
    /// (as a `500` in GraftHummingbird and GraftVapor) and the log, as a ``GraftError`` with code
    /// ``GraftError/Code/completionFailed`` that names the service.
    ///
    /// ```swift
    /// func complete() async throws { try await connection.query("COMMIT") }
    /// ```
    ///
    /// - Throws: Whatever stops the work from being finished.
    func complete() async throws
}

extension Completable {
    /// Does nothing: a `Completable` with nothing to roll back or release needs no `dispose()`.
    public func dispose() async throws {}
}
