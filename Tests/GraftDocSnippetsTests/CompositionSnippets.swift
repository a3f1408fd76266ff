import Graft
import Synchronization
import Testing

// The code of "Tagged scopes" in the article "Composition" (Composition.md), run: a scope per
// WebSocket connection, one per message under it, and what the article says they print.

enum CompositionArticle {
    enum Connection: ScopeTag {}

    struct ConnectionID: Sendable, CustomStringConvertible {
        let value: Int
        var description: String { "connection \(value)" }
    }

    final class Subscriptions: Disposable {
        let connection: ConnectionID
        let printed: Printed
        private let topics = Mutex<[String]>([])

        init(connection: ConnectionID, printed: Printed) {
            self.connection = connection
            self.printed = printed
        }

        func follow(_ topic: String) -> Int {
            topics.withLock { topics in
                topics.append(topic)
                return topics.count
            }
        }

        func dispose() { printed.print("\(connection) closed, following \(topics.withLock { $0 })") }
    }

    struct MessageHandler: Sendable {
        let subscriptions: Subscriptions

        func handle(_ topic: String) -> String {
            "\(subscriptions.connection) follows \(subscriptions.follow(topic)) topics"
        }
    }

    /// What the article's `print` calls would have written.
    final class Printed: Sendable {
        private let lines = Mutex<[String]>([])
        func print(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }
}

extension CompositionArticle {
    @Suite struct Snippets {
        @Test func aScopePerConnectionAndOnePerMessage() async throws {
            let printed = Printed()
            var builder = ContainerBuilder()
            builder.registerScopeValue(ConnectionID.self)
            builder.register(Printed.self, instance: printed)
            builder.register(
                Subscriptions.self,
                lifetime: .scoped(in: Connection.self),
                using: Subscriptions.init(connection:printed:)
            )
            builder.register(MessageHandler.self, using: MessageHandler.init(subscriptions:))
            let container = try await builder.build()

            func serve(_ connection: ConnectionID, messages: [String]) async throws {
                let connectionScope = try container.makeScope(tagged: Connection.self, providing: connection)
                for topic in messages {
                    let messageScope = connectionScope.makeScope()
                    printed.print(try await messageScope.resolve(MessageHandler.self).handle(topic))
                    try await messageScope.close()
                }
                try await connectionScope.close()
            }

            try await serve(ConnectionID(value: 1), messages: ["laps", "pit stops"])
            try await serve(ConnectionID(value: 2), messages: ["weather"])

            #expect(
                printed.all == [
                    "connection 1 follows 1 topics",
                    "connection 1 follows 2 topics",
                    #"connection 1 closed, following ["laps", "pit stops"]"#,
                    "connection 2 follows 1 topics",
                    #"connection 2 closed, following ["weather"]"#,
                ]
            )
        }
    }
}
