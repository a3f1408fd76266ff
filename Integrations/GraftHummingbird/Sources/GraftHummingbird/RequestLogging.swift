import Graft
package import Hummingbird
package import Logging

/// What every log line about a request names, and how an error is written there.
package enum RequestLogging {
    /// The request's logger (which carries its `hb.request.id`) with its method and route as
    /// metadata too, `hb.request.method` and `hb.request.route`, so every line about the request
    /// names all three.
    package static func logger(_ request: Request, _ context: some RequestContext) -> Logger {
        var logger = context.logger
        logger[metadataKey: "hb.request.method"] = "\(request.method)"
        logger[metadataKey: "hb.request.route"] = "\(route(request, context))"
        return logger
    }

    /// The route the router matched (`/orders/{id}`), or the request's path before routing.
    package static func route(_ request: Request, _ context: some RequestContext) -> String {
        context.endpointPath ?? request.uri.path
    }

    /// The whole message of `error` for the server's log: its description (a `GraftError`'s path
    /// and hints), then the detail an error hides from `description` and shows only to
    /// `String(reflecting:)` (postgres-nio's `PSQLError` tells a duplicate key from a lost
    /// connection only there). The client never sees it.
    package static func message(_ error: any Error) -> String {
        let described = "\(error)"
        // The error a GraftError wraps (a factory's, a completion step's) is where the detail is.
        let inner: Any = (error as? GraftError)?.underlyingError ?? error
        guard let detailed = inner as? any CustomDebugStringConvertible else { return described }
        let detail = String(reflecting: detailed)
        guard !described.contains(detail) else { return described }
        return described + "\n  in detail: " + detail
    }
}
