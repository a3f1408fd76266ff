import Graft
import GraftVapor
import NIOWebSocket
import Synchronization
import Testing
import Vapor

private enum ChatSession: ScopeTag {}

/// Made once per connection, in its session scope.
private final class ChatMember: AsyncDisposable {
    let number: Int
    private let journal: Journal

    init(journal: Journal, counter: MemberCounter) {
        self.journal = journal
        self.number = counter.next()
        journal.append("member \(number) joined")
    }

    func dispose() async {
        journal.append("member \(number) left")
    }
}

private final class MemberCounter: Sendable {
    private let count = Atomic(0)
    func next() -> Int { count.add(1, ordering: .relaxed).newValue }
}

/// Made once per message: commits in the message's completion step.
private final class Post: Completable, AsyncDisposable {
    let requestID: RequestID
    private let journal: Journal
    private let committed = Atomic(false)

    init(requestID: RequestID, journal: Journal) {
        self.requestID = requestID
        self.journal = journal
    }

    func complete() async {
        committed.store(true, ordering: .relaxed)
        journal.append("commit \(requestID.value.split(separator: "-").last ?? "")")
    }

    func dispose() async {
        if !committed.load(ordering: .relaxed) { journal.append("rollback") }
    }
}

/// A WebSocket connection gets a session scope tagged with the route's tag and given the
/// request's values; each message runs in a scope of its own under it, completed and closed;
/// the session scope closes once, at disconnect or at the application's shutdown, which sends
/// every socket a close frame.
@Suite(.timeLimit(.minutes(1))) struct WebSocketSessionTests {
    private func app(_ journal: Journal, logs: InMemoryLogHandler.Store) async throws -> Application {
        var builder = ContainerBuilder()
        builder.registerRequestValues()
        builder.register(Journal.self, instance: journal)
        builder.register(MemberCounter.self, instance: MemberCounter())
        builder.register(ChatMember.self, lifetime: .scoped(in: ChatSession.self), using: ChatMember.init)
        builder.register(Post.self, lifetime: .scoped, using: Post.init)
        builder.onComplete(Post.self)
        let app = try await Application.make(.testing)
        app.logger = Logger(label: "test") { _ in InMemoryLogHandler(store: logs) }
        app.graft.install(try await builder.build())
        app.webSocket("chat", ":room", session: ChatSession.self) { session in
            let member = try await session.resolve(ChatMember.self)
            let room = session.parameters.get("room") ?? "?"
            try await session.socket.send("member \(member.number) in \(room), request \(session.requestID)")
        } onText: { text, message in
            guard text != "oops" else { throw DiskFull() }
            let member = try await message.resolve(ChatMember.self)
            let post = try await message.resolve(Post.self)
            let loop = try await message.resolve((any EventLoop).self)
            let onItsLoop = loop === message.session.socket.eventLoop ? "on its loop" : "elsewhere"
            try await message.session.socket.send("\(text) by \(member.number) as \(post.requestID), \(onItsLoop)")
        }
        return app
    }

    @Test func eachMessageRunsInAScopeUnderTheSessionsThatCompletesAndCloses() async throws {
        let (journal, logs) = (Journal(), InMemoryLogHandler.Store())
        try await LiveServer.run(try await app(journal, logs: logs)) { server in
            let client = try await SocketClient.connect(to: server, "chat/lobby")
            let greeting = try #require(await client.next())
            let requestID = try #require(greeting.split(separator: " ").last.map(String.init))
            #expect(greeting == "member 1 in lobby, request \(requestID)")
            #expect(try await client.ask("hello") == "hello by 1 as \(requestID)-1, on its loop")
            #expect(try await client.ask("again") == "again by 1 as \(requestID)-2, on its loop")
            try await client.close()
            await journal.waitFor(4)
            #expect(journal.all == ["member 1 joined", "commit 1", "commit 2", "member 1 left"])
        }
        #expect(journal.all.filter { $0 == "member 1 left" }.count == 1)
        #expect(logs.errors.isEmpty)
    }

    @Test func aMessageThatFailsIsLoggedWithItsIDAndTheConnectionStaysOpen() async throws {
        let (journal, logs) = (Journal(), InMemoryLogHandler.Store())
        try await LiveServer.run(try await app(journal, logs: logs)) { server in
            let client = try await SocketClient.connect(to: server, "chat/lobby")
            let greeting = try #require(await client.next())
            let requestID = try #require(greeting.split(separator: " ").last.map(String.init))
            try await client.socket.send("oops")
            #expect(try await client.ask("still here") == "still here by 1 as \(requestID)-2, on its loop")
            try await client.close()
            await journal.waitFor(3)
            #expect(logs.errors.map(\.message) == ["no space left on device"])
            #expect(logs.errors.first?.metadata["request-id"] == "\(requestID)-1")
            #expect(logs.errors.first?.metadata["http.route"] == "/chat/:room")
        }
        #expect(journal.all == ["member 1 joined", "commit 2", "member 1 left"])
    }

    @Test func shutdownSendsEveryOpenSocketACloseFrameAndClosesEachSessionOnce() async throws {
        let (journal, logs) = (Journal(), InMemoryLogHandler.Store())
        let app = try await app(journal, logs: logs)
        let connections = 20
        let (clients, elapsed) = try await LiveServer.run(app, connections: connections) { server in
            var clients: [SocketClient] = []
            for _ in 0..<connections {
                let client = try await SocketClient.connect(to: server, "chat/lobby")
                _ = await client.next()  // its session is open
                clients.append(client)
            }
            let started = ContinuousClock.now
            try await app.asyncShutdown()
            for client in clients { try await client.socket.onClose.get() }
            return (clients, ContinuousClock.now - started)
        }
        print("shutdown with \(connections) WebSockets open took \(elapsed)")
        #expect(clients.map(\.socket.closeCode) == Array(repeating: .goingAway, count: connections))
        let left = journal.all.filter { $0.hasSuffix(" left") }
        #expect(left.count == connections)
        #expect(Set(left).count == connections)
        #expect(logs.errors.isEmpty)
    }
}

private struct DiskFull: Error, CustomStringConvertible {
    var description: String { "no space left on device" }
}
