import Graft
import GraftVapor
import Testing
import Vapor

/// A signal that never comes: what a handler stuck on a lost connection waits for.
private final class NeverSignal: Sendable {
    private let (signal, source) = AsyncStream<Void>.makeStream()

    /// Waits until the task is cancelled (an `AsyncStream` ends its wait then).
    func wait() async {
        for await _ in signal {}
    }

    /// Waits whether or not the task is cancelled, until ``release()``.
    func waitIgnoringCancellation() async {
        let signal = signal
        await Task { for await _ in signal {} }.value  // an unstructured task: not cancelled with the handler
    }

    /// Ends every wait, so no task outlives the test.
    func release() { source.finish() }
}

/// A request that outlives its deadline is cancelled, its scope failed and closed, the client
/// answered 503 at once, and the log names the request and what its scope still held.
@Suite(.timeLimit(.minutes(1))) struct RequestDeadlineTests {
    private func app(
        _ ledger: Ledger,
        _ journal: Journal,
        _ never: NeverSignal,
        logs: InMemoryLogHandler.Store,
        deadline: Duration = .milliseconds(200)
    ) async throws -> Application {
        var builder = ContainerBuilder()
        builder.register(Ledger.self, instance: ledger)
        builder.register(UnitOfWork.self, lifetime: .scoped, using: UnitOfWork.init(ledger:))
        builder.register(OrderTransaction.self, lifetime: .scoped) { _ in
            OrderTransaction(journal: journal, commitFails: false)
        }
        builder.onComplete(OrderTransaction.self)
        let app = try await Application.make(.testing)
        app.logger = Logger(label: "test") { _ in InMemoryLogHandler(store: logs) }
        app.graft.install(try await builder.build(), requestDeadline: deadline)
        app.get("orders", ":id") { req async throws -> String in
            _ = try await req.resolve(UnitOfWork.self)
            _ = try await req.resolve(OrderTransaction.self)
            await never.wait()
            journal.append(Task.isCancelled ? "handler cancelled" : "handler went on")
            return "answered"
        }
        app.get("stubborn") { req async throws -> String in
            _ = try await req.resolve(UnitOfWork.self)
            await never.waitIgnoringCancellation()
            return "answered late"
        }
        app.get("quick") { req async throws -> String in
            _ = try await req.resolve(OrderTransaction.self)
            return "quick"
        }
        return app
    }

    @Test func aHandlerPastItsDeadlineIsCancelledItsScopeFailedAndClosedAndTheClientAnswered503() async throws {
        let (ledger, journal, never, logs) = (Ledger(), Journal(), NeverSignal(), InMemoryLogHandler.Store())
        defer { never.release() }
        let response = try await LiveServer.run(try await app(ledger, journal, never, logs: logs)) { server in
            let response = try await server.get("orders/7")
            await journal.waitFor(2)
            return response
        }
        #expect(response.status == .serviceUnavailable)
        #expect(response.body.contains("The request took longer than the server allows."))
        #expect(!response.body.contains("UnitOfWork"))
        // The handler's cancellation and the scope's closing run side by side.
        #expect(Set(journal.all) == ["handler cancelled", "ROLLBACK"])
        #expect(ledger.disposed == ["unit of work 1"])
        let record = try #require(logs.errors.first)
        let requestID = try #require(record.metadata["request-id"])
        #expect(
            logs.errors.map(\.message) == [
                """
                GET /orders/:id (request \(requestID)) gave no response within its deadline of 200 ms: the handler \
                was cancelled, the request's scope failed and closed, and the client was answered 503 Service Unavailable
                  the scope still held: OrderTransaction, UnitOfWork, OrderTransaction (not completed)
                  a longer deadline: app.graft.install(container, requestDeadline: .seconds(60)); none: requestDeadline: nil
                """
            ]
        )
        #expect(record.metadata["http.request.method"] == "GET")
        #expect(record.metadata["http.route"] == "/orders/:id")
    }

    @Test func aHandlerThatIgnoresCancellationDoesNotKeepTheClientWaiting() async throws {
        let (ledger, journal, never, logs) = (Ledger(), Journal(), NeverSignal(), InMemoryLogHandler.Store())
        defer { never.release() }
        let response = try await LiveServer.run(try await app(ledger, journal, never, logs: logs)) { server in
            let response = try await server.get("stubborn")
            #expect(ledger.disposed == ["unit of work 1"])  // closed before the answer, the handler still waiting
            never.release()
            return response
        }
        #expect(response.status == .serviceUnavailable)
        #expect(logs.errors.map(\.message).first?.contains("the scope still held: UnitOfWork") == true)
    }

    @Test func aRequestWithinTheDefaultDeadlineIsAnsweredAndCommittedAsUsual() async throws {
        let (ledger, journal, never, logs) = (Ledger(), Journal(), NeverSignal(), InMemoryLogHandler.Store())
        defer { never.release() }
        let app = try await app(ledger, journal, never, logs: logs, deadline: GraftScopeMiddleware.defaultDeadline)
        let response = try await LiveServer.run(app) { server in try await server.get("quick") }
        #expect(response.status == .ok)
        #expect(response.body == "quick")
        #expect(journal.all == ["COMMIT", "release"])
        #expect(logs.errors.isEmpty)
    }
}
