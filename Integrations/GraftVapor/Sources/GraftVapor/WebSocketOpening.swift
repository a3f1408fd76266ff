import Graft
import NIOWebSocket
import Vapor

/// What one upgrade request hands to its connection: the container, the request's values, and
/// the route's handlers; ``start(_:)`` runs the session.
struct WebSocketOpening<Tag: ScopeTag>: Sendable {
    let container: Container
    let sessions: WebSocketSessions
    let values: RequestValueSet
    let requestID: RequestID
    let logger: Logger
    let headers: HTTPHeaders
    let parameters: Parameters
    let handlers: WebSocketHandlers

    /// Queues the socket's messages in order and runs the session in a task the application
    /// tracks; closes the socket at once when the application is shutting down.
    func start(_ socket: WebSocket) {
        let (messages, queue) = AsyncStream<WebSocketMessage>.makeStream()
        socket.onText { _, text in queue.yield(.text(text)) }
        socket.onBinary { _, buffer in queue.yield(.binary(buffer)) }
        socket.onClose.whenComplete { _ in queue.finish() }
        let started = sessions.start(socket) { await run(socket, messages) }
        if !started {
            queue.finish()
            socket.close(code: .goingAway, promise: nil)
        }
    }

    /// Opens the session's scope, runs `onOpen`, handles each message in a scope of its own, and
    /// closes the session's scope once the socket has closed.
    private func run(_ socket: WebSocket, _ messages: AsyncStream<WebSocketMessage>) async {
        let scope: Scope
        do {
            scope = try values.makeScope(container, tagged: Tag.self, requestID, logger, socket.eventLoop)
        } catch {
            logger.error("\(ErrorReport.describe(error))")
            try? await socket.close(code: error.code == .closed ? .goingAway : .unexpectedServerError).get()
            return
        }
        guard !scope.isClosed else {  // a scope without values, made while the container shuts down
            try? await socket.close(code: .goingAway).get()
            return
        }
        let session = WebSocketSession(
            socket: socket,
            scope: scope,
            requestID: requestID,
            logger: logger,
            headers: headers,
            parameters: parameters
        )
        var isOpen = true
        do {
            try await handlers.onOpen(session)
        } catch {
            logger.error("\(ErrorReport.describe(error))")
            isOpen = false
            try? await socket.close(code: .unexpectedServerError).get()
        }
        let scopes = RequestScopes(container, under: scope, values: RequestID.self)
        var number = 0
        for await message in messages where isOpen {
            number += 1
            await handle(message, number, session, scopes)
        }
        do {
            try await scope.close()
        } catch {
            logger.error("\(ErrorReport.describe(error))")
        }
    }

    /// Handles one message in a scope of its own: completed when the handler returns, failed when
    /// it throws, closed either way; every error logged with the message's id.
    private func handle(
        _ message: WebSocketMessage,
        _ number: Int,
        _ session: WebSocketSession,
        _ scopes: RequestScopes
    ) async {
        let id = RequestID("\(requestID)-\(number)")
        var logger = logger
        logger[metadataKey: "request-id"] = "\(id)"
        let lease: RequestScopeLease
        do {
            lease = try values.open(scopes, id, logger, session.socket.eventLoop)
        } catch {
            logger.error("\(ErrorReport.describe(error))")
            return
        }
        let context = WebSocketSession.Message(session: session, scope: lease.scope, requestID: id, logger: logger)
        do {
            switch message {
            case .text(let text):
                try await handlers.onText(text, context)
            case .binary(let buffer):
                try await handlers.onBinary?(buffer, context)
            }
            try await lease.complete()
        } catch {
            logger.error("\(ErrorReport.describe(error))")
            await lease.fail()
            return
        }
        await lease.close()
    }
}
