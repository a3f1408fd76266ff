public import Graft
import Synchronization
public import Vapor

/// Gives every request its own Graft `Scope`, closed exactly once after the response.
///
/// ``Vapor/Application/Graft/install(_:)`` adds it for you; add it by hand only to scope part
/// of the routes (a route group's `grouped(_:)`). Added by hand, it does not shut the container
/// down: call the container's `shutdown()` yourself when the application stops.
///
/// ```swift
/// let api = app.grouped(GraftScopeMiddleware(container: container))
/// api.get("orders") { req async throws -> String in
///     let transaction = try await req.resolve(Transaction.self)
///     return "\(transaction.requestID)"
/// }
/// ```
///
/// The scope closes when the handler throws, as soon as the response is ready when its body is
/// already in memory, and for a streaming body when the stream lets go of the request (see
/// ``RequestScope``).
public struct GraftScopeMiddleware: AsyncMiddleware {
    /// The container each request's scope is made from.
    ///
    /// When the builder called
    /// ``Graft/ContainerBuilder/registerRequestValues(fileID:line:)``, each scope is given the
    /// request's ``RequestID`` and `Logger`.
    public let container: Container
    private let values = RequestValuesDeclared()

    /// Creates the middleware.
    ///
    /// - Parameter container: The container each request's scope is made from.
    public init(container: Container) {
        self.container = container
    }

    /// Opens the request's scope, runs the rest of the chain and closes the scope when it is done.
    ///
    /// Vapor calls this; you do not. The scope closes before the response is returned when its
    /// body is in memory, before the error is rethrown when `next` throws, and when the
    /// ``RequestScope`` is released for a streaming body.
    ///
    /// - Parameters:
    ///   - request: The incoming request; its scope is reachable as `request.graftScope`.
    ///   - next: The rest of the middleware chain and the route handler.
    /// - Returns: The response of `next`.
    /// - Throws: Whatever `next` throws, after the scope was closed.
    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let requestScope = RequestScope(scope: try makeScope(for: request), logger: request.logger)
        request.storage[RequestScopeKey.self] = requestScope
        let response: Response
        do {
            response = try await next.respond(to: request)
        } catch {
            await requestScope.close()
            throw error
        }
        if !response.body.isStreaming {
            await requestScope.close()
        }
        return response
    }

    /// A scope given the request's values when the container declares them
    /// (``Graft/ContainerBuilder/registerRequestValues(fileID:line:)``), a plain one otherwise.
    ///
    /// A container that does not declare them has no service that needs them (`build()` would
    /// have reported it), so a plain scope loses nothing; the first request finds out which
    /// kind of container it is, and the others remember.
    private func makeScope(for request: Request) throws(GraftError) -> Scope {
        guard values.areDeclared.load(ordering: .relaxed) else { return container.makeScope() }
        do {
            return try container.makeScope(providing: RequestID(request.id), request.logger)
        } catch  where error.code == .notRegistered {
            values.areDeclared.store(false, ordering: .relaxed)
            return container.makeScope()
        }
    }
}

/// Whether the container declares the request's values; assumed until a scope says otherwise.
private final class RequestValuesDeclared: Sendable {
    let areDeclared = Atomic(true)
}

enum RequestScopeKey: StorageKey {
    typealias Value = RequestScope
}

extension Response.Body {
    /// Whether the body is written by a stream callback after the handler returned.
    ///
    /// Vapor keeps a body's kind internal. A streaming body is the only kind that has no bytes in
    /// memory (`buffer` is `nil`) and is not the empty body, whose description is `<no body>`;
    /// a string body reading `<no body>` has bytes, so it is not mistaken for the empty one.
    var isStreaming: Bool {
        buffer == nil && description != Response.Body.empty.description
    }
}
