@_spi(Integrations) public import Graft
public import GraftHummingbird
public import Hummingbird
public import HummingbirdWebSocket
public import Logging
import NIOWebSocket
import Synchronization

extension RouterMethods where Context: WebSocketRequestContext {
    /// Adds a WebSocket route whose connections each get a session scope tagged `tag`, and whose
    /// messages each run in a request scope under it.
    ///
    /// For each connection, a scope tagged `tag` is opened from `container` (given the upgrade
    /// request's `HummingbirdRequestID` (GraftHummingbird), `Logger` and `Request` when the builder
    /// called `registerRequestValues()`), so services registered `.scoped(in: tag)` live as long as
    /// the connection. Each message then gets a scope of its own under the session's, given a
    /// `Logger` that names the connection and the message's number:
    ///
    /// - `onMessage` runs; what it returns is written back once the message's completion step
    ///   (`try await scope.complete()`: a unit of work commits) has run, so a client never reads a
    ///   reply to work that was not kept;
    /// - the message's scope then closes; when `onMessage` or the completion step throws, a
    ///   request's `RequestOutcome` reads failed, the scope closes, nothing is written back,
    ///   the error is logged at `error` level naming the connection and the message's number, and
    ///   the next message is read;
    /// - the session's scope closes exactly once: when the client hangs up or the connection
    ///   fails, or when the container shuts down first. The connection is then closed with a
    ///   close frame, `1001 going away`: as the container's shutdown closes the session's scope
    ///   when the builder called `registerWebSocketSessions()` (the shutdown returns once it is
    ///   sent), otherwise when the next message comes. The
    ///   server's graceful shutdown closes open connections with a close frame too
    ///   (Hummingbird's, `1000 normal closure`), and their sessions' scopes then close. A new
    ///   connection while the container shuts down is refused with `503 Service Unavailable`.
    ///
    /// ```swift
    /// enum ChatSession: ScopeTag {}
    ///
    /// router.ws("chat", container: container, session: ChatSession.self) { message, context in
    ///     guard case .text(let text) = message else { return nil }
    ///     return .text(try await context.resolve(ChatRoom.self).post(text))
    /// }
    /// ```
    ///
    /// Serve the router with Hummingbird's `.http1WebSocketUpgrade(webSocketRouter: router)`; its
    /// context conforms to `WebSocketRequestContext`, as ``BasicGraftWebSocketRequestContext`` does.
    ///
    /// - Parameters:
    ///   - path: The route's path.
    ///   - container: The container the sessions' scopes are made from.
    ///   - tag: The tag of each connection's scope.
    ///   - maxMessageSize: The largest message read, in bytes; a larger one ends the connection.
    ///   - onMessage: Handles one message in its scope; returns the reply, or `nil` for none.
    /// - Returns: The router, for chaining.
    @discardableResult
    public func ws<Tag: ScopeTag>(
        _ path: RouterPath = "",
        container: Container,
        session tag: Tag.Type,
        maxMessageSize: Int = 1 << 20,
        onMessage:
            @escaping @Sendable (WebSocketMessage, WebSocketMessageContext) async throws ->
            WebSocketOutboundWriter.OutboundFrame?
    ) -> Self where Self: _HB_SendableMetatype {
        let session = WebSocketSession(container: container, tag: tag, maxMessageSize: maxMessageSize, onMessage)
        return ws(path) { _, _ in
            guard !container.isShuttingDown else {
                throw HTTPError(.serviceUnavailable, message: "The server is shutting down.")
            }
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            try await session.run(inbound, outbound, context.request, context.requestContext)
        }
    }
}

/// What a message's handler is given: the message's scope to resolve from, the connection's
/// writer, and what names the message in the logs.
public struct WebSocketMessageContext: Sendable {
    /// The message's scope, under the session's: `.scoped(in:)` services of the session's tag
    /// are the session's, `.scoped` ones the message's own.
    public let scope: Scope
    /// The session's scope, open as long as the connection.
    public let session: Scope
    /// The connection's writer, to send more than the reply (or to send outside a reply).
    public let outbound: WebSocketOutboundWriter
    /// The id of the request that opened the connection (its `hb.request.id`).
    public let connectionID: String
    /// The message's number on its connection, from 1.
    public let number: Int
    /// The message's logger: the upgrade request's, with `graft.websocket.message` set to
    /// ``number``.
    public let logger: Logger

    /// Resolves a service from the message's scope.
    ///
    /// ```swift
    /// let room = try await context.resolve(ChatRoom.self)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The registered service type.
    ///   - name: The registration's name, or `nil` for the unnamed one.
    /// - Returns: The instance the message's scope gives, following the service's lifetime.
    /// - Throws: What the scope throws: a `GraftError`.
    public func resolve<Service: Sendable>(
        _ type: Service.Type = Service.self,
        name: String? = nil
    ) async throws(GraftError) -> Service {
        try await scope.resolve(type, name: name)
    }
}

/// One WebSocket route's sessions: what each connection runs.
struct WebSocketSession<Tag: ScopeTag>: Sendable {
    typealias Handler =
        @Sendable (WebSocketMessage, WebSocketMessageContext) async throws ->
        WebSocketOutboundWriter.OutboundFrame?

    let container: Container
    let tag: Tag.Type
    let maxMessageSize: Int
    let handler: Handler
    let givesValues: Bool
    /// Whether the container registers ``WebSocketSessionEnd``: `false` once a session found it
    /// does not.
    private let endIsRegistered = RegistrationProbe()

    init(container: Container, tag: Tag.Type, maxMessageSize: Int, _ handler: @escaping Handler) {
        self.container = container
        self.tag = tag
        self.maxMessageSize = maxMessageSize
        self.handler = handler
        self.givesValues = container.declaresScopeValue(HummingbirdRequestID.self)
    }

    /// One connection: its session scope, each message in a scope under it, and the session's
    /// closing, once, when the connection ends.
    ///
    /// The connection is sent a close frame, `1001 going away`, when the session's scope is closed
    /// for it (the container's shutdown, with `registerWebSocketSessions()`) or when a message
    /// finds the session's scope closed; the client's answering close frame then ends the loop.
    /// On the server's graceful shutdown, Hummingbird's WebSocket handler sends its own
    /// (`1000 normal closure`), with the same end.
    func run(
        _ inbound: WebSocketInboundStream,
        _ outbound: WebSocketOutboundWriter,
        _ request: Request,
        _ context: some RequestContext
    ) async throws {
        let logger = RequestLogging.logger(request, context)
        let session: Scope
        do {
            session =
                givesValues
                ? try container.makeScope(tagged: tag, providing: HummingbirdRequestID(context.id), logger, request)
                : container.makeScope(tagged: tag)
        } catch {
            // The container began shutting down after the upgrade was accepted.
            try await outbound.close(.goingAway, reason: "The server is shutting down.")
            return
        }
        let end = await sessionEnd(in: session)
        end.attach(outbound)
        do {
            try await serve(inbound, outbound, session: session, end: end, connection: context.id, logger: logger)
        } catch {
            end.detach()
            await close(session, logger)
            throw error
        }
        end.detach()
        await close(session, logger)
    }

    private func serve(
        _ inbound: WebSocketInboundStream,
        _ outbound: WebSocketOutboundWriter,
        session: Scope,
        end: WebSocketSessionEnd,
        connection: String,
        logger: Logger
    ) async throws {
        let scopes = RequestScopes(container, under: session, values: Logger.self)
        var number = 0
        for try await message in inbound.messages(maxSize: maxMessageSize) {
            number += 1
            var messageLogger = logger
            messageLogger[metadataKey: "graft.websocket.message"] = "\(number)"
            let lease: RequestScopeLease
            do {
                lease = try scopes.open(providing: messageLogger) { [messageLogger] in
                    messageLogger.error("\(RequestLogging.message($0))")
                }
            } catch {
                // The session's scope was closed by the container's shutdown: end the connection
                // (Hummingbird then waits for the client's answering close frame).
                await end.goAway()
                return
            }
            let context = WebSocketMessageContext(
                scope: lease.scope,
                session: session,
                outbound: outbound,
                connectionID: connection,
                number: number,
                logger: messageLogger
            )
            let reply: WebSocketOutboundWriter.OutboundFrame?
            do {
                reply = try await handler(message, context)
                try await lease.complete()
            } catch {
                await lease.fail()
                messageLogger.error(
                    "message \(number) of WebSocket connection \(connection) failed: \(RequestLogging.message(error))"
                )
                continue
            }
            await lease.close()
            if let reply { try await outbound.write(reply) }
        }
    }

    /// The session's end: made in its scope when the builder called
    /// `registerWebSocketSessions()`, so that closing the scope sends the close frame; otherwise
    /// (asked once per route) one of its own, which only a message that finds the scope closed
    /// uses.
    private func sessionEnd(in session: Scope) async -> WebSocketSessionEnd {
        if endIsRegistered.mayBe {
            do {
                return try await session.resolve(WebSocketSessionEnd.self)
            } catch  where error.code == .notRegistered {
                endIsRegistered.isNot()
            } catch {
                // A scope born closed: the container is shutting down; the first message says so.
            }
        }
        return WebSocketSessionEnd()
    }

    /// Closes the session's scope (nothing, if the container's shutdown closed it already),
    /// logging a disposal that fails.
    private func close(_ session: Scope, _ logger: Logger) async {
        do {
            try await session.close()
        } catch {
            logger.error("\(RequestLogging.message(error))")
        }
    }
}

/// Whether a route's container registers a service, found out by the first session that asks.
final class RegistrationProbe: Sendable {
    private let absent = Atomic(false)

    /// `false` once a session found the service is not registered.
    var mayBe: Bool { !absent.load(ordering: .relaxed) }

    func isNot() { absent.store(true, ordering: .relaxed) }
}

/// A request context with both a Graft scope and WebSocket routes.
///
/// ```swift
/// let router = Router(context: BasicGraftWebSocketRequestContext.self)
/// router.add(middleware: RequestScopeMiddleware(container))
/// router.ws("chat", container: container, session: ChatSession.self) { message, context in nil }
/// ```
public struct BasicGraftWebSocketRequestContext: GraftRequestContext, WebSocketRequestContext {
    /// Hummingbird's own per-request storage: the request's id, its logger and the like.
    public var coreContext: CoreRequestContextStorage
    /// The request's scope; set by `RequestScopeMiddleware`, `nil` before it has run.
    public var scope: Scope?
    /// Where the WebSocket route hands its handler to the upgrade.
    public let webSocket: WebSocketHandlerReference<Self>

    /// A context for a new request, with no scope yet.
    ///
    /// - Parameter source: What Hummingbird gives a new request's context.
    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.scope = nil
        self.webSocket = .init()
    }
}
