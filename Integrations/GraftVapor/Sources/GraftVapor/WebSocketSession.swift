public import Graft
public import Vapor

/// One WebSocket connection's session: its socket, its scope, and the values of the request that
/// opened it.
///
/// ``Vapor/RoutesBuilder/webSocket(_:session:maxFrameSize:onOpen:onText:onBinary:)`` makes one
/// per connection. Use it instead of the upgrade request: by the time a connection is open, that
/// request's own scope has closed (its response, `101 Switching Protocols`, has been sent), so
/// `req.resolve` inside Vapor's own `webSocket` closure throws.
///
/// ```swift
/// app.webSocket("chat", session: ChatSession.self) { session in
///     try await session.resolve(ChatMember.self).join(session.socket)
/// } onText: { text, message in
///     try await message.resolve(ChatRoom.self).post(text)
/// }
/// ```
public struct WebSocketSession: Sendable {
    /// The connection's socket: send on it, close it.
    public let socket: WebSocket
    /// The session's scope, tagged with the route's tag: its `.scoped(in:)` services live as long
    /// as the connection, and every message's scope is made under it.
    public let scope: Scope
    /// The id of the request that opened the connection.
    public let requestID: RequestID
    /// The logger of the request that opened the connection, naming its id and route.
    public let logger: Logger
    /// The headers of the request that opened the connection.
    public let headers: HTTPHeaders
    /// The route parameters of the request that opened the connection.
    public let parameters: Parameters

    /// Resolves a service from the session's scope, awaiting async factories.
    ///
    /// - Parameters:
    ///   - type: The registered service type.
    ///   - name: The registration's name, or `nil` for the unnamed one.
    /// - Returns: The instance its lifetime gives: the session's own for a service scoped to the
    ///   route's tag.
    /// - Throws: `GraftError` when the service cannot be resolved.
    public func resolve<Service: Sendable>(
        _ type: Service.Type = Service.self,
        name: String? = nil
    ) async throws(GraftError) -> Service {
        try await scope.resolve(type, name: name)
    }

    /// One message of a session: its own scope, made under the session's, completed when the
    /// handler returns and closed before the next message is handled.
    public struct Message: Sendable {
        /// The session the message came in on.
        public let session: WebSocketSession
        /// The message's scope: a `.scoped` service is made once per message; a service scoped to
        /// the route's tag is the session's.
        public let scope: Scope
        /// The message's id: the session's ``WebSocketSession/requestID``, a dash and the
        /// message's number in the session, from 1.
        public let requestID: RequestID
        /// The session's logger, with the message's id as its `request-id`.
        public let logger: Logger

        /// Resolves a service from the message's scope, awaiting async factories.
        ///
        /// - Parameters:
        ///   - type: The registered service type.
        ///   - name: The registration's name, or `nil` for the unnamed one.
        /// - Returns: The instance its lifetime gives: one per message for `.scoped` services.
        /// - Throws: `GraftError` when the service cannot be resolved.
        public func resolve<Service: Sendable>(
            _ type: Service.Type = Service.self,
            name: String? = nil
        ) async throws(GraftError) -> Service {
            try await scope.resolve(type, name: name)
        }
    }
}
