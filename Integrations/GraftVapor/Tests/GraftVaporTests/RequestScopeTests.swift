import AsyncHTTPClient
import Graft
import GraftVapor
import Testing
import Vapor
import VaporTesting

@Suite(.timeLimit(.minutes(1)))
struct RequestScopeTests {
    @Test func concurrentRequestsEachGetTheirOwnScopeClosedOnce() async throws {
        let requests = 32
        let ledger = Ledger()
        let app = try await Application.make(.testing)
        app.graft.install(try ledger.makeContainer())
        app.get("work") { req async throws -> String in
            let first = try await req.resolve(UnitOfWork.self)
            await ledger.arrive(total: requests)  // every request's scope is open at once
            let second = try await req.graftScope.resolve(UnitOfWork.self)  // the scope is a Resolver too
            return first === second ? "\(first.id)" : "two units of work in one request"
        }
        let bodies = try await LiveServer.run(app, connections: requests) { server in
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<requests {
                    group.addTask {
                        let response = try await server.get("work")
                        #expect(response.status == .ok)
                        return response.body
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        let ids = bodies.compactMap(Int.init).sorted()
        #expect(ids == Array(1...requests))
        #expect(ledger.made.sorted() == ids)
        let disposedUnits = ledger.disposed.filter { $0 != "pool" }.sorted()
        #expect(disposedUnits == ids.map { "unit of work \($0)" }.sorted())
    }

    @Test func streamingBodySeesItsScopeOpenUntilItFinishes() async throws {
        let ledger = Ledger()
        let app = try await Application.make(.testing)
        app.graft.install(try ledger.makeContainer())
        app.get("stream") { req async throws -> Response in
            let unitOfWork = try await req.resolve(UnitOfWork.self)
            return Response(
                body: .init(asyncStream: { writer in
                    for chunk in 0..<3 {
                        await Task.yield()
                        let again = try await req.resolve(UnitOfWork.self)
                        let state = again === unitOfWork && !again.isDisposed ? "open" : "closed"
                        try await writer.write(.buffer(ByteBuffer(string: "\(chunk):\(state) ")))
                    }
                    try await writer.write(.end)
                })
            )
        }
        let response = try await LiveServer.run(app) { server in
            let response = try await server.get("stream")
            await ledger.waitForDisposals(1)
            return response
        }
        #expect(response.status == .ok)
        #expect(response.body == "0:open 1:open 2:open ")
        #expect(ledger.disposed.first == "unit of work 1")
        #expect(ledger.disposed.filter { $0 == "unit of work 1" }.count == 1)
    }

    @Test func clientDisconnectingMidStreamClosesTheScope() async throws {
        let ledger = Ledger()
        let app = try await Application.make(.testing)
        app.graft.install(try ledger.makeContainer())
        app.get("endless") { req async throws -> Response in
            _ = try await req.resolve(UnitOfWork.self)
            return Response(
                body: .init(asyncStream: { writer in
                    do {
                        // Bounded: a client that never leaves gets 100,000 chunks, and the test fails.
                        for _ in 0..<100_000 {
                            _ = try await req.resolve(UnitOfWork.self)
                            try await writer.write(.buffer(ByteBuffer(repeating: 0x2E, count: 1024)))
                        }
                        try await writer.write(.end)
                    } catch {
                        ledger.recordDisposal("stream cut off")
                        try? await writer.write(.error(error))  // Vapor wants every stream ended
                    }
                })
            )
        }
        try await LiveServer.run(app) { server in
            let firstChunk = AsyncStream<Void>.makeStream()
            let reader = Task {
                let response = try await server.client.execute(
                    HTTPClientRequest(url: "http://127.0.0.1:\(server.port)/endless"),
                    timeout: .seconds(30)
                )
                for try await _ in response.body {
                    firstChunk.continuation.yield()
                    try await Task.sleep(for: .seconds(60))  // cancelled below: the client goes away
                }
            }
            var chunks = firstChunk.stream.makeAsyncIterator()
            _ = await chunks.next()
            reader.cancel()
            await ledger.waitForDisposals(2)
        }
        #expect(ledger.disposed == ["stream cut off", "unit of work 1"])
    }

    @Test func throwingHandlerStillClosesItsScope() async throws {
        let ledger = Ledger()
        try await withApp { app in
            app.graft.install(try ledger.makeContainer())
            app.get("fail") { req async throws -> String in
                _ = try await req.resolve(UnitOfWork.self)
                throw Abort(.imATeapot, reason: "the handler failed")
            }
            try await app.testing(method: .running(hostname: "127.0.0.1", port: 0)).test(.GET, "fail") { response in
                #expect(response.status == .imATeapot)
                #expect(ledger.disposed == ["unit of work 1"])
            }
        }
        #expect(ledger.disposed == ["unit of work 1"])  // and not again when the application shut down
    }

    @Test func requestWithoutTheMiddlewareGetsAnErrorSayingHowToInstallIt() async throws {
        try await withApp { app in
            app.get("bare") { req async -> String in
                do {
                    _ = try await req.resolve(UnitOfWork.self)
                    return "resolved without a scope"
                } catch {
                    return "\(error)"
                }
            }
            try await app.testing(method: .running(hostname: "127.0.0.1", port: 0)).test(.GET, "bare") { response in
                #expect(
                    response.body.string == """
                        Graft: this request has no Graft scope
                          install Graft before the routes: app.graft.install(container)
                          or add GraftScopeMiddleware(container: container) to this route's group
                        """
                )
            }
        }
    }
}
