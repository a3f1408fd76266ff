public import Graft
public import Hummingbird
import Logging

/// A middleware that opens a Graft `Scope` for each request, runs its completion step before the
/// response is sent, and closes it exactly once, when the response has been fully written.
///
/// - **Completion.** After the handler returns, the scope's completion step runs (see Graft's
///   `Completable`): a unit of work commits there. For a body whose length is known (a string, a
///   JSON value, any buffer), it runs before the response is returned, so a failure turns the
///   response into `500 Internal Server Error`. For a streamed body (length unknown), it runs after
///   the body's last byte and before its end, so a failure cuts the response off before its end
///   and the client sees it fail.
/// - **Errors.** Every error that escapes the request, other than an HTTP error the handler chose
///   (`HTTPError` or another `HTTPResponseError`), is logged at `error` level with the request's
///   logger, whose metadata names its method, route and id (`hb.request.method`,
///   `hb.request.route`, `hb.request.id`), with the whole message: a `GraftError`'s path and
///   hints, and the detail an error shows only to `String(reflecting:)` (postgres-nio's
///   `PSQLError`). The client gets a `500` that does not show it. The scope's `Logger` value is
///   that logger, so a service's lines name the request too.
/// - **Deadline.** A request still running ``defaultDeadline`` (30 seconds) after the middleware
///   began, or the deadline it was given, is logged at `error` level with what its scope still
///   held; its handler is cancelled, its scope failed and closed, and the client answered
///   `503 Service Unavailable`. Behind a ``RequestGuard`` the answer goes out at the deadline even
///   when the handler ignores its cancellation. See <doc:RequestDeadlines>.
/// - **Closing.** The scope closes after the response body has been written, so a streaming body
///   still sees its scoped services; it closes as well when the handler throws, when writing the
///   body fails (the client went away), and when the response is dropped without being written.
///   Async disposals are awaited. The request's `RequestOutcome` reads failed first when the
///   request failed.
/// - **Draining.** While the container shuts down, a request that arrives gets no scope and is
///   answered `503 Service Unavailable`.
///
/// On a server built with
/// ``HummingbirdCore/HTTPServerBuilder/http1ClosingRequestScopes(configuration:)``, the server closes
/// the scope of a response whose length is known once it has written it, and the middleware
/// leaves that body as the handler made it; elsewhere it wraps each body to close the scope when
/// the body ends, which makes Hummingbird write the response in three parts instead of one.
///
/// GraftVapor's `GraftScopeMiddleware` behaves the same way: both are built on Graft's
/// `RequestScopes`.
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
    let scopes: RequestScopes
    /// The requests' deadlines, one clock for all of them; `nil` for no deadline.
    let deadlines: DeadlineClock?

    /// A middleware that opens each request's scope from `container`.
    ///
    /// When the container's builder called
    /// ``Graft/ContainerBuilder/registerRequestValues(fileID:line:)``, each scope is given the
    /// request's ``HummingbirdRequestID``, `Logger` and `Request`. The middleware asks the
    /// container once, here, not on each request.
    ///
    /// - Parameters:
    ///   - container: The container whose scopes the requests get.
    ///   - deadline: How long a request may run, from the middleware to the end of its
    ///     completion step; `nil` sets no limit. See <doc:RequestDeadlines>.
    public init(_ container: Container, deadline: Duration? = Self.defaultDeadline) {
        self.scopes = RequestScopes(container, values: HummingbirdRequestID.self)
        self.deadlines = deadline.map(DeadlineClock.init(deadline:))
    }

    /// A middleware that opens each request's scope under `parent`, a session's or a tenant's
    /// scope of `container`.
    ///
    /// Each request then shares what `parent` shares (its `.scoped(in:)` instances, its values)
    /// and its scope closes before `parent` does; a request that arrives once `parent` has
    /// closed is answered `503`.
    ///
    /// ```swift
    /// let acme = try container.makeScope(tagged: Tenant.self, providing: TenantID("acme"))
    /// router.group("acme").add(middleware: RequestScopeMiddleware(container, under: acme))
    /// ```
    ///
    /// - Parameters:
    ///   - container: The container `parent` was made from.
    ///   - parent: The scope each request's scope is made under.
    ///   - deadline: How long a request may run; `nil` sets no limit.
    public init(_ container: Container, under parent: Scope, deadline: Duration? = Self.defaultDeadline) {
        self.scopes = RequestScopes(container, under: parent, values: HummingbirdRequestID.self)
        self.deadlines = deadline.map(DeadlineClock.init(deadline:))
    }

    /// The deadline a request gets unless the middleware is given another: 30 seconds.
    ///
    /// Long enough for any request a page or an API client waits on, short enough to answer
    /// before the proxies in front of a server give up (nginx and cloud load balancers wait 60
    /// seconds by default), so the server's own log names the request and what it held.
    public static var defaultDeadline: Duration { .seconds(30) }

    /// Opens the request's scope, runs the rest of the chain within the deadline, completes the
    /// scope and arranges its closing.
    ///
    /// Hummingbird calls it for each request. When the rest of the chain throws, the scope is
    /// closed (its `RequestOutcome` reading failed) before the error leaves;
    /// otherwise the returned response's body closes the scope once it has been written.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The request's context; the scope is stored in it for the handlers.
    ///   - next: The rest of the middleware chain and the handler.
    /// - Returns: The response, whose body closes the scope once it has been written.
    /// - Throws: An HTTP error the handler threw, unchanged; an `HTTPError` with status 503 while
    ///   the container shuts down, or once the deadline has passed; an `HTTPError` with status
    ///   500, without a message, for any other error (which is logged) and when the completion
    ///   step fails.
    public func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let logger = RequestLogging.logger(request, context)
        let lease: RequestScopeLease
        do {
            lease = try scopes.open(providing: HummingbirdRequestID(context.id), logger, request) {
                logger.error("\(RequestLogging.message($0))")
            }
        } catch  where error.code == .closed {
            throw HTTPError(.serviceUnavailable, message: "The server is shutting down.")
        } catch {
            throw Self.answer(error, logger)
        }
        var context = context
        context.scope = lease.scope
        var response: Response
        do {
            if let deadlines {
                let expiry = RequestExpiry(
                    lease,
                    logger: logger,
                    deadline: deadlines.deadline,
                    method: request.method,
                    route: RequestLogging.route(request, context),
                    id: context.id,
                    watch: RequestDeadlineWatch.current
                )
                response = try await RequestDeadline.run(
                    { try await Self.respond(request, context, next, lease) },
                    on: deadlines,
                    expiry: expiry
                )
            } else {
                response = try await Self.respond(request, context, next, lease)
            }
        } catch is DeadlinePassed {
            // Logged, and the scope is being failed and closed: the answer does not wait for it.
            throw RequestDeadline.answer
        } catch {
            await lease.fail()
            throw Self.answer(error, logger)
        }
        if response.body.contentLength != nil, let server = PendingScopeClose.current, server.hand(lease) {
            // The server closes the scope once it has written the body, left as it is.
            return response
        }
        let body = response.body
        let completesAtEnd = body.contentLength == nil
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            do {
                if completesAtEnd {
                    try await body.write(CompletingWriter(writer, lease: lease, logger: logger))
                } else {
                    try await body.write(writer)
                }
            } catch {
                await lease.fail()
                throw error
            }
            await lease.close()
        }
        return response
    }

    /// The rest of the chain, then, for a body whose length is known, the completion step, while
    /// the status can still change.
    private static func respond(
        _ request: Request,
        _ context: Context,
        _ next: (Request, Context) async throws -> Response,
        _ lease: RequestScopeLease
    ) async throws -> Response {
        let response = try await next(request, context)
        if response.body.contentLength != nil {
            try await lease.complete()
        }
        return response
    }

    /// What the client is answered for `error`: an HTTP error the handler chose, unchanged;
    /// for anything else a `500` without a message, after logging the whole error.
    static func answer(_ error: any Error, _ logger: Logger) -> any Error {
        if error is any HTTPResponseError { return error }
        logger.error("\(RequestLogging.message(error))")
        return HTTPError(.internalServerError)
    }
}
