import Graft
import GraftHummingbird
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

/// What a request's scope held when its deadline passed, and how its request ended.
private final class Probe: Disposable {
    let outcome: RequestOutcome
    let disposed: Signal
    private let failedWhenDisposed = Mutex<Bool?>(nil)

    init(outcome: RequestOutcome, disposed: Signal) {
        self.outcome = outcome
        self.disposed = disposed
    }

    /// Whether the request was marked failed when its scope closed; `nil` before.
    var failed: Bool? { failedWhenDisposed.withLock { $0 } }

    func dispose() {
        failedWhenDisposed.withLock { $0 = outcome.failed }
        disposed.fire()
    }
}

/// The probe made by the request, once it has been.
private final class Made: Sendable {
    let probe = Mutex<Probe?>(nil)
}

/// A request still running at its deadline: its handler is cancelled, its scope failed and
/// closed, the client answered 503, and one error line names the request and what it held.
@Suite(.timeLimit(.minutes(1))) struct RequestDeadlineTests {
    /// An app whose `/slow` route resolves a probe, then waits on `never` (fired only by the test,
    /// after the answer), cancellably or not. The deadline is short for a test, and long beside
    /// the microseconds a resolve takes, so the probe is made before it passes on a slow machine.
    private func app(
        logger: Logger,
        made: Made,
        never: Signal,
        cancelled: Signal,
        cancellable: Bool,
        guarded: Bool,
        deadline: Duration = .milliseconds(500),
        on server: ServerKind = .closingRequestScopes
    ) throws -> any ApplicationProtocol {
        let disposed = Signal()
        var builder = ContainerBuilder()
        builder.register(Signal.self, instance: disposed)
        builder.register(Probe.self, lifetime: .scoped, using: Probe.init(outcome:disposed:))
        let router = Router(context: BasicGraftRequestContext.self)
        router.add(middleware: RequestScopeMiddleware(try builder.build(), deadline: deadline))
        router.get("slow") { _, context -> String in
            let probe = try await context.resolve(Probe.self)
            made.probe.withLock { $0 = probe }
            if cancellable {
                do {
                    try await never.waitCancellably()
                } catch {
                    cancelled.fire()
                    throw error
                }
            } else {
                await never.wait()
                if Task.isCancelled { cancelled.fire() }
            }
            return "too late"
        }
        router.get("quick") { _, _ in "quick" }
        let configuration = ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0))
        if guarded {
            return Application(
                router: router.guardingRequests(),
                server: server.builder,
                configuration: configuration,
                logger: logger
            )
        }
        return Application(router: router, server: server.builder, configuration: configuration, logger: logger)
    }

    /// The one error line: its text, with the request's id from its metadata.
    private func expectDeadlineLine(_ logs: InMemoryLogHandler.Store) throws {
        let line = try #require(logs.errors.first)
        #expect(logs.errors.count == 1)
        let id = try #require(line.metadata["hb.request.id"])
        #expect(
            line.message
                == "GET /slow (request \(id)) was still running at its deadline of 0.5 seconds: answered 503, its "
                + "task was cancelled, and its scope, which held Probe, was failed and closed"
        )
        #expect(line.metadata["hb.request.method"] == "GET")
        #expect(line.metadata["hb.request.route"] == "/slow")
    }

    @Test(arguments: ServerKind.allCases)
    func aHandlerThatHeedsCancellationIsCancelledAndTheClientAnswered503(_ server: ServerKind) async throws {
        let (logger, logs) = InMemoryLogHandler.logger()
        let (made, never, cancelled) = (Made(), Signal(), Signal())
        let app = try app(
            logger: logger,
            made: made,
            never: never,
            cancelled: cancelled,
            cancellable: true,
            guarded: false,
            on: server
        )
        try await app.test(.live) { client in
            try await client.execute(uri: "/slow", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(String(buffer: response.body).contains("The request did not finish within its deadline."))
            }
        }
        #expect(cancelled.hasFired)
        let probe = try #require(made.probe.withLock { $0 })
        await probe.disposed.wait()
        #expect(probe.failed == true)
        try expectDeadlineLine(logs)
    }

    @Test func behindTheGuardAHandlerThatIgnoresCancellationDoesNotKeepTheClientWaiting() async throws {
        let (logger, logs) = InMemoryLogHandler.logger()
        let (made, never, cancelled) = (Made(), Signal(), Signal())
        let app = try app(
            logger: logger,
            made: made,
            never: never,
            cancelled: cancelled,
            cancellable: false,
            guarded: true
        )
        try await app.test(.live) { client in
            try await client.execute(uri: "/slow", method: .get) { response in
                // Answered while the handler still waits: `never` has not fired.
                #expect(response.status == .serviceUnavailable)
                #expect(!never.hasFired)
            }
            let probe = try #require(made.probe.withLock { $0 })
            await probe.disposed.wait()
            #expect(probe.failed == true)
            // Let the abandoned handler end: it was cancelled, and what it returns is dropped.
            never.fire()
            await cancelled.wait()
        }
        try expectDeadlineLine(logs)
    }

    @Test func aRequestWithinItsDeadlineIsAnsweredAsUsual() async throws {
        let (logger, logs) = InMemoryLogHandler.logger()
        let (made, never, cancelled) = (Made(), Signal(), Signal())
        never.fire()
        let app = try app(
            logger: logger,
            made: made,
            never: never,
            cancelled: cancelled,
            cancellable: true,
            guarded: true,
            deadline: RequestScopeMiddleware<BasicGraftRequestContext>.defaultDeadline
        )
        try await app.test(.live) { client in
            try await client.execute(uri: "/slow", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "too late")
            }
        }
        let probe = try #require(made.probe.withLock { $0 })
        await probe.disposed.wait()
        #expect(probe.failed == false)
        #expect(logs.errors.isEmpty)
    }

    /// The requests of one middleware share one clock: a request that ended in time leaves
    /// nothing behind to fire, one past its deadline is answered 503 and logged once, and the
    /// requests after it are answered as usual.
    @Test func aRequestPastItsDeadlineLeavesTheRequestsAroundItAlone() async throws {
        let (logger, logs) = InMemoryLogHandler.logger()
        let (made, never, cancelled) = (Made(), Signal(), Signal())
        let app = try app(
            logger: logger,
            made: made,
            never: never,
            cancelled: cancelled,
            cancellable: true,
            guarded: true
        )
        try await app.test(.live) { client in
            for path in ["/quick", "/quick", "/slow", "/quick"] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == (path == "/slow" ? .serviceUnavailable : .ok))
                }
            }
        }
        #expect(cancelled.hasFired)
        let probe = try #require(made.probe.withLock { $0 })
        await probe.disposed.wait()
        #expect(probe.failed == true)
        try expectDeadlineLine(logs)
    }
}
