public import Graft
public import Hummingbird

/// A request context that carries the request's Graft `Scope`, so handlers resolve from it.
///
/// ``RequestScopeMiddleware`` opens the scope and stores it here; a handler resolves its
/// scoped services in one line, with ``resolve(_:name:)``:
///
/// ```swift
/// router.get("todos") { request, context in
///     try await context.resolve(TodoRepository.self).all()
/// }
/// ```
///
/// Use ``BasicGraftRequestContext``, or add the one stored property to your own context:
///
/// ```swift
/// struct AppRequestContext: GraftRequestContext {
///     var coreContext: CoreRequestContextStorage
///     var scope: Scope?
///     init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
/// }
/// ```
public protocol GraftRequestContext: RequestContext {
    /// The request's scope; `nil` until ``RequestScopeMiddleware`` has run.
    ///
    /// The middleware closes it once the response has been written, so code that keeps it
    /// (a streaming response body, say) can resolve from it until then.
    var scope: Scope? { get set }
}

extension GraftRequestContext {
    /// Resolves a service from the request's scope.
    ///
    /// Scoped services are made once per request: every call in the same request gets the
    /// same instance, which is disposed when the request's scope closes.
    ///
    /// ```swift
    /// let unitOfWork = try await context.resolve(UnitOfWork.self)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The registered service type.
    ///   - name: The registration's name, or `nil` for the unnamed one.
    /// - Returns: The instance the scope gives, following the service's lifetime.
    /// - Throws: A `GraftError`: what the scope throws, or one with code `closed` and a hint to
    ///   add the middleware when no ``RequestScopeMiddleware`` opened a scope for this request.
    public func resolve<Service: Sendable>(
        _ type: Service.Type = Service.self,
        name: String? = nil
    ) async throws(GraftError) -> Service {
        guard let scope else { throw Self.noScopeError(Service.self) }
        return try await scope.resolve(type, name: name)
    }

    /// Resolves a service that takes runtime arguments from the request's scope.
    ///
    /// ```swift
    /// builder.register(Receipt.self, arguments: OrderID.self, using: Receipt.init(order:mailer:))
    /// let receipt = try await context.resolve(Receipt.self, arguments: OrderID(7))
    /// ```
    ///
    /// The request's scope is a Graft `Scope`, so runtime arguments also work through
    /// `context.scope` handed to code that only knows it as `any Resolver`.
    ///
    /// - Parameters:
    ///   - type: The registered service type.
    ///   - name: The registration's name, or `nil` for the unnamed one.
    ///   - first: The first runtime argument.
    ///   - more: The other runtime arguments, in the order the registration declares them.
    /// - Returns: A new instance made with the arguments.
    /// - Throws: A `GraftError`: what the scope throws, or one with code `closed` when no
    ///   ``RequestScopeMiddleware`` opened a scope for this request.
    public func resolve<Service: Sendable, First: Sendable, each More: Sendable>(
        _ type: Service.Type = Service.self,
        name: String? = nil,
        arguments first: First,
        _ more: repeat each More
    ) async throws(GraftError) -> Service {
        guard let scope else { throw Self.noScopeError(Service.self) }
        return try await scope.resolve(type, name: name, arguments: first, repeat each more)
    }

    static func noScopeError<Service>(_ type: Service.Type) -> GraftError {
        GraftError(
            .closed,
            "cannot resolve \(Service.self): this request has no scope",
            service: "\(Service.self)",
            hints: ["add RequestScopeMiddleware(container) to the router (or group) in front of this route"]
        )
    }
}

/// The basic Hummingbird request context, with the request's Graft `Scope`.
///
/// Give it to the router when your app needs nothing more in its context:
///
/// ```swift
/// let router = Router(context: BasicGraftRequestContext.self)
/// router.add(middleware: RequestScopeMiddleware(container))
/// ```
public struct BasicGraftRequestContext: GraftRequestContext {
    /// Hummingbird's own per-request storage: the request's id, its logger and the like.
    public var coreContext: CoreRequestContextStorage

    /// The request's scope; set by ``RequestScopeMiddleware``, `nil` before it has run.
    public var scope: Scope?

    /// A context for a new request, with no scope yet.
    ///
    /// Hummingbird calls it for each request; the middleware then adds the scope.
    ///
    /// - Parameter source: What Hummingbird gives a new request's context.
    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.scope = nil
    }
}
