import Graft
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import HummingbirdWebSocket
import Synchronization
import Testing

// Tagged scopes over a real WebSocket on 127.0.0.1 (the article "Composition", "Tagged scopes"):
// a scope per connection, tagged `Connection`, and one per message under it.

private enum Connection: ScopeTag {}

/// What each connection's subscriptions followed, recorded as they are disposed.
private final class ClosedConnections: Sendable {
    private let followed = Mutex<[[String]]>([])
    func record(_ topics: [String]) { followed.withLock { $0.append(topics) } }
    var all: [[String]] { followed.withLock { $0 } }
}

/// One connection's subscriptions: made on its first message, disposed when it closes.
private final class Subscriptions: Disposable {
    private let topics = Mutex<[String]>([])
    let closed: ClosedConnections

    init(closed: ClosedConnections) { self.closed = closed }

    func follow(_ topic: String) -> Int {
        topics.withLock { topics in
            topics.append(topic)
            return topics.count
        }
    }

    func dispose() { closed.record(topics.withLock { $0 }) }
}

/// One message's work, made for each message in the message's scope.
private struct MessageHandler: Sendable {
    let subscriptions: Subscriptions

    func handle(_ topic: String) -> String { "following \(subscriptions.follow(topic))" }
}

@Suite struct WebSocketConnectionScopes {
    @Test func eachConnectionHasATaggedScopeAndEachMessageAScopeUnderIt() async throws {
        let closed = ClosedConnections()
        var builder = ContainerBuilder()
        builder.register(ClosedConnections.self, instance: closed)
        builder.register(Subscriptions.self, lifetime: .scoped(in: Connection.self), using: Subscriptions.init(closed:))
        builder.register(MessageHandler.self, using: MessageHandler.init(subscriptions:))
        let container = try await builder.build()
        let app = Application(
            router: Router(),
            server: .http1WebSocketUpgrade { _, _, _ in
                .upgrade([:]) { inbound, outbound, _ in
                    let connection = container.makeScope(tagged: Connection.self)
                    for try await message in inbound.messages(maxSize: 1 << 16) {
                        guard case .text(let topic) = message else { continue }
                        let scope = connection.makeScope()
                        let reply = try await scope.resolve(MessageHandler.self).handle(topic)
                        try await scope.close()
                        try await outbound.write(.text(reply))
                    }
                    try await connection.close()
                }
            },
            configuration: .init(address: .hostname("127.0.0.1", port: 0))
        )

        _ = try await app.test(.live) { client in
            for topics in [["laps", "pit stops"], ["weather"]] {
                _ = try await client.ws("/") { inbound, outbound, _ in
                    var replies = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
                    for (index, topic) in topics.enumerated() {
                        try await outbound.write(.text(topic))
                        #expect(try await replies.next() == .text("following \(index + 1)"))
                    }
                }
            }
        }

        // The server closes a connection's scope once the client has hung up.
        for _ in 0..<200 where closed.all.count < 2 {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(closed.all == [["laps", "pit stops"], ["weather"]])
        try await container.shutdown()
    }
}
