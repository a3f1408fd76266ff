import Graft
import GraftHummingbird
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

/// What each request's transaction did when its scope closed.
private final class Ledger: Sendable {
    private let endings = Mutex<[String]>([])
    func append(_ ending: String) { endings.withLock { $0.append(ending) } }
    var all: [String] { endings.withLock { $0 } }
}

/// Stands in for a unit of work: commits or rolls back when disposed, as the outcome says.
private final class Transaction: Disposable {
    let outcome: RequestOutcome
    let ledger: Ledger
    init(outcome: RequestOutcome, ledger: Ledger) {
        self.outcome = outcome
        self.ledger = ledger
    }
    func dispose() { ledger.append(outcome.failed ? "rollback" : "commit") }
}

private struct WriteFailure: Error {}

@Suite(.timeLimit(.minutes(1))) struct RequestOutcomeTests {
    @Test(arguments: ServerKind.allCases)
    func aFailedRequestRollsBackAndASuccessfulOneCommits(on server: ServerKind) async throws {
        let ledger = Ledger()
        var builder = ContainerBuilder()
        builder.register(Ledger.self, instance: ledger)
        builder.register(Transaction.self, lifetime: .scoped, using: Transaction.init(outcome:ledger:))
        let container = try await builder.build()

        let router = Router(context: BasicGraftRequestContext.self)
        router.add(middleware: RequestScopeMiddleware(container))
        router.get("ok") { _, context -> String in
            _ = try await context.resolve(Transaction.self)
            return "ok"
        }
        router.get("bad") { _, context -> String in
            _ = try await context.resolve(Transaction.self)
            throw HTTPError(.conflict)
        }
        router.get("cut") { _, context -> Response in
            _ = try await context.resolve(Transaction.self)
            return Response(
                status: .ok,
                body: ResponseBody(contentLength: 10) { writer in
                    try await writer.write(ByteBuffer(string: "12345"))
                    throw WriteFailure()  // after the handler returned: writing the body fails
                }
            )
        }
        let app = Application(
            router: router,
            server: server.builder,
            configuration: .init(address: .hostname("127.0.0.1", port: 0))
        )
        try await app.test(.live) { client in
            try await client.execute(uri: "/bad", method: .get) { #expect($0.status == .conflict) }
            #expect(ledger.all == ["rollback"])
            try await client.execute(uri: "/ok", method: .get) { #expect($0.status == .ok) }
            // The server gives up on the connection: the client sees an error or a cut response.
            _ = try? await client.execute(uri: "/cut", method: .get) { $0.status }
        }
        while ledger.all.count < 3 { await Task.yield() }
        #expect(ledger.all == ["rollback", "commit", "rollback"])
    }
}
