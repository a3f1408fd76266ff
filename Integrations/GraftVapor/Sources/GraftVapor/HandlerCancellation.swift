import Synchronization
import Vapor

/// The task a request's route handler runs in, for the request's deadline to cancel.
///
/// Vapor runs an async route handler in a task of its own, which no middleware's cancellation
/// reaches. ``CancellableHandler`` runs it in a task it keeps here instead, so that
/// ``GraftScopeMiddleware`` can cancel it when the request's deadline passes.
final class HandlerCancellation: Sendable {
    private struct State: Sendable {
        var isCancelled = false
        var task: Task<Void, Never>?
    }

    private let state = Mutex(State())

    /// Keeps the handler's task; cancels it at once when the deadline passed already.
    func attach(_ task: Task<Void, Never>) {
        let cancelNow = state.withLock { state in
            if !state.isCancelled { state.task = task }
            return state.isCancelled
        }
        if cancelNow { task.cancel() }
    }

    /// Cancels the handler's task, now or as soon as it starts.
    func cancel() {
        let task = state.withLock { state in
            state.isCancelled = true
            defer { state.task = nil }
            return state.task
        }
        task?.cancel()
    }
}

extension HandlerCancellation {
    enum Key: StorageKey {
        typealias Value = HandlerCancellation
    }
}

/// An async route handler run in a task whose cancellation the request's deadline controls: one
/// task per request, as Vapor's own way of running it.
struct CancellableHandler: Responder {
    let handler: any AsyncResponder

    func respond(to request: Request) -> EventLoopFuture<Response> {
        let promise = request.eventLoop.makePromise(of: Response.self)
        let task = Task {
            do {
                promise.succeed(try await handler.respond(to: request))
            } catch {
                promise.fail(error)
            }
        }
        request.storage[HandlerCancellation.Key.self]?.attach(task)
        return promise.futureResult
    }

    /// Makes each async route handler of `routes` cancellable; those of route groups with their
    /// own middleware, and handlers that return futures, run as Vapor runs them.
    static func wrap(_ routes: Routes) {
        for route in routes.all {
            guard let handler = route.responder as? any AsyncResponder else { continue }
            route.responder = CancellableHandler(handler: handler)
        }
    }
}
