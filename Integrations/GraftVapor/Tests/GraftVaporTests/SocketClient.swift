import NIOWebSocket
import Vapor

/// A WebSocket client of a ``LiveServer``: what it receives, in order, and how it was closed.
struct SocketClient: Sendable {
    let socket: WebSocket
    private let received: AsyncStream<String>

    /// Connects to `path` on the server and starts collecting what the server sends.
    static func connect(to server: LiveServer, _ path: String) async throws -> SocketClient {
        let (received, inbox) = AsyncStream<String>.makeStream()
        let (connected, handOver) = AsyncStream<WebSocket>.makeStream()
        try await WebSocket.connect(to: "ws://127.0.0.1:\(server.port)/\(path)") { socket in
            socket.onText { _, text in inbox.yield(text) }
            socket.onClose.whenComplete { _ in inbox.finish() }
            handOver.yield(socket)
            handOver.finish()
        }
        for await socket in connected {
            return SocketClient(socket: socket, received: received)
        }
        throw Abort(.internalServerError, reason: "the WebSocket client never upgraded")
    }

    private init(socket: WebSocket, received: AsyncStream<String>) {
        self.socket = socket
        self.received = received
    }

    /// Sends `text` and returns the server's next text; `nil` when the socket closed first.
    func ask(_ text: String) async throws -> String? {
        try await socket.send(text)
        return await next()
    }

    /// The server's next text, or `nil` once the socket has closed.
    func next() async -> String? {
        var texts = received.makeAsyncIterator()
        return await texts.next()
    }

    /// Closes the socket normally and waits until it is closed.
    func close() async throws {
        try await socket.close(code: .normalClosure)
        try await socket.onClose.get()
    }
}
