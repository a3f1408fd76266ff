/// A service that releases resources when the scope or container that created it ends.
///
/// Graft calls ``dispose()`` once, newest instance first, when the owning ``Scope`` closes or
/// the ``Container`` shuts down. It never disposes an object it did not create (an `instance:`
/// registration), nor a `.weak` instance. An error from one `dispose()` does not stop the others;
/// `close()` and `shutdown()` throw one ``GraftError`` listing every failure afterwards.
///
/// ```swift
/// final class Radio: Disposable {
///     func dispose() throws { try channel.close() }
/// }
/// ```
///
/// What is disposed is what the instance is. For a concrete registered type that is decided
/// while registering: `register(Radio.self, ...)` picks the overload for disposable services,
/// so Graft never asks at run time what its instances conform to (on Linux that question
/// scans every conformance in the program, once per type). A protocol or other existential
/// type cannot tell, so a registration made for one asks each new instance, and disposes it
/// when it is `Disposable` (or ``AsyncDisposable``):
///
/// ```swift
/// builder.register((any PitRadio).self, lifetime: .singleton) { _ in Radio() }  // disposed
/// ```
public protocol Disposable: Sendable {
    /// Releases the instance's resources.
    ///
    /// - Throws: Any error; Graft collects it into the ``GraftError`` that `close()` throws.
    func dispose() throws
}

/// A service whose release needs `await`: a connection pool that drains, a client that says goodbye.
///
/// Disposed by `try await scope.close()` and `try await container.shutdown()`, in the same
/// newest-first order as ``Disposable`` instances.
///
/// ```swift
/// actor ConnectionPool: AsyncDisposable {
///     func dispose() async throws { await drain() }
/// }
/// ```
public protocol AsyncDisposable: Sendable {
    /// Releases the instance's resources.
    ///
    /// - Throws: Any error; Graft collects it into the ``GraftError`` that `close()` throws.
    func dispose() async throws
}

/// How an instance a recipe delivered must be disposed, known from its registered type.
@usableFromInline
enum Disposal: Sendable {
    case sync(any Disposable)
    case async(any AsyncDisposable)
}
