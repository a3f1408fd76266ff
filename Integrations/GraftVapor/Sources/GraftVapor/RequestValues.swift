public import Graft
import Vapor

/// The id Vapor gave a request (`req.id`), as a value each request's scope is given.
///
/// After ``Graft/ContainerBuilder/registerRequestValues(fileID:line:)``, a scoped service
/// takes it as a parameter and is given the id of the request it serves.
///
/// ```swift
/// struct AuditLog {
///     init(requestID: RequestID, logger: Logger) { ... }   // autowired from the request's scope
/// }
/// ```
public struct RequestID: Hashable, Sendable, CustomStringConvertible {
    /// The id, as Vapor writes it in its logs.
    ///
    /// It equals the request's `id`.
    public let value: String

    /// Wraps a request id.
    ///
    /// ``GraftScopeMiddleware`` makes one per request; tests make their own.
    ///
    /// - Parameter value: The id, as Vapor writes it in its logs.
    public init(_ value: String) {
        self.value = value
    }

    /// The id itself, so that `"\(requestID)"` reads as the id.
    public var description: String { value }
}

extension ContainerBuilder {
    /// Declares the values each request's scope is given: its ``RequestID``, its `Logger`
    /// (Vapor's request logger, which carries the request id) and its event loop (`any EventLoop`,
    /// the loop the request is served on).
    ///
    /// Services then autowire them like any other dependency, and `build()` checks that no
    /// singleton captures them. Without this call requests get scopes with no values. A
    /// WebSocket session's scope, and each of its messages' scopes, are given the same three
    /// values (see ``Vapor/RoutesBuilder/webSocket(_:session:maxFrameSize:onOpen:onText:onBinary:)``).
    ///
    /// ```swift
    /// builder.registerRequestValues()
    /// builder.register(AuditLog.self, lifetime: .scoped, using: AuditLog.init(requestID:logger:))
    /// ```
    ///
    /// - Parameters:
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    public mutating func registerRequestValues(fileID: String = #fileID, line: Int = #line) {
        registerScopeValue(RequestID.self, fileID: fileID, line: line)
        registerScopeValue(Logger.self, fileID: fileID, line: line)
        registerScopeValue((any EventLoop).self, fileID: fileID, line: line)
    }
}
