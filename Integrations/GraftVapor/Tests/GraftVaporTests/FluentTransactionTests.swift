import AsyncHTTPClient
import Fluent
import FluentSQLiteDriver
import Graft
import GraftFluent
import GraftVapor
import Testing
import Vapor

/// The request's Fluent database is a scoped service on the request's event loop, and its
/// transaction commits in the completion step, before the response, and rolls back otherwise;
/// on in-memory SQLite.
@Suite(.timeLimit(.minutes(1))) struct FluentTransactionTests {
    private struct Line: Content {
        let room: Int
        let text: String
    }

    /// An application on an in-memory SQLite database whose `lines` table checks its room only at
    /// `COMMIT` (a deferred foreign key): a line for a room that does not exist fails to commit.
    private func app(
        logs: InMemoryLogHandler.Store,
        deadline: Duration = GraftScopeMiddleware.defaultDeadline
    )
        async throws -> Application
    {
        let app = try await Application.make(.testing)
        app.logger = Logger(label: "test") { _ in InMemoryLogHandler(store: logs) }
        app.databases.use(.sqlite(.memory), as: .sqlite)
        let sql = try #require(app.db as? any SQLDatabase)
        try await sql.raw("CREATE TABLE rooms (id INTEGER PRIMARY KEY)").run()
        try await sql.raw("INSERT INTO rooms (id) VALUES (1)").run()
        try await sql.raw(
            """
            CREATE TABLE lines (id INTEGER PRIMARY KEY, text TEXT NOT NULL,
                room INTEGER NOT NULL REFERENCES rooms(id) DEFERRABLE INITIALLY DEFERRED)
            """
        ).run()
        var builder = ContainerBuilder()
        builder.registerRequestValues()
        builder.registerFluent(app)
        app.graft.install(try await builder.build(), requestDeadline: deadline)
        app.post("lines") { req async throws -> HTTPStatus in
            let line = try req.content.decode(Line.self)
            let transaction = try await req.resolve(FluentTransaction.self)
            let sql = try #require(transaction.database as? any SQLDatabase)
            try await sql.raw("INSERT INTO lines (room, text) VALUES (\(bind: line.room), \(bind: line.text))").run()
            guard line.text != "take it back" else { throw Abort(.conflict, reason: "taken back") }
            return .created
        }
        app.get("loop") { req async throws -> String in
            let database = try await req.resolve((any Database).self)
            return database.eventLoop === req.eventLoop ? "the request's loop" : "another loop"
        }
        return app
    }

    private func texts(_ app: Application) async throws -> [String] {
        let sql = try #require(app.db as? any SQLDatabase)
        return try await sql.raw("SELECT text FROM lines ORDER BY id").all().map {
            try $0.decode(column: "text", as: String.self)
        }
    }

    private func post(_ line: Line, to server: LiveServer) async throws -> HTTPResponseStatus {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(server.port)/lines")
        request.method = .POST
        request.headers.contentType = .json
        request.body = .bytes(ByteBuffer(string: #"{"room": \#(line.room), "text": "\#(line.text)"}"#))
        return try await server.client.execute(request, timeout: .seconds(30)).status
    }

    @Test func aRequestsWritesAreCommittedBeforeItsResponse() async throws {
        let logs = InMemoryLogHandler.Store()
        let app = try await app(logs: logs)
        try await LiveServer.run(app) { server async throws in
            #expect(try await post(Line(room: 1, text: "hello"), to: server) == .created)
            #expect(try await texts(app) == ["hello"])  // committed before the 201 was sent
        }
        #expect(logs.errors.isEmpty)
    }

    @Test func aRequestThatFailsIsRolledBack() async throws {
        let logs = InMemoryLogHandler.Store()
        let app = try await app(logs: logs)
        try await LiveServer.run(app) { server async throws in
            #expect(try await post(Line(room: 1, text: "take it back"), to: server) == .conflict)
            #expect(try await post(Line(room: 1, text: "kept"), to: server) == .created)
            #expect(try await texts(app) == ["kept"])
        }
        #expect(logs.errors.isEmpty)
    }

    @Test func aCommitThatFailsIsA500AndLogged() async throws {
        let logs = InMemoryLogHandler.Store()
        let app = try await app(logs: logs)
        try await LiveServer.run(app) { server async throws in
            #expect(try await post(Line(room: 99, text: "nowhere"), to: server) == .internalServerError)
            #expect(try await post(Line(room: 1, text: "somewhere"), to: server) == .created)  // the connection is back
            #expect(try await texts(app) == ["somewhere"])
        }
        #expect(
            logs.errors.map(\.message) == [
                """
                Graft: complete() of FluentTransaction threw: constraintForeignKeyFailed: FOREIGN KEY constraint failed
                  the scope's work was not completed; its dispose() still runs when the scope closes
                """
            ]
        )
    }

    @Test func theRequestsDatabaseIsOnTheRequestsEventLoop() async throws {
        let app = try await app(logs: InMemoryLogHandler.Store())
        let body = try await LiveServer.run(app) { try await $0.get("loop").body }
        #expect(body == "the request's loop")
    }

    @Test func aRequestPastItsDeadlineRollsBackAndGivesItsConnectionBack() async throws {
        let logs = InMemoryLogHandler.Store()
        let app = try await app(logs: logs, deadline: .milliseconds(200))
        let (never, release) = AsyncStream<Void>.makeStream()
        defer { release.finish() }
        app.post("stuck") { req async throws -> HTTPStatus in
            let transaction = try await req.resolve(FluentTransaction.self)
            let sql = try #require(transaction.database as? any SQLDatabase)
            try await sql.raw("INSERT INTO lines (room, text) VALUES (1, 'stuck')").run()
            for await _ in never {}  // a query that is never answered
            return .created
        }
        try await LiveServer.run(app) { server async throws in
            #expect(try await server.send(.POST, "stuck").status == .serviceUnavailable)
            #expect(try await post(Line(room: 1, text: "after"), to: server) == .created)
            #expect(try await texts(app) == ["after"])
        }
        #expect(logs.errors.count == 1)
        #expect(logs.errors.first?.message.contains("the scope still held: FluentTransaction, ") == true)
    }

    @Test func aFluentDatabaseWithoutTheRequestsValuesIsReportedByBuild() async throws {
        let app = try await Application.make(.testing)
        var builder = ContainerBuilder()
        let line = #line + 1
        builder.registerFluent(app)
        let error = #expect(throws: GraftError.self) { try builder.build() }
        try await app.asyncShutdown()
        #expect(
            error?.description == """
                Graft: build() found 2 problems
                  1. no registration for Logger, which Database needs
                     resolving: Database → Logger
                     register it as long-lived as Database, which needs it, autowiring its initializer: builder.register(Logger.self, lifetime: .scoped, using: Logger.init), or as a value: builder.register(Logger.self, instance: Logger(...))
                     Database was registered at GraftVaporTests/FluentTransactionTests.swift:\(line)
                  2. no registration for EventLoop, which Database needs
                     resolving: Database → EventLoop
                     register it as long-lived as Database, which needs it, made by a type that conforms to EventLoop: builder.register((any EventLoop).self, lifetime: .scoped, using: <ConformingType>.init)
                     Database was registered at GraftVaporTests/FluentTransactionTests.swift:\(line)
                """
        )
    }
}
