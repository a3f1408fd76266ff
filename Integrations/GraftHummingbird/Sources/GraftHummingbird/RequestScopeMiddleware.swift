public import Graft
public import Hummingbird
import Synchronization

/// A middleware that opens a Graft `Scope` for each request and closes it exactly once, when
/// the response has been fully written.
///
/// The scope closes after the response body has been written, so a streaming body still sees
/// its scoped services; it closes as well when the handler throws, when writing the body fails
/// (the client went away), and when the response is dropped without being written. Async
/// disposals are awaited. While the container shuts down, a request that arrives gets no scope
/// and is answered `503 Service Unavailable`. When the request fails, a registered
/// ``RequestOutcome`` is marked failed before the scope closes.
///
/// Add it in front of the routes that resolve; the router's context must conform to
/// ``GraftRequestContext``.
///
/// ```swift
/// let router = Router(context: BasicGraftRequestContext.self)
/// router.add(middleware: RequestScopeMiddleware(container))
/// router.post("todos") { request, context in
///     try await context.resolve(TodoRepository.self).add(title: "milk")
/// }
/// ```
public struct RequestScopeMiddleware<Context: GraftRequestContext>: RouterMiddleware {
    let container: Container
    /// Whether the container declared the request values (`registerRequestValues()`), asked once.
    let givesRequestValues: Bool

    /// A middleware that opens each request's scope from `container`.
    ///
    /// When the container's builder called
    /// ``Graft/ContainerBuilder/registerRequestValues(fileID:line:)``, each scope is given the
    /// request's ``HummingbirdRequestID``, `Logger` and `Request`. The middleware asks the
    /// container once, here, not on each request.
    ///
    /// - Parameter container: The container whose scopes the requests get.
    public init(_ container: Container) {
        self.container = container
        self.givesRequestValues = container.declaresScopeValue(HummingbirdRequestID.self)
    }

    /// Opens the request's scope, runs the rest of the chain, and arranges the scope's closing.
    ///
    /// Hummingbird calls it for each request. When the rest of the chain throws, the scope is
    /// closed (and a registered ``RequestOutcome`` marked failed) before the error is rethrown;
    /// otherwise the returned response's body closes the scope once it has been written.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The request's context; the scope is stored in it for the handlers.
    ///   - next: The rest of the middleware chain and the handler.
    /// - Returns: The response, whose body closes the scope once it has been written.
    /// - Throws: What the handler throws (after the scope is closed), or an `HTTPError` with
    ///   status 503 while the container shuts down.
    public func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let scope: Scope
        if givesRequestValues {
            do {
                scope = try container.makeScope(providing: HummingbirdRequestID(context.id), context.logger, request)
            } catch {
                throw HTTPError(.serviceUnavailable, message: "The server is shutting down.")
            }
        } else {
            scope = container.makeScope()
        }
        if scope.isClosed {
            throw HTTPError(.serviceUnavailable, message: "The server is shutting down.")
        }
        let lease = ScopeLease(scope, reporter: context.logger)
        var context = context
        context.scope = scope
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            await lease.fail()
            throw error
        }
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            do {
                try await body.write(writer)
            } catch {
                await lease.fail()
                throw error
            }
            await lease.close()
        }
        return response
    }
}
