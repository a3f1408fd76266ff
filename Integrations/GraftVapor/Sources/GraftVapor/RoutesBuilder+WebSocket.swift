public import Graft
public import Vapor

extension RoutesBuilder {
    /// Accepts WebSocket connections at `path`, each with a session scope tagged `tag`, and runs
    /// each message in a scope of its own under it.
    ///
    /// ```swift
    /// enum ChatSession: ScopeTag {}
    /// builder.register(ChatMember.self, lifetime: .scoped(in: ChatSession.self), using: ChatMember.init)
    ///
    /// app.webSocket("chat", session: ChatSession.self) { text, message in
    ///     try await message.resolve(ChatRoom.self).post(text, from: message.resolve(ChatMember.self))
    /// }
    /// ```
    ///
    /// - **The session.** When a connection opens, a scope tagged `tag` is made from the installed
    ///   container and given the upgrade request's values (its ``RequestID``, `Logger` and event
    ///   loop, when the builder called ``Graft/ContainerBuilder/registerRequestValues(fileID:line:)``),
    ///   then `onOpen` runs with it. The upgrade request's own scope has closed by then: use the
    ///   ``WebSocketSession``, not `req`.
    /// - **Messages.** Messages are handled one at a time, in the order they came. Each gets a
    ///   scope under the session's, given the same values with an id of its own
    ///   (``WebSocketSession/Message/requestID``); when the handler returns, the scope completes
    ///   (a unit of work commits) and closes. An error from the handler or the completion step is
    ///   logged at `error` level, whole, with the message's id and the route, and the scope fails
    ///   and closes; the connection stays open. A binary message without `onBinary` is dropped.
    /// - **The end.** The session's scope closes exactly once, when the connection closes, after
    ///   the last message was handled. An error from `onOpen` is logged and closes the connection
    ///   with `1011 unexpected server error`. When the application shuts down, every open
    ///   connection is sent a close frame (`1001 going away`) before the HTTP server stops, and
    ///   the container shuts down after every session has ended.
    ///
    /// - Parameters:
    ///   - path: The route's path.
    ///   - tag: The tag of each connection's session scope.
    ///   - maxFrameSize: The largest frame a client may send.
    ///   - onOpen: Runs once the connection is open, before any message is handled.
    ///   - onText: Handles a text message, in the message's scope.
    ///   - onBinary: Handles a binary message, in the message's scope.
    /// - Returns: The route, which answers the upgrade request.
    @discardableResult
    public func webSocket<Tag: ScopeTag>(
        _ path: PathComponent...,
        session tag: Tag.Type,
        maxFrameSize: WebSocketMaxFrameSize = .default,
        onOpen: @escaping @Sendable (WebSocketSession) async throws -> Void = { _ in },
        onText: @escaping @Sendable (String, WebSocketSession.Message) async throws -> Void,
        onBinary: (@Sendable (ByteBuffer, WebSocketSession.Message) async throws -> Void)? = nil
    ) -> Route {
        let handlers = WebSocketHandlers(onOpen: onOpen, onText: onText, onBinary: onBinary)
        return on(.GET, path) { request -> Response in
            guard let container = request.application.graft.container,
                let sessions = request.application.storage[Application.WebSocketSessionsKey.self]
            else {
                throw GraftError(
                    .closed,
                    "this application has no Graft container for the WebSocket sessions of \(request.routePath)",
                    hints: ["install Graft before the routes: app.graft.install(container)"]
                )
            }
            let opening = WebSocketOpening<Tag>(
                container: container,
                sessions: sessions,
                values: RequestValueSet(container),
                requestID: RequestID(request.id),
                logger: request.graftLogger,
                headers: request.headers,
                parameters: request.parameters,
                handlers: handlers
            )
            // Vapor's synchronous variant: the socket's callbacks are set on its event loop before
            // any frame can arrive, so no message is missed.
            return request.webSocket(maxFrameSize: maxFrameSize) { _, socket in opening.start(socket) }
        }
    }
}

/// The closures of a WebSocket route.
struct WebSocketHandlers: Sendable {
    let onOpen: @Sendable (WebSocketSession) async throws -> Void
    let onText: @Sendable (String, WebSocketSession.Message) async throws -> Void
    let onBinary: (@Sendable (ByteBuffer, WebSocketSession.Message) async throws -> Void)?
}

/// A message as it came in.
enum WebSocketMessage: Sendable {
    case text(String)
    case binary(ByteBuffer)
}
