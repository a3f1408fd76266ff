import Graft
import Vapor

extension Request {
    /// The request's logger (which carries its `request-id`), also naming its method and route,
    /// for every line GraftVapor logs about the request.
    var graftLogger: Logger {
        var logger = self.logger
        logger[metadataKey: "http.request.method"] = "\(method.rawValue)"
        logger[metadataKey: "http.route"] = "\(routePath)"
        return logger
    }

    /// The route the request matched, as it was declared (`/orders/:id`), or its path when it
    /// matched none (yet).
    var routePath: String {
        guard let route else { return url.path }
        return "/" + route.path.map(\.description).joined(separator: "/")
    }
}

/// How GraftVapor writes an error in the server's log: whole, never to the client.
enum ErrorReport {
    /// The whole of `error`: a `GraftError`'s message with its path and hints, then the detail of
    /// the error underneath when its `String(reflecting:)` tells more than its description (a
    /// database driver's error whose description is generic); any other error as
    /// `String(reflecting:)` shows it.
    static func describe(_ error: any Error) -> String {
        guard let graftError = error as? GraftError else { return String(reflecting: error) }
        guard let underlying = graftError.underlyingError, !(underlying is GraftError) else {
            return graftError.description
        }
        let detail = String(reflecting: underlying)
        guard detail != String(describing: underlying) else { return graftError.description }
        return graftError.description + "\n  in detail: \(detail)"
    }
}
