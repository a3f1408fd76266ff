import Graft
import GraftHummingbird
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOPosix
import Synchronization
import Testing

/// What each request's scoped probe saw: every probe made, and how often each was disposed.
private final class Tracker: Sendable {
    private let state = Mutex<(made: Int, disposals: [Int: Int], log: [String])>((0, [:], []))

    func make() -> Int {
        state.withLock {
            $0.made += 1
            return $0.made
        }
    }
    func disposed(_ number: Int) {
        state.withLock {
            $0.disposals[number, default: 0] += 1
            $0.log.append("probe")
        }
    }
    func poolDisposed() { state.withLock { $0.log.append("pool") } }
    var made: Int { state.withLock { $0.made } }
    var disposals: [Int: Int] { state.withLock { $0.disposals } }
    var log: [String] { state.withLock { $0.log } }

    /// Closing may finish just after the client has read the last byte; wait for it (the suite's
    /// time limit bounds the wait).
    func waitForDisposals(_ count: Int) async {
        while disposals.values.reduce(0, +) < count { await Task.yield() }
    }
}

private struct Pool: AsyncDisposable {
    let tracker: Tracker
    func dispose() async { tracker.poolDisposed() }
}

/// Scoped: one per request.
private final class Probe: AsyncDisposable {
    let number: Int
    let tracker: Tracker
    private let disposed = Atomic(false)

    init(pool: Pool) {
        self.tracker = pool.tracker
        self.number = pool.tracker.make()
    }

    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    func dispose() async {
        disposed.store(true, ordering: .releasing)
        tracker.disposed(number)
    }
}

/// Lets a test hold requests inside their handlers until it says so.
private final class Gate: Sendable {
    let (entered, enteredSignal) = AsyncStream<Void>.makeStream()
    let (opened, openSignal) = AsyncStream<Void>.makeStream()
    func pass() async {
        enteredSignal.yield()
        for await _ in opened {}
    }
}

private struct Failure: Error {}

private func makeApp(
    _ tracker: Tracker,
    gate: Gate = Gate(),
    on server: ServerKind
) throws -> (some ApplicationProtocol, Container) {
    var builder = ContainerBuilder()
    builder.register(Pool.self, lifetime: .singleton) { _ in Pool(tracker: tracker) }
    builder.register(Probe.self, lifetime: .scoped, using: Probe.init(pool:))
    let container = try builder.build()

    let router = Router(context: BasicGraftRequestContext.self)
    router.add(middleware: RequestScopeMiddleware(container))
    router.get("probe") { _, context in
        "\(try await context.resolve(Probe.self).number)"
    }
    router.get("held") { _, context in
        let probe = try await context.resolve(Probe.self)
        await gate.pass()
        return "\(probe.number) disposed: \(probe.isDisposed)"
    }
    router.get("stream") { _, context -> Response in
        let probe = try await context.resolve(Probe.self)
        let scope = context.scope
        return Response(
            status: .ok,
            body: ResponseBody { writer in
                for chunk in 0..<5 {
                    // The handler has returned; the body still resolves from a live scope.
                    let again = try await scope?.resolve(Probe.self)
                    let alive = again === probe && !probe.isDisposed
                    try await writer.write(ByteBuffer(string: "\(chunk):\(alive) "))
                    await Task.yield()
                }
                try await writer.finish(nil)
            }
        )
    }
    router.get("endless") { _, context -> Response in
        _ = try await context.resolve(Probe.self)
        return Response(
            status: .ok,
            body: ResponseBody { writer in
                // Until the client hangs up; bounded, so a client that never does cannot hold
                // the test for longer than 30 seconds.
                for _ in 0..<3_000 {
                    try await writer.write(ByteBuffer(repeating: UInt8(ascii: "."), count: 1024))
                    try await Task.sleep(for: .milliseconds(10))
                }
                try await writer.finish(nil)
            }
        )
    }
    router.get("throws") { _, context -> String in
        _ = try await context.resolve(Probe.self)
        throw HTTPError(.badRequest, message: "no")
    }
    router.get("fails") { _, context -> String in
        _ = try await context.resolve(Probe.self)
        throw Failure()
    }
    let app = Application(
        router: router,
        server: server.builder,
        configuration: .init(address: .hostname("127.0.0.1", port: 0))
    )
    return (app, container)
}

@Suite(.timeLimit(.minutes(2))) struct RequestScopeMiddlewareTests {
    @Test(arguments: ServerKind.allCases)
    func concurrentRequestsEachGetTheirOwnScopeClosedExactlyOnce(on server: ServerKind) async throws {
        let tracker = Tracker()
        let gate = Gate()
        let (app, _) = try makeApp(tracker, gate: gate, on: server)
        let requests = 16
        try await app.test(.live) { client in
            let port = try #require(client.port)
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<requests {
                    group.addTask {
                        try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
                            let response = try await client.get("/held")
                            #expect(response.status == .ok)
                            return String(buffer: response.body ?? ByteBuffer())
                        }
                    }
                }
                // Every request is inside its handler at once before any may answer.
                var inside = 0
                for await _ in gate.entered {
                    inside += 1
                    if inside == requests { break }
                }
                #expect(tracker.made == requests)
                gate.openSignal.finish()
                var bodies: Set<String> = []
                for try await body in group { bodies.insert(body) }
                #expect(bodies == Set((1...requests).map { "\($0) disposed: false" }))
            }
        }
        await tracker.waitForDisposals(requests)
        #expect(tracker.disposals == Dictionary(uniqueKeysWithValues: (1...requests).map { ($0, 1) }))
    }

    @Test(arguments: ServerKind.allCases)
    func aStreamingBodySeesItsScopeAliveUntilItFinishes(on server: ServerKind) async throws {
        let tracker = Tracker()
        let (app, _) = try makeApp(tracker, on: server)
        try await app.test(.live) { client in
            try await client.execute(uri: "/stream", method: .get) { response in
                #expect(String(buffer: response.body) == "0:true 1:true 2:true 3:true 4:true ")
            }
        }
        await tracker.waitForDisposals(1)
        #expect(tracker.disposals == [1: 1])
    }

    @Test(arguments: ServerKind.allCases)
    func aClientThatHangsUpMidStreamStillClosesItsScope(on server: ServerKind) async throws {
        let tracker = Tracker()
        let (app, _) = try makeApp(tracker, on: server)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let connection = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: "127.0.0.1", port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
            try await connection.executeThenClose { inbound, outbound in
                try await outbound.write(ByteBuffer(string: "GET /endless HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
                for try await _ in inbound { break }  // the response has begun; now hang up
            }
            await tracker.waitForDisposals(1)
            #expect(tracker.disposals == [1: 1])
        }
    }

    @Test(
        arguments: [("/throws", HTTPResponse.Status.badRequest), ("/fails", .internalServerError)],
        ServerKind.allCases
    )
    func aThrowingHandlerStillClosesItsScope(
        _ route: (path: String, status: HTTPResponse.Status),
        on server: ServerKind
    ) async throws {
        let (path, status) = route
        let tracker = Tracker()
        let (app, _) = try makeApp(tracker, on: server)
        try await app.test(.live) { client in
            try await client.execute(uri: path, method: .get) { response in
                #expect(response.status == status)
            }
            // The scope closed before the error left the middleware.
            #expect(tracker.disposals == [1: 1])
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aShutdownDuringRequestsInFlightLetsThemFinishFirst(on server: ServerKind) async throws {
        let tracker = Tracker()
        let gate = Gate()
        let (app, container) = try makeApp(tracker, gate: gate, on: server)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            async let held = client.execute(uri: "/held", method: .get) { $0 }
            for await _ in gate.entered { break }

            async let shutdown: Void = container.shutdown(gracePeriod: .seconds(600))
            while !container.isShuttingDown { await Task.yield() }
            // A request arriving while the container drains gets no scope.
            try await TestClient.withClient(host: "127.0.0.1", port: port) { late in
                let response = try await late.get("/probe")
                #expect(response.status == .serviceUnavailable)
                #expect(String(buffer: response.body ?? ByteBuffer()).contains("The server is shutting down."))
            }
            #expect(tracker.log.isEmpty)

            gate.openSignal.finish()
            let response = try await held
            #expect(response.status == .ok)
            #expect(String(buffer: response.body) == "1 disposed: false")
            try await shutdown
        }
        #expect(tracker.log == ["probe", "pool"])
    }

    @Test func resolvingWithoutTheMiddlewareSaysHowToAddIt() async throws {
        let router = Router(context: BasicGraftRequestContext.self)
        let message = Mutex<String?>(nil)
        router.get("bare") { _, context -> String in
            do {
                _ = try await context.resolve(Int.self)
            } catch {
                message.withLock { $0 = "\(error)" }
            }
            return "done"
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            try await client.execute(uri: "/bare", method: .get) { #expect($0.status == .ok) }
        }
        #expect(
            message.withLock { $0 }
                == """
                Graft: cannot resolve Int: this request has no scope
                  add RequestScopeMiddleware(container) to the router (or group) in front of this route
                """
        )
    }
}
