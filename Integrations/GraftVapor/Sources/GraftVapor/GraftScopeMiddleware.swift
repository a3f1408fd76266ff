public import Graft
public import Vapor

/// Gives every request its own Graft ``Scope``, closed exactly once after the response.
///
/// ``Application/Graft/install(_:)`` adds it for you; add it by hand only to scope part of the
/// routes (a route group's `grouped(_:)`).
///
/// The scope closes when the handler throws, as soon as the response is ready when its body is
/// already in memory, and for a streaming body when the stream lets go of the request (see
/// ``RequestScope``).
public struct GraftScopeMiddleware: AsyncMiddleware {
    /// The container each request's scope is made from.
    public let container: Container

    /// Creates the middleware.
    ///
    /// - Parameter container: The container each request's scope is made from.
    public init(container: Container) {
        self.container = container
    }

    /// Opens the request's scope, runs the rest of the chain and closes the scope when it is done.
    ///
    /// - Parameters:
    ///   - request: The incoming request; its scope is reachable as `request.graftScope`.
    ///   - next: The rest of the middleware chain and the route handler.
    /// - Returns: The response of `next`.
    /// - Throws: Whatever `next` throws, after the scope was closed.
    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let requestScope = RequestScope(scope: container.makeScope(), logger: request.logger)
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
