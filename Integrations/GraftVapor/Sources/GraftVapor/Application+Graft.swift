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
    /// Reach it through ``Vapor/Application/graft``; call ``install(_:requestDeadline:)`` once, before the
    /// routes, and read the container back with ``container``.
    public struct Graft: Sendable {
        let application: Application

        /// The installed container, or `nil` before ``install(_:requestDeadline:)``.
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

        /// Gives every request its own scope, bounded by a deadline, and shuts the container down
        /// with the application.
        ///
        /// Adds ``GraftScopeMiddleware`` at the end of the global middleware (so requests see the
        /// scope in their handlers and in route middleware), a middleware just inside Vapor's
        /// `ErrorMiddleware` that logs a `GraftError` thrown outside any request's scope at `error`
        /// level with its hints (and answers `500` without it), and a lifecycle handler for the
        /// application's shutdown.
        ///
        /// At shutdown, open WebSocket sessions (see
        /// ``Vapor/RoutesBuilder/webSocket(_:session:maxFrameSize:onOpen:onText:onBinary:)``) are
        /// sent a close frame, `1001 going away`, and the HTTP server is stopped, so requests still
        /// in flight finish with their scopes open. The container is shut down last, awaiting
        /// async disposals, after every lifecycle handler, those registered before `install`
        /// included. A container that fails to shut down cleanly is logged with the application's
        /// logger.
        ///
        /// ```swift
        /// var builder = ContainerBuilder()
        /// builder.register(Transaction.self, lifetime: .scoped, using: Transaction.init)
        /// app.graft.install(try await builder.build())
        /// ```
        ///
        /// - Parameters:
        ///   - container: The built container; the application owns it from now on.
        ///   - requestDeadline: How long a request's handler and completion step may take before
        ///     the request is cancelled, its scope failed and closed, and the client answered
        ///     `503 Service Unavailable`; `nil` for no deadline. See
        ///     ``GraftScopeMiddleware/defaultDeadline``.
        public func install(
            _ container: Container,
            requestDeadline: Duration? = GraftScopeMiddleware.defaultDeadline
        ) {
            let sessions = WebSocketSessions()
            application.storage[ContainerKey.self] = container
            application.storage[WebSocketSessionsKey.self] = sessions
            var middleware = Middlewares()
            var errorLoggingPlaced = false
            for existing in application.middleware.resolve() {
                middleware.use(existing)
                if !errorLoggingPlaced, existing is ErrorMiddleware {
                    middleware.use(GraftErrorLogging())
                    errorLoggingPlaced = true
                }
            }
            if !errorLoggingPlaced {
                middleware.use(GraftErrorLogging(), at: .beginning)
            }
            middleware.use(GraftScopeMiddleware(container: container, deadline: requestDeadline))
            application.middleware = middleware
            application.lifecycle.use(ContainerShutdown(container: container, sessions: sessions))
        }
    }

    enum ContainerKey: StorageKey {
        typealias Value = Container
    }
}
