public import Graft
import HummingbirdWebSocket
import NIOWebSocket
import Synchronization

extension ContainerBuilder {
    /// Lets the container's shutdown close each open WebSocket session's connection with a
    /// close frame (`1001 going away`) as it closes the session's scope.
    ///
    /// Call it once, with `registerRequestValues()`, when the app has WebSocket routes made with
    /// `ws(_:container:session:maxMessageSize:onMessage:)`:
    ///
    /// ```swift
    /// builder.registerRequestValues()
    /// builder.registerWebSocketSessions()
    /// ```
    ///
    /// It registers a scoped service that each session's scope makes when its connection opens
    /// and that sends the connection its close frame when that scope is closed for it: by the
    /// container's `shutdown()`, or when a grace period given to `shutdown(gracePeriod:)` ends.
    /// The shutdown awaits the frame being written, so when it returns every client has been told.
    /// Without it, such a connection is closed the same way, but only when its next message
    /// finds the session's scope closed.
    ///
    /// - Parameters:
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    public mutating func registerWebSocketSessions(fileID: String = #fileID, line: Int = #line) {
        register(WebSocketSessionEnd.self, lifetime: .scoped, fileID: fileID, line: line) { _ in
            WebSocketSessionEnd()
        }
    }
}

/// The end of one WebSocket connection from the server's side, once: a close frame,
/// `1001 going away`, sent when the session's scope is closed for the connection (the
/// container's shutdown) or when a message finds it closed.
///
/// Each session resolves one from its own scope when its connection opens (when the builder
/// called `registerWebSocketSessions()`); closing the scope disposes it, which sends the frame.
/// When the connection ends first (the client hung up), the session lets go of it, and disposing
/// it does nothing.
final class WebSocketSessionEnd: AsyncDisposable {
    private let outbound = Mutex<WebSocketOutboundWriter?>(nil)

    init() {}

    /// The connection whose end this is; sent nothing until ``goAway()``.
    func attach(_ writer: WebSocketOutboundWriter) {
        outbound.withLock { $0 = writer }
    }

    /// The connection ended by itself: nothing is sent from now on.
    func detach() {
        outbound.withLock { $0 = nil }
    }

    /// Sends the close frame, once; later calls, and calls after ``detach()``, do nothing.
    func goAway() async {
        let writer = outbound.withLock { writer in
            defer { writer = nil }
            return writer
        }
        // The connection may have failed meanwhile: then there is no one to tell.
        try? await writer?.close(.goingAway, reason: "The server is shutting down.")
    }

    /// The session's scope was closed for the connection: sends the close frame.
    func dispose() async {
        await goAway()
    }
}
