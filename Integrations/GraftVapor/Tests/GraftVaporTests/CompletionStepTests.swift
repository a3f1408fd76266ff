import AsyncHTTPClient
import Graft
import GraftVapor
import Testing
import Vapor

/// A response claims only what was committed: the scope's completion step runs before the
/// response is sent, and a failure there reaches the client as a 500.
@Suite(.timeLimit(.minutes(1))) struct CompletionStepTests {
    private func app(_ journal: Journal, commitFails: Bool, logs: InMemoryLogHandler.Store) async throws -> Application
    {
        var builder = ContainerBuilder()
        builder.register(OrderTransaction.self, lifetime: .scoped) { _ in
            OrderTransaction(journal: journal, commitFails: commitFails)
        }
        builder.onComplete(OrderTransaction.self)
        let app = try await Application.make(.testing)
        app.logger = Logger(label: "test") { _ in InMemoryLogHandler(store: logs) }
        app.graft.install(try await builder.build())
        app.post("orders") { req async throws -> Response in
            _ = try await req.resolve(OrderTransaction.self)
            journal.append("INSERT")
            return Response(status: .created, body: .init(string: "order 7"))
        }
        app.get("export") { req async throws -> Response in
            let transaction = try await req.resolve(OrderTransaction.self)
            return Response(
                body: .init(asyncStream: { writer in
                    for row in 1...3 {
                        transaction.journal.append("row \(row)")
                        try await writer.write(.buffer(ByteBuffer(string: "row \(row)\n")))
                    }
                    try await writer.write(.end)
                })
            )
        }
        return app
    }

    @Test func aCommitThatSucceedsHappensBeforeTheClientIsAnswered() async throws {
        let journal = Journal()
        let logs = InMemoryLogHandler.Store()
        let response = try await LiveServer.run(try await app(journal, commitFails: false, logs: logs)) { server in
            let response = try await server.send(.POST, "orders")
            #expect(journal.all == ["INSERT", "COMMIT", "release"])  // committed before the answer
            return response
        }
        #expect(response.status == .created)
        #expect(response.body == "order 7")
        #expect(logs.errors.isEmpty)
    }

    @Test func aCommitThatFailsTurnsTheResponseInto500AndIsLogged() async throws {
        let journal = Journal()
        let logs = InMemoryLogHandler.Store()
        let response = try await LiveServer.run(try await app(journal, commitFails: true, logs: logs)) { server in
            try await server.send(.POST, "orders")
        }
        #expect(response.status == .internalServerError)
        #expect(!response.body.contains("order 7"))
        #expect(!response.body.contains("orders_pkey"))
        #expect(journal.all == ["INSERT", "COMMIT failed", "ROLLBACK"])
        #expect(
            logs.errors.map(\.message) == [
                """
                Graft: complete() of OrderTransaction threw: duplicate key value violates unique constraint "orders_pkey"
                  the scope's work was not completed; its dispose() still runs when the scope closes
                """
            ]
        )
        #expect(logs.errors.first?.metadata["request-id"] != nil)
    }

    @Test(arguments: [false, true])
    func aStreamedBodyIsCompletedBeforeItStartsSoAFailureIsStillA500(commitFails: Bool) async throws {
        let journal = Journal()
        let logs = InMemoryLogHandler.Store()
        let app = try await app(journal, commitFails: commitFails, logs: logs)
        let response = try await LiveServer.run(app) { server in
            let response = try await server.get("export")
            if !commitFails { await journal.waitFor(5) }  // the stream lets go of the request after its end
            return response
        }
        #expect(response.status == (commitFails ? .internalServerError : .ok))
        if commitFails {
            #expect(!response.body.contains("row") && !response.body.contains("orders_pkey"))
        } else {
            #expect(response.body == "row 1\nrow 2\nrow 3\n")
        }
        #expect(
            journal.all
                == (commitFails ? ["COMMIT failed", "ROLLBACK"] : ["COMMIT", "row 1", "row 2", "row 3", "release"])
        )
        #expect(logs.errors.count == (commitFails ? 1 : 0))
    }
}
