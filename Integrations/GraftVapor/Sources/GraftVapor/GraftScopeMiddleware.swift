public import Graft
public import Vapor

/// Gives every request its own Graft `Scope`, completes it before the response and closes it
/// exactly once.
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
/// - **Completion.** When the handler returns, the scope's completion step runs (see Graft's
///   `Completable`) before the response is returned: a unit of work commits there, and a failure
///   turns the response into `500 Internal Server Error`. Vapor does not let a middleware see the
///   end of a streamed body, so for one the step runs before the stream starts.
/// - **Errors.** Every error that escapes the request, other than an `AbortError` the handler
///   chose, is logged at `error` level with the request's logger (which carries its
///   `request-id`), with the whole message: a `GraftError`'s path and hints. It reaches the
///   client as an `Abort(.internalServerError)`, which does not show it.
/// - **Closing.** The scope closes when the handler throws, as soon as the response is ready
///   when its body is in memory, and for a streaming body when the stream lets go of the
///   request: a stream that captures `req` sees its scope open until it ends. A registered
///   `RequestOutcome` is marked failed first when the request failed.
/// - **Draining.** While the container shuts down, a request that arrives gets no scope and is
///   answered `503 Service Unavailable`.
///
/// GraftHummingbird's `RequestScopeMiddleware` behaves the same way: both are built on Graft's
/// `RequestScopes`.
public struct GraftScopeMiddleware: AsyncMiddleware {
    /// The container each request's scope is made from.
    ///
    /// When the builder called
    /// ``Graft/ContainerBuilder/registerRequestValues(fileID:line:)``, each scope is given the
    /// request's ``RequestID`` and `Logger`.
    public let container: Container
    private let scopes: RequestScopes

    /// Creates the middleware.
    ///
    /// - Parameter container: The container each request's scope is made from.
    public init(container: Container) {
        self.container = container
        self.scopes = RequestScopes(container, values: RequestID.self)
    }

    /// Opens the request's scope, runs the rest of the chain, completes the scope and closes it
    /// when it is done.
    ///
    /// Vapor calls this; you do not.
    ///
    /// - Parameters:
    ///   - request: The incoming request; its scope is reachable as `request.graftScope`.
    ///   - next: The rest of the middleware chain and the route handler.
    /// - Returns: The response of `next`, once the scope's completion step succeeded.
    /// - Throws: An `AbortError` the handler threw, unchanged; `Abort(.serviceUnavailable)`
    ///   while the container shuts down; `Abort(.internalServerError)` for any other error (which
    ///   is logged) and when the completion step fails.
    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let logger = request.logger
        let lease: RequestScopeLease
        do {
            lease = try scopes.open(providing: RequestID(request.id), logger) { logger.error("\($0)") }
        } catch  where error.code == .closed {
            throw Abort(.serviceUnavailable, reason: "The server is shutting down.")
        } catch {
            throw Self.answer(error, logger)
        }
        request.storage[RequestScopeKey.self] = lease
        let response: Response
        do {
            response = try await next.respond(to: request)
            try await lease.complete()
        } catch {
            await lease.fail()
            throw Self.answer(error, logger)
        }
        if !response.body.isStreaming {
            await lease.close()
        }
        return response
    }

    /// What the client is answered for `error`: an `AbortError` the handler chose, unchanged;
    /// for anything else a `500` that does not show it, after logging the whole error.
    static func answer(_ error: any Error, _ logger: Logger) -> any Error {
        if error is any AbortError { return error }
        logger.error("\(error)")
        return Abort(.internalServerError)
    }
}

/// Where a request keeps its lease on its scope: the lease closes the scope when the request
/// lets go of it, if nothing closed it before (a streaming body's end).
enum RequestScopeKey: StorageKey {
    typealias Value = RequestScopeLease
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
