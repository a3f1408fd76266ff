import Graft
import GraftHummingbird
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

/// Every scoped value made and every disposal, in order.
private final class Log: Sendable {
    private let entries = Mutex<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }

    /// A scope may finish closing just after the client has read the response; wait for it (the
    /// suite's time limit bounds the wait).
    func waitFor(_ count: Int) async {
        while all.count < count { await Task.yield() }
    }
}

/// Scoped: one per request (per scope), numbered, logged when disposed.
private final class Item: Disposable {
    let name: String
    let log: Log
    private let disposed = Atomic(false)

    init(log: Log) {
        self.log = log
        self.name = "item \(log.all.count + 1)"
        log.append("made \(name)")
    }

    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    func dispose() {
        disposed.store(true, ordering: .releasing)
        log.append("disposed \(name)")
    }
}

/// Runs the rest of the chain, then hands its response to `transform`, whose result goes out.
private struct ResponseTransformer: RouterMiddleware {
    let transform: @Sendable (Response) -> Response

    func handle(
        _ request: Request,
        context: BasicGraftRequestContext,
        next: (Request, BasicGraftRequestContext) async throws -> Response
    ) async throws -> Response {
        transform(try await next(request, context))
    }
}

/// How Hummingbird holds a response's body: "byteBuffer" goes out in one write, "closure" in
/// three. Hummingbird keeps it private; its reflection names the case.
private func shape(of body: ResponseBody) -> String {
    let backing = Mirror(reflecting: body).descendant("_backing")
    return backing.flatMap { Mirror(reflecting: $0).children.first?.label } ?? "unknown"
}

/// Resolves an `Item` from the scope the request has when it passes.
private struct ItemResolver: RouterMiddleware {
    func handle(
        _ request: Request,
        context: BasicGraftRequestContext,
        next: (Request, BasicGraftRequestContext) async throws -> Response
    ) async throws -> Response {
        _ = try await context.resolve(Item.self)
        return try await next(request, context)
    }
}

/// `HTTPServerBuilder.http1ClosingRequestScopes()`: the middleware leaves a body of known length
/// as the handler made it, and the server closes the scope once the response has been written.
@Suite(.timeLimit(.minutes(1))) struct ServerClosingRequestScopesTests {
    private func container(_ log: Log) throws -> Container {
        var builder = ContainerBuilder()
        builder.register(Log.self, instance: log)
        builder.register(Item.self, lifetime: .scoped, using: Item.init(log:))
        return try builder.build()
    }

    private func app(_ router: Router<BasicGraftRequestContext>, on server: ServerKind) -> some ApplicationProtocol {
        Application(
            router: router,
            server: server.builder,
            configuration: .init(address: .hostname("127.0.0.1", port: 0))
        )
    }

    @Test(arguments: ServerKind.allCases)
    func aBodyOfKnownLengthIsSentAsTheHandlerMadeIt(on server: ServerKind) async throws {
        let log = Log()
        let shapes = Log()
        let router = Router(context: BasicGraftRequestContext.self)
        router.add(
            middleware: ResponseTransformer { response in
                shapes.append(shape(of: response.body))
                return response
            }
        )
        router.add(middleware: RequestScopeMiddleware(try container(log)))
        router.get("item") { _, context in try await context.resolve(Item.self).name }
        try await app(router, on: server).test(.live) { client in
            try await client.execute(uri: "/item", method: .get) { response in
                #expect(String(buffer: response.body) == "item 1")
            }
        }
        await log.waitFor(2)
        #expect(log.all == ["made item 1", "disposed item 1"])
        #expect(shapes.all == [server == .closingRequestScopes ? "byteBuffer" : "closure"])
    }

    @Test(arguments: ServerKind.allCases)
    func aClosureBodyOfKnownLengthSeesItsScopeUntilItIsWritten(on server: ServerKind) async throws {
        let log = Log()
        let router = Router(context: BasicGraftRequestContext.self)
        router.add(middleware: RequestScopeMiddleware(try container(log)))
        router.get("item") { _, context -> Response in
            let item = try await context.resolve(Item.self)
            let scope = context.scope
            let text = ByteBuffer(string: "alive: true")
            return Response(
                status: .ok,
                body: ResponseBody(contentLength: text.readableBytes) { writer in
                    await Task.yield()
                    // The handler has returned and the body's length is known; its scope lives on.
                    let again = try await scope?.resolve(Item.self)
                    try await writer.write(ByteBuffer(string: "alive: \(again === item && !item.isDisposed)"))
                    try await writer.finish(nil)
                }
            )
        }
        try await app(router, on: server).test(.live) { client in
            try await client.execute(uri: "/item", method: .get) { response in
                #expect(String(buffer: response.body) == "alive: true")
            }
        }
        await log.waitFor(2)
        #expect(log.all == ["made item 1", "disposed item 1"])
    }

    @Test(arguments: ServerKind.allCases)
    func aResponseDroppedUnwrittenStillClosesItsScope(on server: ServerKind) async throws {
        let log = Log()
        let router = Router(context: BasicGraftRequestContext.self)
        router.add(middleware: ResponseTransformer { _ in Response(status: .accepted) })  // unwritten
        router.add(middleware: RequestScopeMiddleware(try container(log)))
        router.get("item") { _, context in try await context.resolve(Item.self).name }
        try await app(router, on: server).test(.live) { client in
            try await client.execute(uri: "/item", method: .get) { #expect($0.status == .accepted) }
        }
        await log.waitFor(2)
        #expect(log.all == ["made item 1", "disposed item 1"])
    }

    @Test(arguments: ServerKind.allCases)
    func twoScopesOnOneRequestAreEachClosedOnce(on server: ServerKind) async throws {
        let log = Log()
        let container = try container(log)
        let router = Router(context: BasicGraftRequestContext.self)
        router.add(middleware: RequestScopeMiddleware(container))
        router.add(middleware: ItemResolver())  // from the outer scope
        router.add(middleware: RequestScopeMiddleware(container))
        router.get("item") { _, context in try await context.resolve(Item.self).name }
        try await app(router, on: server).test(.live) { client in
            try await client.execute(uri: "/item", method: .get) { response in
                #expect(String(buffer: response.body) == "item 2")
            }
        }
        await log.waitFor(4)
        // Each scope once, in either order: the server closes the one handed to it, the body
        // the other.
        #expect(log.all.prefix(2) == ["made item 1", "made item 2"])
        #expect(log.all.dropFirst(2).sorted() == ["disposed item 1", "disposed item 2"])
    }
}
