public import Graft
import Hummingbird
import Logging

/// The id Hummingbird gives a request (`context.id`), as a scope value.
///
/// It is named apart from Hummingbird's own `RequestID`, which cannot be made from an id
/// string. ``RequestScopeMiddleware`` gives it to each request's scope when the builder called
/// ``Graft/ContainerBuilder/registerRequestValues(fileID:line:)``; a scoped service takes it
/// as an initializer parameter:
///
/// ```swift
/// struct AuditLog: Sendable {
///     let requestID: HummingbirdRequestID
/// }
/// builder.register(AuditLog.self, lifetime: .scoped, using: AuditLog.init(requestID:))
/// ```
public struct HummingbirdRequestID: Hashable, Sendable, CustomStringConvertible {
    /// The id, as it appears in the request logger's `hb.request.id` metadata.
    public let value: String

    /// An id with `value`.
    ///
    /// The middleware makes one per request from `context.id`; tests make their own.
    ///
    /// - Parameter value: The request's id.
    public init(_ value: String) {
        self.value = value
    }

    /// The id itself, so it prints as it appears in the logs.
    public var description: String { value }
}

extension ContainerBuilder {
    /// Declares the values each request's scope is given by ``RequestScopeMiddleware``: its
    /// ``HummingbirdRequestID``, the request's `Logger` (which carries the id), and the `Request` itself,
    /// so scoped and transient services can take them as initializer parameters.
    ///
    /// ```swift
    /// builder.registerRequestValues()
    /// builder.register(AuditLog.self, lifetime: .scoped, using: AuditLog.init(requestID:logger:))
    /// ```
    ///
    /// `build()` then checks them like services: a singleton that takes one is a captive
    /// dependency. Without this call, requests get scopes with no values.
    ///
    /// - Parameters:
    ///   - fileID: Where the declaration is made, for messages; leave the default.
    ///   - line: Where the declaration is made, for messages; leave the default.
    public mutating func registerRequestValues(fileID: String = #fileID, line: Int = #line) {
        registerScopeValue(HummingbirdRequestID.self, fileID: fileID, line: line)
        registerScopeValue(Logger.self, fileID: fileID, line: line)
        registerScopeValue(Request.self, fileID: fileID, line: line)
    }
}
