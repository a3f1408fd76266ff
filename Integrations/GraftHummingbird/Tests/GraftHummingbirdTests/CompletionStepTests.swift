import Foundation
import Graft
import GraftHummingbird
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOPosix
import Testing

/// What happened to the units of work, in order.
private final class Journal: @unchecked Sendable {
    // Sound: `entries` is private and only touched with `lock` held.
    private let lock = NSLock()
    private var entries: [String] = []
    func append(_ entry: String) {
        lock.lock()
        defer { lock.unlock() }
        entries.append(entry)
    }
    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return entries
    }
}

private struct UniqueViolation: Error, CustomStringConvertible {
    var description: String { #"duplicate key value violates unique constraint "orders_pkey""# }
}

/// A request's transaction: COMMIT in the completion step, ROLLBACK (when not committed) in dispose().
private final class UnitOfWork: Completable, AsyncDisposable {
    let journal: Journal
    let commitFails: Bool
    private let lock = NSLock()
    private nonisolated(unsafe) var committed = false  // Sound: only touched with `lock` held.

    init(journal: Journal, commitFails: Bool) {
        self.journal = journal
        self.commitFails = commitFails
    }

    func complete() async throws {
        guard !commitFails else {
            journal.append("COMMIT failed")
            throw UniqueViolation()
        }
        journal.append("COMMIT")
        lock.withLock { committed = true }
    }

    func dispose() async {
        journal.append(lock.withLock { committed } ? "release" : "ROLLBACK")
    }
}

/// A response claims only what was committed: the scope's completion step runs before the
/// response is sent (before a streamed body's end), and a failure there reaches the client.
@Suite(.timeLimit(.minutes(1))) struct CompletionStepTests {
    private func app(
        _ journal: Journal,
        commitFails: Bool,
        logger: Logger,
        on server: ServerKind
    ) throws -> some ApplicationProtocol {
        var builder = ContainerBuilder()
        builder.register(UnitOfWork.self, lifetime: .scoped) { _ in
            UnitOfWork(journal: journal, commitFails: commitFails)
        }
        builder.onComplete(UnitOfWork.self)
        let router = Router(context: BasicGraftRequestContext.self)
        router.add(middleware: RequestScopeMiddleware(try builder.build()))
        router.post("orders") { _, context -> Response in
            _ = try await context.resolve(UnitOfWork.self)
            journal.append("INSERT")
            return Response(status: .created, body: ResponseBody(byteBuffer: ByteBuffer(string: "order 7")))
        }
        router.get("export") { _, context -> Response in
            let unitOfWork = try await context.resolve(UnitOfWork.self)
            return Response(
                status: .ok,
                body: ResponseBody { writer in
                    for row in 1...3 {
                        unitOfWork.journal.append("row \(row)")
                        try await writer.write(ByteBuffer(string: "row \(row)\n"))
                    }
                    try await writer.finish(nil)
                }
            )
        }
        return Application(
            router: router,
            server: server.builder,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            logger: logger
        )
    }

    @Test(arguments: ServerKind.allCases)
    func aCommitThatSucceedsHappensBeforeTheClientIsAnswered(on server: ServerKind) async throws {
        let journal = Journal()
        let (logger, logs) = InMemoryLogHandler.logger()
        try await app(journal, commitFails: false, logger: logger, on: server).test(.live) { client in
            try await client.execute(uri: "/orders", method: .post) { response in
                #expect(response.status == .created)
                #expect(String(buffer: response.body) == "order 7")
                #expect(journal.all.prefix(2) == ["INSERT", "COMMIT"])  // committed before the answer
            }
        }
        #expect(journal.all == ["INSERT", "COMMIT", "release"])
        #expect(logs.errors.isEmpty)
    }

    @Test(arguments: ServerKind.allCases)
    func aCommitThatFailsTurnsTheResponseInto500AndIsLogged(on server: ServerKind) async throws {
        let journal = Journal()
        let (logger, logs) = InMemoryLogHandler.logger()
        try await app(journal, commitFails: true, logger: logger, on: server).test(.live) { client in
            try await client.execute(uri: "/orders", method: .post) { response in
                #expect(response.status == .internalServerError)
                #expect(!String(buffer: response.body).contains("order 7"))
                #expect(!String(buffer: response.body).contains("orders_pkey"))
            }
        }
        #expect(journal.all == ["INSERT", "COMMIT failed", "ROLLBACK"])
        #expect(
            logs.errors.map(\.message) == [
                """
                Graft: complete() of UnitOfWork threw: duplicate key value violates unique constraint "orders_pkey"
                  the scope's work was not completed; its dispose() still runs when the scope closes
                """
            ]
        )
        #expect(logs.errors.first?.metadata["hb.request.id"] != nil)
    }

    @Test(arguments: [false, true], ServerKind.allCases)
    func aStreamedBodyCommitsAfterItsLastByteAndBeforeItsEnd(commitFails: Bool, on server: ServerKind) async throws {
        let journal = Journal()
        let (logger, logs) = InMemoryLogHandler.logger()
        let raw = try await app(journal, commitFails: commitFails, logger: logger, on: server).test(.live) { client in
            try await Self.rawGet("/export", port: try #require(client.port))
        }
        #expect(raw.hasPrefix("HTTP/1.1 200 OK"))
        #expect(raw.contains("row 3\n"))
        // A chunked body ends with an empty chunk: sent only when the commit succeeded.
        #expect(raw.hasSuffix("\r\n0\r\n\r\n") == !commitFails)
        #expect(
            journal.all == ["row 1", "row 2", "row 3"]
                + (commitFails ? ["COMMIT failed", "ROLLBACK"] : ["COMMIT", "release"])
        )
        #expect(logs.errors.count == (commitFails ? 1 : 0))
    }

    /// The raw bytes of a response to `GET path`, read until the server closes the connection.
    private static func rawGet(_ path: String, port: Int) async throws -> String {
        let connection = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await connection.executeThenClose { inbound, outbound in
            try await outbound.write(
                ByteBuffer(string: "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            )
            var received = ""
            do {
                for try await buffer in inbound { received += String(buffer: buffer) }
            } catch {
                // A connection reset ends the response too.
            }
            return received
        }
    }
}
