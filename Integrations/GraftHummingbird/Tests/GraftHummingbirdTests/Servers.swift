import GraftHummingbird
import Hummingbird
import HummingbirdCore
import Testing

/// The two servers `RequestScopeMiddleware` runs on: Hummingbird's own HTTP/1.1 server, where it
/// wraps each body to close the scope when the body ends, and the one that closes the scope
/// itself once the response is written. Suites that test what the middleware documents run on
/// both.
enum ServerKind: String, CaseIterable, CustomTestStringConvertible {
    case plain
    case closingRequestScopes

    var builder: HTTPServerBuilder {
        switch self {
        case .plain: .http1()
        case .closingRequestScopes: .http1ClosingRequestScopes()
        }
    }

    var testDescription: String { rawValue }
}
