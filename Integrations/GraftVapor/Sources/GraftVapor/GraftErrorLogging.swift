import Graft
import Vapor

/// Logs a `GraftError` that no ``GraftScopeMiddleware`` answered (thrown by a route outside
/// its group, or by a middleware that runs before it) at `error` level, whole, and answers `500`
/// without it.
///
/// ``Vapor/Application/Graft/install(_:requestDeadline:)`` places it just inside Vapor's
/// `ErrorMiddleware`, which would otherwise log the error at `warning` level without its hints
/// and, outside the `production` environment, show it to the client. A future-based middleware:
/// it costs a request no task.
struct GraftErrorLogging: Middleware {
    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        next.respond(to: request).flatMapErrorThrowing { error in
            guard let graftError = error as? GraftError else { throw error }
            request.graftLogger.error("\(ErrorReport.describe(graftError))")
            throw Abort(.internalServerError)
        }
    }
}
