public import Graft
public import Vapor

extension Request {
    /// The Graft scope of this request, made by ``GraftScopeMiddleware``.
    ///
    /// Most handlers call ``resolve(_:name:)`` instead. Take the scope itself to hand it to
    /// code that expects a `Resolver`: it is the request's own `Scope`, so everything a scope
    /// does works through it, runtime arguments included.
    ///
    /// ```swift
    /// let scope = try req.graftScope
    /// let orders = try await scope.resolveAll(OrderSource.self)
    /// let receipt = try await scope.resolve(Receipt.self, arguments: orderID)
    /// ```
    ///
    /// The scope stays open while the request is held: a streaming body that captures `req`
    /// resolves from it until the stream ends. Holding only the scope does not keep it open.
    ///
    /// - Throws: `GraftError` (code `closed`) when the request did not pass through
    ///   ``GraftScopeMiddleware``; its hints say how to install it. The error is logged at `error`
    ///   level too, with the request's id, method and route.
    public var graftScope: Scope {
        get throws(GraftError) {
            guard let lease = storage[RequestScopeKey.self] else {
                let error = GraftError(
                    .closed,
                    "this request has no Graft scope",
                    hints: [
                        "install Graft before the routes: app.graft.install(container)",
                        "or add GraftScopeMiddleware(container: container) to this route's group",
                    ]
                )
                // A route outside the middleware: nothing of Graft's sees the error after this.
                graftLogger.error("\(error)")
                throw error
            }
            return lease.scope
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

    /// Resolves a service that takes runtime arguments from this request's scope.
    ///
    /// ```swift
    /// builder.register(Receipt.self, arguments: OrderID.self, using: Receipt.init(order:mailer:))
    /// let receipt = try await req.resolve(Receipt.self, arguments: OrderID(7))
    /// ```
    ///
    /// - Parameters:
    ///   - type: The registered service type.
    ///   - name: The registration's name, or `nil` for the unnamed one.
    ///   - first: The first runtime argument.
    ///   - more: The other runtime arguments, in the order the registration declares them.
    /// - Returns: A new instance made with the arguments.
    /// - Throws: `GraftError` when the service cannot be resolved with these arguments, or when
    ///   the request has no scope (see ``graftScope``).
    public func resolve<Service: Sendable, First: Sendable, each More: Sendable>(
        _ type: Service.Type = Service.self,
        name: String? = nil,
        arguments first: First,
        _ more: repeat each More
    ) async throws(GraftError) -> Service {
        try await graftScope.resolve(type, name: name, arguments: first, repeat each more)
    }
}
