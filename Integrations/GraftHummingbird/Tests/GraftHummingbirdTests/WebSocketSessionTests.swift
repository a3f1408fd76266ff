import Graft
import GraftHummingbird
import GraftHummingbirdWebSocket
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import HummingbirdWebSocket
import Logging
import NIOWebSocket
import Synchronization
import Testing

// A session scope per WebSocket connection, tagged `Connection`, and a scope per message under
// it, over real WebSockets on 127.0.0.1.

private enum Connection: ScopeTag {}

/// What happened, in order: each message's commit and each connection's end.
private final class Journal: Sendable {
    private let entries = Mutex<[String]>([])
    let sessionsClosed = Mutex(0)
    let closed = Signal()

    func record(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

/// One connection's subscriptions: made on its first message, disposed when its session closes.
private final class Subscriptions: Disposable {
    private let topics = Mutex<[String]>([])
    let journal: Journal

    init(journal: Journal) { self.journal = journal }

    func follow(_ topic: String) -> Int {
        topics.withLock { topics in
            topics.append(topic)
            return topics.count
        }
    }

    func dispose() {
        journal.record("closed \(topics.withLock { $0 })")
        journal.sessionsClosed.withLock { $0 += 1 }
        journal.closed.fire()
    }
}

/// One message's unit of work: kept in its completion step, before the reply is written.
private final class MessageWork: Completable {
    let subscriptions: Subscriptions
    private let topic = Mutex<String?>(nil)

    init(subscriptions: Subscriptions) { self.subscriptions = subscriptions }

    func follow(_ topic: String) throws -> String {
        if topic == "forbidden" { throw Forbidden() }
        self.topic.withLock { $0 = topic }
        return "following \(subscriptions.follow(topic))"
    }

    func complete() async throws {
        if let topic = topic.withLock({ $0 }) { subscriptions.journal.record("kept \(topic)") }
    }
}

private struct Forbidden: Error, CustomStringConvertible {
    var description: String { "that topic is forbidden" }
}

@Suite(.timeLimit(.minutes(1))) struct WebSocketSessionTests {
    private func app(
        _ journal: Journal,
        logger: Logger,
        closingSessionsAtShutdown: Bool = true
    ) async throws -> (some ApplicationProtocol, Container) {
        var builder = ContainerBuilder()
        builder.registerRequestValues()
        if closingSessionsAtShutdown { builder.registerWebSocketSessions() }
        builder.register(Journal.self, instance: journal)
        builder.register(
            Subscriptions.self,
            lifetime: .scoped(in: Connection.self),
            using: Subscriptions.init(journal:)
        )
        builder.register(MessageWork.self, lifetime: .scoped, using: MessageWork.init(subscriptions:))
        builder.onComplete(MessageWork.self)
        let container = try await builder.build()
        let router = Router(context: BasicGraftWebSocketRequestContext.self)
        router.ws("topics", container: container, session: Connection.self) { message, context in
            guard case .text(let topic) = message else { return nil }
            return .text(try await context.resolve(MessageWork.self).follow(topic))
        }
        let app = Application(
            router: Router(context: BasicGraftWebSocketRequestContext.self),
            server: .http1WebSocketUpgrade(webSocketRouter: router),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            logger: logger
        )
        return (app, container)
    }

    @Test func eachConnectionHasATaggedScopeAndEachMessageAScopeUnderItThatCompletes() async throws {
        let journal = Journal()
        let (app, container) = try await app(journal, logger: InMemoryLogHandler.logger().0)
        try await bounded("the live server with two WebSockets, one after the other") {
            _ = try await app.testLive { client in
                for topics in [["laps", "pit stops"], ["weather"]] {
                    _ = try await client.ws("/topics") { inbound, outbound, _ in
                        var replies = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
                        for (index, topic) in topics.enumerated() {
                            try await outbound.write(.text(topic))
                            #expect(try await replies.next() == .text("following \(index + 1)"))
                        }
                    }
                    // The server closes the session's scope once the client has hung up.
                    try await bounded("the session's closing") { await journal.closed.wait() }
                    journal.closed.reset()
                }
            }
        }
        try await container.shutdown()
        #expect(
            journal.all == [
                "kept laps", "kept pit stops", #"closed ["laps", "pit stops"]"#, "kept weather", #"closed ["weather"]"#,
            ]
        )
        #expect(journal.sessionsClosed.withLock { $0 } == 2)
    }

    @Test func aFailingMessageIsLoggedWithItsConnectionAndNumberAndTheNextIsServed() async throws {
        let journal = Journal()
        let (logger, logs) = InMemoryLogHandler.logger()
        let (app, container) = try await app(journal, logger: logger)
        try await bounded("the live server with a WebSocket whose second message fails") {
            _ = try await app.testLive { client in
                _ = try await client.ws("/topics") { inbound, outbound, _ in
                    var replies = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
                    try await outbound.write(.text("laps"))
                    #expect(try await replies.next() == .text("following 1"))
                    try await outbound.write(.text("forbidden"))  // no reply, nothing kept
                    try await outbound.write(.text("weather"))
                    #expect(try await replies.next() == .text("following 2"))
                }
                try await bounded("the session's closing") { await journal.closed.wait() }
            }
        }
        try await container.shutdown()
        #expect(journal.all == ["kept laps", "kept weather", "closed [\"laps\", \"weather\"]"])
        let line = try #require(logs.errors.first)
        #expect(logs.errors.count == 1)
        let connection = try #require(line.metadata["hb.request.id"])
        #expect(line.message == "message 2 of WebSocket connection \(connection) failed: that topic is forbidden")
        #expect(line.metadata["graft.websocket.message"] == "2")
        #expect(line.metadata["hb.request.route"] == "/topics")
    }

    // Every wait below is bounded (`bounded`): a connection that is never closed fails the test
    // with what was awaited instead of hanging the test process. What ends each wait is an event
    // (a reply, a close frame, a disposal), never a length of time.

    @Test func theContainersShutdownClosesAnOpenSessionOnceAndTheConnectionWithACloseFrame() async throws {
        let journal = Journal()
        let (app, container) = try await app(journal, logger: InMemoryLogHandler.logger().0)
        try await bounded("the live server with a WebSocket open while the container shuts down") {
            _ = try await app.testLive { client in
                let close = try await client.ws("/topics") { inbound, outbound, _ in
                    var replies = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
                    try await outbound.write(.text("laps"))
                    #expect(try await replies.next() == .text("following 1"))
                    // The container shuts down while the connection is open and idle: closing the
                    // session's scope sends the close frame, before the shutdown returns.
                    try await container.shutdown()
                    #expect(journal.sessionsClosed.withLock { $0 } == 1)
                    #expect(try await replies.next() == nil)
                }
                #expect(close?.closeCode == .goingAway)
            }
        }
        #expect(journal.all == ["kept laps", "closed [\"laps\"]"])
        #expect(journal.sessionsClosed.withLock { $0 } == 1)
    }

    @Test func withoutTheRegistrationTheNextMessageFindsTheSessionClosedAndEndsTheConnection() async throws {
        let journal = Journal()
        let (app, container) = try await app(
            journal,
            logger: InMemoryLogHandler.logger().0,
            closingSessionsAtShutdown: false
        )
        try await bounded("the live server with a WebSocket open while the container shuts down") {
            _ = try await app.testLive { client in
                let close = try await client.ws("/topics") { inbound, outbound, _ in
                    var replies = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
                    try await outbound.write(.text("laps"))
                    #expect(try await replies.next() == .text("following 1"))
                    try await container.shutdown()
                    #expect(journal.sessionsClosed.withLock { $0 } == 1)
                    // The next message finds the session closed: the server closes the connection.
                    try await outbound.write(.text("weather"))
                    #expect(try await replies.next() == nil)
                }
                #expect(close?.closeCode == .goingAway)
            }
        }
        #expect(journal.all == ["kept laps", "closed [\"laps\"]"])
        #expect(journal.sessionsClosed.withLock { $0 } == 1)
    }

    @Test func theServersGracefulShutdownClosesAnOpenSessionOnceWithACloseFrame() async throws {
        let journal = Journal()
        let (app, container) = try await app(journal, logger: InMemoryLogHandler.logger().0)
        let connection = Mutex<Task<WebSocketCloseFrame?, any Error>?>(nil)
        try await bounded("the live server's graceful shutdown with a WebSocket open") {
            _ = try await app.testLive { client in
                let opened = Signal()
                let task = Task {
                    try await client.ws("/topics") { inbound, outbound, _ in
                        var replies = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
                        try await outbound.write(.text("laps"))
                        #expect(try await replies.next() == .text("following 1"))
                        opened.fire()
                        // The server shuts down gracefully: its close frame ends the messages.
                        #expect(try await replies.next() == nil)
                    }
                }
                connection.withLock { $0 = task }
                try await bounded("the session's opening") { await opened.wait() }
                // Returning shuts the server down gracefully with the connection open.
            }
            let task = try #require(connection.withLock { $0 })
            let close = try await task.value
            #expect(close?.closeCode == .normalClosure)
        }
        #expect(journal.all == ["kept laps", "closed [\"laps\"]"])
        #expect(journal.sessionsClosed.withLock { $0 } == 1)
        try await container.shutdown()
        #expect(journal.sessionsClosed.withLock { $0 } == 1)
    }
}
