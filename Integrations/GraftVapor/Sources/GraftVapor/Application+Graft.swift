public import Graft
public import Vapor

extension Application {
    /// Graft's place in the application: its container, and the one call that installs it.
    ///
    /// ```swift
    /// try app.graft.install(builder.build())
    /// ```
    public var graft: Graft { Graft(application: self) }

    /// Installs a Graft ``Container`` into an ``Application``.
    public struct Graft: Sendable {
        let application: Application

        /// The installed container, or `nil` before ``install(_:)``.
        public var container: Container? {
            application.storage[ContainerKey.self]
        }

        /// Gives every request its own scope and shuts the container down with the application.
        ///
        /// Adds ``GraftScopeMiddleware`` at the end of the global middleware (so requests see
        /// the scope in their handlers and in route middleware) and a lifecycle handler that
        /// shuts the container down, awaiting async disposals, when the application shuts down.
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
