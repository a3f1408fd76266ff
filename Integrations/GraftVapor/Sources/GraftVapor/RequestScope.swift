public import Graft
import Logging

/// The Graft scope of one request, closed once nothing can use it any more.
///
/// ``GraftScopeMiddleware`` makes one per request and keeps it in the request's storage. The
/// middleware closes it as soon as the response is ready when the body is already in memory, or
/// when the handler throws. A streaming body runs after the handler returns, so for it the scope
/// stays open while anything still holds the request or this object, and closes when the last
/// holder lets go: a stream that captures `req` (or `req.graftScope`) sees its scope alive until
/// it finishes, however it ends (written, failed, or cut off by the client).
///
/// ```swift
/// app.get("report") { req async throws -> Response in
///     Response(body: .init(asyncStream: { writer in
///         let report = try await req.resolve(ReportWriter.self)   // still open here
///         try await report.write(to: writer)
///     }))
/// }
/// ```
///
/// Capture `req` (or this object) rather than a service resolved earlier: holding a service does
/// not hold its scope. It is a `Resolver` itself, so it can be handed to code that resolves.
public final class RequestScope: Resolver {
    /// The scope the request's services are resolved from.
    ///
    /// Use it for what a `Resolver` does not offer, such as a child scope for work inside the
    /// request. Holding it does not keep the scope open: hold the ``RequestScope`` instead.
    public let scope: Scope
    private let logger: Logger

    init(scope: Scope, logger: Logger) {
        self.scope = scope
        self.logger = logger
    }

    /// Resolves a service from the request's scope.
    ///
    /// The synchronous form, for code that is not `async`; it throws when making the service
    /// needs an `async` factory. In an `async` function, the compiler picks the `async` form.
    ///
    /// - Parameters:
    ///   - type: The registered service type.
    ///   - name: The registration's name, or `nil` for the unnamed one.
    /// - Returns: The instance its lifetime gives: one per request for `.scoped` services.
    /// - Throws: `GraftError` when the service cannot be resolved synchronously.
    public func resolve<Service: Sendable>(_ type: Service.Type, name: String?) throws(GraftError) -> Service {
        try scope.resolve(type, name: name)
    }

    /// Resolves a service from the request's scope, awaiting async factories.
    ///
    /// ```swift
    /// let scope = try req.graftScope
    /// let transaction = try await scope.resolve(Transaction.self, name: nil)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The registered service type.
    ///   - name: The registration's name, or `nil` for the unnamed one.
    /// - Returns: The instance its lifetime gives: one per request for `.scoped` services.
    /// - Throws: `GraftError` when the service cannot be resolved.
    public func resolve<Service: Sendable>(_ type: Service.Type, name: String?) async throws(GraftError) -> Service {
        try await scope.resolve(type, name: name)
    }

    /// Resolves every registration of `type` from the request's scope, in registration order.
    ///
    /// The synchronous form, for code that is not `async`.
    ///
    /// - Parameter type: The registered service type.
    /// - Returns: One instance per registration; an empty array when there is none.
    /// - Throws: `GraftError` when one of them cannot be resolved synchronously.
    public func resolveAll<Service: Sendable>(_ type: Service.Type) throws(GraftError) -> [Service] {
        try scope.resolveAll(type)
    }

    /// Resolves every registration of `type` from the request's scope, awaiting async factories.
    ///
    /// ```swift
    /// let sources = try await req.graftScope.resolveAll(OrderSource.self)
    /// ```
    ///
    /// - Parameter type: The registered service type.
    /// - Returns: One instance per registration; an empty array when there is none.
    /// - Throws: `GraftError` when one of them cannot be resolved.
    public func resolveAll<Service: Sendable>(_ type: Service.Type) async throws(GraftError) -> [Service] {
        try await scope.resolveAll(type)
    }

    /// Closes the scope now, awaiting async disposals; later calls (and the last release) do nothing.
    func close() async {
        do {
            try await scope.close()
        } catch {
            logger.error("\(error)")
        }
    }

    deinit {
        // A scope already closed by the middleware closes again as a no-op (Graft runs each
        // disposal exactly once), so this only does work for streaming bodies.
        guard !scope.isClosed else { return }
        let scope = self.scope
        let logger = self.logger
        Task {
            do {
                try await scope.close()
            } catch {
                logger.error("\(error)")
            }
        }
    }
}
