public import Graft
public import Vapor

/// Gives every request its own Graft `Scope`, completes it before the response and closes it
/// exactly once; a request that outlives its deadline is cancelled and answered `503`.
///
/// ``Vapor/Application/Graft/install(_:requestDeadline:)`` adds it for you; add it by hand only
/// to scope part of the routes (a route group's `grouped(_:)`), or to make the requests of a
/// group under a tenant's scope (``init(container:under:deadline:)``). Added by hand, it does not
/// shut the container down: call the container's `shutdown()` yourself when the application
/// stops.
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
/// - **Deadline.** The handler and the completion step have ``deadline`` (30 seconds unless you
///   say otherwise) to produce the response. Past it, the handler's task is cancelled, the scope
///   fails and closes (the request's `RequestOutcome` reads failed, leased connections go
///   back), an `error` line names the request and what its scope still held, and the client is
///   answered `503 Service Unavailable` at once, even when the handler ignores cancellation.
///   A streamed body's own writing is not bounded by it.
/// - **Errors.** Every error that escapes the request, other than an `AbortError` the handler
///   chose, is logged at `error` level with the request's logger (which carries its
///   `request-id`, and here its `http.request.method` and `http.route` too), with the whole
///   message: a `GraftError`'s path and hints, and the `String(reflecting:)` detail of the error
///   underneath. It reaches the client as an `Abort(.internalServerError)`, which does not show it.
/// - **Closing.** The scope closes when the handler throws, as soon as the response is ready
///   when its body is in memory, and for a streaming body when the stream lets go of the
///   request: a stream that captures `req` sees its scope open until it ends. A registered
///   `RequestOutcome` reads failed first when the request failed.
/// - **Draining.** While the container shuts down, a request that arrives gets no scope and is
///   answered `503 Service Unavailable`.
///
/// GraftHummingbird's `RequestScopeMiddleware` behaves the same way: both are built on Graft's
/// `RequestScopes`.
public struct GraftScopeMiddleware: AsyncMiddleware {
    /// The deadline a request has unless you give another: 30 seconds.
    ///
    /// Long enough for any request a person waits on (load balancers and browsers commonly give
    /// up after 30 to 60 seconds), short enough that a request stuck on a lost database
    /// connection gives its connection back and its client an answer long before anyone
    /// restarts the server.
    public static let defaultDeadline: Duration = .seconds(30)

    /// The container each request's scope is made from.
    ///
    /// When the builder called
    /// ``Graft/ContainerBuilder/registerRequestValues(fileID:line:)``, each scope is given the
    /// request's ``RequestID``, `Logger` and event loop.
    public let container: Container

    /// How long a request's handler and completion step may take before the request is cancelled
    /// and answered `503 Service Unavailable`; `nil` for no deadline.
    public let deadline: Duration?

    private let scopes: RequestScopes
    private let values: RequestValueSet

    /// Creates the middleware.
    ///
    /// - Parameters:
    ///   - container: The container each request's scope is made from.
    ///   - deadline: How long a request may take; `nil` for no deadline.
    public init(container: Container, deadline: Duration? = Self.defaultDeadline) {
        self.container = container
        self.deadline = deadline
        self.scopes = RequestScopes(container, values: RequestID.self)
        self.values = RequestValueSet(container)
    }

    /// Creates the middleware for requests whose scopes are made under `parent`, a tenant's or a
    /// session's scope: each request sees the instances `parent` shares (its `.scoped(in:)`
    /// services) and the values it was given, and closes before it.
    ///
    /// ```swift
    /// let acme = try container.makeScope(tagged: Tenant.self, providing: TenantID("acme"))
    /// let tenant = app.grouped("acme").grouped(GraftScopeMiddleware(container: container, under: acme))
    /// ```
    ///
    /// Close `parent` yourself once no request can reach the group any more (the container's
    /// shutdown closes it otherwise).
    ///
    /// - Parameters:
    ///   - container: The container `parent` was made from.
    ///   - parent: The scope each request's scope is made under.
    ///   - deadline: How long a request may take; `nil` for no deadline.
    public init(container: Container, under parent: Scope, deadline: Duration? = Self.defaultDeadline) {
        self.container = container
        self.deadline = deadline
        self.scopes = RequestScopes(container, under: parent, values: RequestID.self)
        self.values = RequestValueSet(container)
    }

    /// Opens the request's scope, runs the rest of the chain within the deadline, completes the
    /// scope and closes it when it is done.
    ///
    /// Vapor calls this; you do not. The request runs in one task: the middleware's work and, when
    /// the next responder is an async route handler, the handler too, which Vapor would otherwise
    /// run in a task of its own.
    ///
    /// - Parameters:
    ///   - request: The incoming request; its scope is reachable as `request.graftScope`.
    ///   - next: The rest of the middleware chain and the route handler.
    /// - Returns: The response of `next`, once the scope's completion step succeeded.
    ///   It fails with an `AbortError` the handler threw, unchanged; `Abort(.serviceUnavailable)`
    ///   while the container shuts down and when the deadline passed; `Abort(.internalServerError)`
    ///   for any other error (which is logged) and when the completion step fails.
    public func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        let lease: RequestScopeLease
        do {
            lease = try values.open(scopes, RequestID(request.id), request.logger, request.eventLoop)
        } catch  where error.code == .closed {
            return request.eventLoop.makeFailedFuture(
                Abort(.serviceUnavailable, reason: "The server is shutting down.")
            )
        } catch {
            return request.eventLoop.makeFailedFuture(Self.answer(error, request))
        }
        request.storage[RequestScopeKey.self] = lease
        let answer = request.eventLoop.makePromise(of: Response.self)
        let run = deadline.map { RequestRun(answer: answer, request: request, lease: lease, deadline: $0) }
        let timed = run?.armDeadline() ?? false
        // An async route handler runs right in this task; anything else as Vapor runs it.
        let handler = next as? any AsyncResponder
        let task = Task {
            let result: Result<Response, any Error>
            do {
                let response =
                    if let handler {
                        try await handler.respond(to: request)
                    } else {
                        try await next.respond(to: request).get()
                    }
                // Past the deadline the scope is failed: a handler that returns after it (it was
                // cancelled) does not complete it.
                if let run, run.hasExpired { throw CancellationError() }
                try await lease.complete()
                result = .success(response)
            } catch {
                result = .failure(error)
            }
            // The deadline, when it came first, has failed the scope and answered.
            if timed, let run, !run.finish() { return }
            switch result {
            case .success(let response):
                if !response.body.isStreaming {
                    await lease.close()
                }
                answer.succeed(response)
            case .failure(let error):
                await lease.fail()
                answer.fail(Self.answer(error, request))
            }
        }
        if timed { run?.attach(task) }
        return answer.futureResult
    }

    /// Opens the request's scope, runs `next` within the deadline, completes the scope and closes
    /// it when it is done: the future-based `respond(to:chainingTo:)`, awaited.
    ///
    /// - Parameters:
    ///   - request: The incoming request.
    ///   - next: The rest of the middleware chain and the route handler.
    /// - Returns: The response of `next`, once the scope's completion step succeeded.
    /// - Throws: What the future-based variant fails with.
    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        try await respond(to: request, chainingTo: next as any Responder).get()
    }

    /// Logs a request whose deadline passed, with what its scope still held: done at the
    /// deadline, before the handler is cancelled, so the line shows the scope as the deadline
    /// found it.
    static func logDeadlinePassed(_ deadline: Duration, _ request: Request, _ lease: RequestScopeLease) {
        let held = lease.scope.servicesHeld
        let what = held.isEmpty ? "the scope held no service" : "the scope still held: \(held.joined(separator: ", "))"
        request.graftLogger.error(
            """
            \(request.method.rawValue) \(request.routePath) (request \(request.id)) gave no response within its \
            deadline of \(Self.describe(deadline)): the handler was cancelled, the request's scope failed and closed, \
            and the client was answered 503 Service Unavailable
              \(what)
              a longer deadline: app.graft.install(container, requestDeadline: .seconds(60)); none: requestDeadline: nil
            """
        )
    }

    /// What a request whose deadline passed is answered, once its scope has failed and closed.
    static var deadlineAnswer: Abort {
        Abort(.serviceUnavailable, reason: "The request took longer than the server allows.")
    }

    /// A deadline as a person reads it: `30 s`, `250 ms`.
    static func describe(_ deadline: Duration) -> String {
        let (seconds, attoseconds) = deadline.components
        if attoseconds == 0 { return "\(seconds) s" }
        let milliseconds = seconds * 1_000 + attoseconds / 1_000_000_000_000_000
        return "\(milliseconds) ms"
    }

    /// What the client is answered for `error`: an `AbortError` the handler chose, unchanged;
    /// for anything else a `500` that does not show it, after logging the whole error.
    static func answer(_ error: any Error, _ request: Request) -> any Error {
        if error is any AbortError { return error }
        request.graftLogger.error("\(ErrorReport.describe(error))")
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
