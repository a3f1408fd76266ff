public import Graft
public import Vapor

extension Request {
    /// The Graft scope of this request, made by ``GraftScopeMiddleware``.
    ///
    /// Most handlers call ``resolve(_:name:)`` instead. Take the scope itself to hand it to
    /// code that expects a `Resolver`, or to keep it open in a streaming body.
    ///
    /// ```swift
    /// let scope = try req.graftScope          // a Resolver; keeps the scope open while held
    /// let orders = try await scope.resolveAll(OrderSource.self)
    /// ```
    ///
    /// - Throws: `GraftError` (code `closed`) when the request did not pass through
    ///   ``GraftScopeMiddleware``; its hints say how to install it.
    public var graftScope: RequestScope {
        get throws(GraftError) {
            guard let requestScope = storage[RequestScopeKey.self] else {
                throw GraftError(
                    .closed,
                    "this request has no Graft scope",
                    hints: [
                        "install Graft before the routes: app.graft.install(container)",
                        "or add GraftScopeMiddleware(container: container) to this route's group",
                    ]
                )
            }
            return requestScope
        }
    }

    /// Resolves a service from this request's scope, awaiting async factories.
    ///
    /// A `.scoped` service is made once per request: every call in one request returns the
    /// same instance, and it is disposed when the request's scope closes. Singletons come from
    /// the container as usual.
    ///
    /// ```swift
    /// app.post("orders") { req async throws -> HTTPStatus in
    ///     let unitOfWork = try await req.resolve(UnitOfWork.self)
    ///     try await unitOfWork.save(req.content.decode(Order.self))
    ///     return .created
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The registered service type.
    ///   - name: The registration's name, or `nil` for the unnamed one.
    /// - Returns: The instance its lifetime gives: one per request for `.scoped` services.
    /// - Throws: `GraftError` when the service cannot be resolved, or when the request has no
    ///   scope (see ``graftScope``).
    public func resolve<Service: Sendable>(
        _ type: Service.Type = Service.self,
        name: String? = nil
    ) async throws(GraftError) -> Service {
        try await graftScope.resolve(type, name: name)
    }
}
