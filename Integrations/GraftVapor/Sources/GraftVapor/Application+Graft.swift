public import Graft
public import Vapor

extension Application {
    /// Graft's place in the application: its container, and the one call that installs it.
    ///
    /// Each access makes a small view onto the application's storage, so it costs nothing to
    /// keep and holds no state of its own.
    ///
    /// ```swift
    /// app.graft.install(try await builder.build())
    /// ```
    public var graft: Graft { Graft(application: self) }

    /// Installs a Graft `Container` into an `Application`.
    ///
    /// Reach it through ``Vapor/Application/graft``; call ``install(_:)`` once, before the
    /// routes, and read the container back with ``container``.
    public struct Graft: Sendable {
        let application: Application

        /// The installed container, or `nil` before ``install(_:)``.
        ///
        /// Code that runs outside a request, such as a command or a scheduled job, resolves
        /// singletons from it:
        ///
        /// ```swift
        /// let pool = try await app.graft.container?.resolve(ConnectionPool.self)
        /// ```
        public var container: Container? {
            application.storage[ContainerKey.self]
        }

        /// Gives every request its own scope and shuts the container down with the application.
        ///
        /// Adds ``GraftScopeMiddleware`` at the end of the global middleware (so requests see
        /// the scope in their handlers and in route middleware) and a lifecycle handler that
        /// shuts the container down, awaiting async disposals, when the application shuts down.
        ///
        /// The lifecycle handler stops the HTTP server before it shuts the container down, so
        /// requests still in flight finish with their scopes open. A container that fails to
        /// shut down cleanly is logged with the application's logger.
        ///
        /// ```swift
        /// var builder = ContainerBuilder()
        /// builder.register(Transaction.self, lifetime: .scoped, using: Transaction.init)
        /// app.graft.install(try await builder.build())
        /// ```
        ///
        /// - Parameter container: The built container; the application owns it from now on.
        public func install(_ container: Container) {
            application.storage[ContainerKey.self] = container
            application.middleware.use(GraftScopeMiddleware(container: container))
            application.lifecycle.use(ContainerShutdown(container: container))
        }
    }

    enum ContainerKey: StorageKey {
        typealias Value = Container
    }
}
