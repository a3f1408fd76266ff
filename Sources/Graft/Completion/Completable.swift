/// A service that finishes its work in its scope's completion step: it commits or flushes there,
/// before the request's response is sent, and releases its resources later, in `dispose()`.
///
/// Disposal runs when a scope closes, which for a web request is after the response has been
/// written: too late to tell the client that the work failed. The completion step runs earlier,
/// when the scope's owner asks for it with ``Scope/complete()`` (GraftHummingbird and GraftVapor
/// ask after the handler returns and before the response is sent), so a `COMMIT` that fails turns
/// the response into an error instead of a success for work that never happened.
///
/// Adopt it, and tell the builder which registration completes with
/// ``ContainerBuilder/onComplete(_:name:fileID:line:)``:
///
/// ```swift
/// final class UnitOfWork: Completable, AsyncDisposable {
///     func complete() async throws { try await connection.query("COMMIT") }
///     func dispose() async throws {
///         if !committed { try await connection.query("ROLLBACK") }
///         await pool.release(connection)
///     }
/// }
///
/// builder.register(UnitOfWork.self, lifetime: .scoped, using: UnitOfWork.init(pool:))
/// builder.onComplete(UnitOfWork.self)
/// ```
///
/// The step runs each instance's `complete()` newest first, at most once, and stops at the first
/// that throws: the ones after it are not completed (their `dispose()` still runs when the scope
/// closes, where they roll back). A scope that closes without its completion step having run
/// completes nothing.
public protocol Completable: Sendable {
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
