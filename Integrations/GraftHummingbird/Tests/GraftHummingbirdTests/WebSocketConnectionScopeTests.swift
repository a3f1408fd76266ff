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
    private struct State {
        var followed: [[String]] = []
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }
    private let state = Mutex(State())

    func record(_ topics: [String]) {
        let ready = state.withLock { state in
            state.followed.append(topics)
            let count = state.followed.count
            let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= count }
            return ready
        }
        for waiter in ready { waiter.resume() }
    }

    var all: [[String]] { state.withLock { $0.followed } }

    /// Returns once `count` connections have been recorded: waits for what happens, not for a
    /// length of time (the suite's time limit is only a deadlock guard).
    func waitFor(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.followed.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }
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

@Suite(.timeLimit(.minutes(10))) struct WebSocketConnectionScopes {
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
        await closed.waitFor(2)
        #expect(closed.all == [["laps", "pit stops"], ["weather"]])
        try await container.shutdown()
    }
}
