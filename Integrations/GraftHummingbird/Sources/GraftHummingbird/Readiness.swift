public import Hummingbird
import Synchronization

/// Whether the server is ready to serve: not until the container has started.
///
/// A server opens its port before its container has started (a database is still being reached,
/// a schema made), and a load balancer or an orchestrator must not send it requests until then.
/// Mark it ready in the last start hook, and serve it with
/// ``Hummingbird/RouterMethods/readiness(_:_:)``, which answers `503 Service Unavailable` until
/// then:
///
/// ```swift
/// let readiness = Readiness()
/// builder.onStart(Schema.self) { schema in
///     try await schema.create()
///     readiness.markReady()
/// }
/// // …
/// router.readiness("health", readiness)
/// ```
///
/// With a start timeout (`ContainerService(container, startTimeout: .seconds(15))`), a start
/// that never ends (the database unreachable) fails the service group instead of leaving a server
/// that answers nothing but `503`.
public final class Readiness: Sendable {
    private let ready = Atomic(false)

    /// A readiness that is not ready yet.
    public init() {}

    /// Whether ``markReady()`` was called.
    public var isReady: Bool { ready.load(ordering: .acquiring) }

    /// Marks the server ready; call it once the container has started.
    public func markReady() { ready.store(true, ordering: .releasing) }
}

extension RouterMethods {
    /// Adds a `GET` route that answers `200 ok` once `readiness` is ready, and
    /// `503 Service Unavailable` with the message "The server is starting." before.
    ///
    /// ```swift
    /// router.readiness("health", readiness)
    /// ```
    ///
    /// - Parameters:
    ///   - path: The route's path.
    ///   - readiness: What tells whether the container has started.
    /// - Returns: The router, for chaining.
    @discardableResult
    public func readiness(_ path: RouterPath = "health", _ readiness: Readiness) -> Self {
        get(path) { _, _ -> String in
            guard readiness.isReady else { throw HTTPError(.serviceUnavailable, message: "The server is starting.") }
            return "ok"
        }
    }
}
