import Graft
import GraftVapor
import Testing
import Vapor

@Suite(.timeLimit(.minutes(1)))
struct ApplicationShutdownTests {
    @Test func applicationShutdownDisposesTheContainer() async throws {
        let ledger = Ledger()
        let app = try await Application.make(.testing)
        let container = try ledger.makeContainer()
        app.graft.install(container)
        _ = try await container.resolve(Pool.self)
        #expect(app.graft.container === container)
        try await app.asyncShutdown()
        #expect(ledger.disposed == ["pool"])
        let error = #expect(throws: GraftError.self) { try container.resolve(Pool.self) }
        #expect(error?.code == .closed)
    }

    @Test func shutdownLetsInFlightRequestsFinishBeforeDisposingAnything() async throws {
        let ledger = Ledger()
        let app = try await Application.make(.testing)
        app.graft.install(try ledger.makeContainer())
        // Added after Graft, so Vapor runs it first when the application shuts down.
        app.lifecycle.use(ShutdownStarted(ledger: ledger))
        app.get("slow") { req async throws -> String in
            let unitOfWork = try await req.resolve(UnitOfWork.self)
            _ = try await req.resolve(Pool.self)
            await ledger.arrive(total: 2)  // the test knows this request is in flight
            await ledger.arrive(total: 2)  // the application has begun shutting down
            let again = try await req.resolve(UnitOfWork.self)
            return again === unitOfWork && !again.isDisposed ? "open" : "closed"
        }
        let response = try await LiveServer.run(app) { server in
            async let response = server.get("slow")
            await ledger.arrive(total: 2)
            try await app.asyncShutdown()
            return try await response
        }
        #expect(response.status == .ok)
        #expect(response.body == "open")
        #expect(ledger.disposed == ["unit of work 1", "pool"])
    }

    @Test func aLifecycleHandlerRegisteredBeforeInstallStillFindsTheContainerOpen() async throws {
        let ledger = Ledger()
        let app = try await Application.make(.testing)
        let container = try ledger.makeContainer()
        let handler = ResolvesAtShutdown(container: container, ledger: ledger)
        app.lifecycle.use(handler)  // before install: Vapor shuts it down after Graft's handler
        app.graft.install(container)
        try await app.asyncShutdown()
        #expect(ledger.disposed == ["resolved the pool at shutdown", "pool"])
    }
}

/// Resolves a singleton when the application shuts down, as a handler that flushes to a
/// database would.
private struct ResolvesAtShutdown: LifecycleHandler {
    let container: Container
    let ledger: Ledger

    func shutdownAsync(_ application: Application) async {
        do {
            _ = try await container.resolve(Pool.self)
            ledger.recordDisposal("resolved the pool at shutdown")
        } catch {
            ledger.recordDisposal("\(error)")
        }
    }
}

/// Meets the in-flight request at the ledger's barrier as soon as the application shuts down.
private struct ShutdownStarted: LifecycleHandler {
    let ledger: Ledger

    func shutdownAsync(_ application: Application) async {
        await ledger.arrive(total: 2)
    }
}
