import AsyncHTTPClient
import Graft
import GraftVapor
import Logging
import NIOCore
import Synchronization
import Testing
import Vapor

// The code of the article `RequestScopesInVapor.md` and of the catalog's landing page, compiled
// and run. The root package's DocumentedCodeTests checks that every line of their `swift` blocks
// is here.

// MARK: - Services

/// One per application: the connections every request borrows from.
final class ConnectionPool: Disposable {
    private let state = Mutex((leased: 0, commits: 0, isClosed: false))

    var leased: Int { state.withLock { $0.leased } }
    var commits: Int { state.withLock { $0.commits } }
    var isClosed: Bool { state.withLock { $0.isClosed } }

    func lease() { state.withLock { $0.leased += 1 } }
    func commit() { state.withLock { $0.commits += 1 } }
    func giveBack() { state.withLock { $0.leased -= 1 } }

    func dispose() {
        state.withLock { $0.isClosed = true }
    }
}

/// One per request: holds a connection until the request is done.
final class Transaction: Completable, AsyncDisposable {
    let requestID: RequestID
    private let logger: Logger
    private let pool: ConnectionPool

    init(requestID: RequestID, logger: Logger, pool: ConnectionPool) {
        self.requestID = requestID
        self.logger = logger
        self.pool = pool
        pool.lease()
    }

    /// The request's completion step: after the handler returned, before the response is sent.
    func complete() async throws {
        pool.commit()
        logger.debug("transaction committed")
    }

    func dispose() async throws {
        pool.giveBack()
        logger.debug("transaction closed")
    }
}

// MARK: - From an empty app to a handler

func configure(_ app: Application) async throws {
    var builder = ContainerBuilder()
    builder.registerRequestValues()
    builder.register(ConnectionPool.self, lifetime: .singleton, using: ConnectionPool.init)
    builder.register(Transaction.self, lifetime: .scoped, using: Transaction.init(requestID:logger:pool:))
    builder.onComplete(Transaction.self)
    app.graft.install(try await builder.build())

    app.get("orders") { req async throws -> String in
        let transaction = try await req.resolve(Transaction.self)
        return "orders read in request \(transaction.requestID)"
    }

    app.get("orders", "export") { req async throws -> Response in
        Response(
            body: .init(asyncStream: { writer in
                let transaction = try await req.resolve(Transaction.self)  // the scope is still open
                try await writer.write(.buffer(ByteBuffer(string: "orders of \(transaction.requestID)\n")))
                try await writer.write(.end)
            })
        )
    }
}

@Suite(.timeLimit(.minutes(1)))
struct RequestScopesInVaporSnippets {
    /// Makes an application configured the article's way, and its pool.
    private func makeApp() async throws -> (Application, ConnectionPool) {
        let app = try await Application.make(.testing)
        try await configure(app)
        let container = try #require(app.graft.container)
        return (app, try await container.resolve(ConnectionPool.self))
    }

    @Test func eachRequestGetsItsOwnTransactionReturnedAfterTheResponse() async throws {
        let (app, pool) = try await makeApp()
        let requests = 8
        let bodies = try await LiveServer.run(app, connections: requests) { server in
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<requests {
                    group.addTask {
                        let response = try await server.get("orders")
                        #expect(response.status == .ok)
                        return response.body
                    }
                }
                let bodies = try await group.reduce(into: [String]()) { $0.append($1) }
                // Every scope completed and closed before its response was sent.
                #expect(pool.commits == requests)
                #expect(pool.leased == 0)
                return bodies
            }
        }
        #expect(Set(bodies).count == requests)
        #expect(bodies.allSatisfy { $0.hasPrefix("orders read in request ") })
        // The application's shutdown shut the container down.
        #expect(pool.isClosed)
    }

    @Test func aStreamingBodyKeepsItsTransactionUntilItFinishes() async throws {
        let (app, pool) = try await makeApp()
        try await LiveServer.run(app) { server in
            let response = try await server.get("orders/export")
            #expect(response.status == .ok)
            #expect(response.body.hasPrefix("orders of "))
            // The scope closes when the stream lets go of the request, just after the last byte.
            for _ in 0..<1_000 where pool.leased != 0 {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(pool.leased == 0)
            #expect(!pool.isClosed)
        }
        #expect(pool.isClosed)
    }

    @Test func aContainerThatWasShutDownRefusesToResolve() async throws {
        let (app, pool) = try await makeApp()
        let container = try #require(app.graft.container)
        try await app.asyncShutdown()
        #expect(pool.isClosed)
        let error = await #expect(throws: GraftError.self) { try await container.resolve(ConnectionPool.self) }
        #expect(error?.code == .closed)
    }
}
