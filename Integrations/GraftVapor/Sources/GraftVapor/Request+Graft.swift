public import Graft
public import Vapor

extension Request {
    /// The Graft scope of this request, made by ``GraftScopeMiddleware``.
    ///
    /// ```swift
    /// let scope = try req.graftScope          // a Resolver; keeps the scope open while held
    /// let orders = try await scope.resolveAll(OrderSource.self)
    /// ```
    ///
    /// - Throws: ``GraftError`` when the request did not pass through ``GraftScopeMiddleware``.
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
    /// - Throws: ``GraftError`` when the service cannot be resolved, or when the request has no
    ///   scope (see ``graftScope``).
    public func resolve<Service: Sendable>(
        _ type: Service.Type = Service.self,
        name: String? = nil
    ) async throws(GraftError) -> Service {
        try await graftScope.resolve(type, name: name)
    }
}
