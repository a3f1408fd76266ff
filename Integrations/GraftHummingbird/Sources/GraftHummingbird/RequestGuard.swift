public import Hummingbird
import Logging
import Synchronization

/// A router's responder that answers each request by its deadline, even when the handler ignores
/// its cancellation, and logs every error that escapes a route at `error` level.
///
/// ``RequestScopeMiddleware`` gives each request a deadline: when it passes, the middleware
/// cancels the handler, fails and closes the request's scope, and answers `503`. A handler that
/// ignores its cancellation (one blocked on a call that never returns) would still keep the
/// middleware, and so the client, waiting until it returns. Hand the router to `Application`
/// through ``Hummingbird/HTTPResponderBuilder/guardingRequests()`` and the guard answers at the
/// deadline: each request runs in a task of its own, raced against its deadline, and the
/// request's task is abandoned (cancelled, never awaited) if it is still running then.
///
/// The guard also logs, at `error` level and with the request's method, route and id, an error
/// that escapes a route the middleware is not in front of (a `GraftError` from
/// `context.resolve` without a scope, with its hints), which Hummingbird would log at `debug`
/// level only. The client still gets a `500` without its message.
///
/// ```swift
/// let app = Application(
///     router: router.guardingRequests(),
///     server: .http1ClosingRequestScopes(),
///     configuration: .init(address: .hostname("127.0.0.1", port: 8080))
/// )
/// ```
public struct RequestGuard<Base: HTTPResponderBuilder>: HTTPResponderBuilder
where Base.Responder.Context: RequestContext {
    let base: Base

    /// A guard around `base`'s responder.
    ///
    /// - Parameter base: The router (or any builder of the app's responder).
    public init(_ base: Base) {
        self.base = base
    }

    /// The guarded responder, built from the router's.
    ///
    /// - Returns: A responder that runs each request in a task of its own.
    public func buildResponder() -> Responder {
        Responder(base: base.buildResponder())
    }

    /// The responder ``RequestGuard`` builds: each request in a task of its own, raced against
    /// the deadline that ``RequestScopeMiddleware`` sets.
    public struct Responder: HTTPResponder {
        /// The router's request context.
        public typealias Context = Base.Responder.Context

        let base: Base.Responder

        /// Answers `request`: the router's response, or `503` once the request's deadline has
        /// passed.
        ///
        /// - Parameters:
        ///   - request: The request.
        ///   - context: Its context.
        /// - Returns: The router's response; its HTTP errors' responses; `503` at the deadline;
        ///   `500`, without a message, for any other error, which is logged first.
        /// - Throws: What encoding an HTTP error's response throws.
        public func respond(to request: Request, context: Context) async throws -> Response {
            let outcome = FirstOutcome()
            let watch = RequestDeadlineWatch { outcome.settle(.deadlinePassed) }
            let work: @Sendable () async -> Void = {
                let result: Result<Response, any Error>
                do {
                    result = .success(
                        try await RequestDeadlineWatch.$current.withValue(watch) {
                            try await base.respond(to: request, context: context)
                        }
                    )
                } catch {
                    result = .failure(error)
                }
                outcome.settle(.finished(result))
            }
            // The request's own task is the one that answers, so the work needs another, which the
            // deadline can abandon. Started where it is made, on this thread, up to its first
            // suspension: no hop to another thread before the request even begins.
            let worker: Task<Void, Never>
            if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, *) {
                worker = Task.immediate(operation: work)
            } else {
                worker = Task(operation: work)
            }
            let settled = await withTaskCancellationHandler {
                await outcome.value
            } onCancel: {
                worker.cancel()
            }
            switch settled {
            case .deadlinePassed:
                // The middleware logged it and is failing the scope; the work is not awaited.
                worker.cancel()
                return try RequestDeadline.answer.response(from: request, context: context)
            case .finished(.success(let response)):
                return response
            case .finished(.failure(let error as any HTTPResponseError)):
                return try error.response(from: request, context: context)
            case .finished(.failure(let error)):
                // Not through the middleware, which answers with an HTTPError after logging.
                RequestLogging.logger(request, context).error("\(RequestLogging.message(error))")
                return try HTTPError(.internalServerError).response(from: request, context: context)
            }
        }
    }
}

extension HTTPResponderBuilder where Responder.Context: RequestContext {
    /// This router, answering each request by its deadline and logging what escapes a route: a
    /// ``RequestGuard``.
    ///
    /// ```swift
    /// let app = Application(router: router.guardingRequests())
    /// ```
    ///
    /// - Returns: A responder builder for `Application`'s `router:` argument.
    public func guardingRequests() -> RequestGuard<Self> {
        RequestGuard(self)
    }
}

/// Settled once, by whichever comes first: the request's work or its deadline.
private final class FirstOutcome: Sendable {
    enum Outcome: Sendable {
        case finished(Result<Response, any Error>)
        case deadlinePassed
    }

    private enum State {
        case waiting(CheckedContinuation<Outcome, Never>?)
        case settled(Outcome)
    }

    private let state = Mutex(State.waiting(nil))

    func settle(_ outcome: Outcome) {
        let waiter = state.withLock { state -> CheckedContinuation<Outcome, Never>? in
            guard case .waiting(let waiter) = state else { return nil }
            state = .settled(outcome)
            return waiter
        }
        waiter?.resume(returning: outcome)
    }

    /// The outcome, once settled. Not ended by cancellation: the caller cancels the work, which
    /// settles it, and the middleware's deadline settles it at the latest.
    var value: Outcome {
        get async {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> Outcome? in
                    switch state {
                    case .settled(let outcome): return outcome
                    case .waiting:
                        state = .waiting(continuation)
                        return nil
                    }
                }
                if let now { continuation.resume(returning: now) }
            }
        }
    }
}
