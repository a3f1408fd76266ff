import AsyncHTTPClient
import Graft
import GraftVapor
import Testing
import Vapor

/// Lets a test hold a request inside its handler until it says so.
private final class Gate: Sendable {
    let (entered, enteredSignal) = AsyncStream<Void>.makeStream()
    let (opened, openSignal) = AsyncStream<Void>.makeStream()
    func pass() async {
        enteredSignal.yield()
        for await _ in opened {}
    }
}

/// While the container shuts down, requests in flight finish and new ones are answered 503, as
/// in GraftHummingbird.
@Suite(.timeLimit(.minutes(1))) struct RequestsWhileDrainingTests {
    @Test func aRequestArrivingWhileTheContainerDrainsIsAnswered503() async throws {
        let ledger = Ledger()
        let gate = Gate()
        let container = try ledger.makeContainer()
        let app = try await Application.make(.testing)
        app.graft.install(container)
        app.get("held") { req async throws -> String in
            let unitOfWork = try await req.resolve(UnitOfWork.self)
            await gate.pass()
            return "\(unitOfWork.id) disposed: \(unitOfWork.isDisposed)"
        }
        app.get("late") { req async throws -> String in
            _ = try await req.resolve(UnitOfWork.self)
            return "served"
        }
        try await LiveServer.run(app) { server in
            async let held = server.get("held")
            for await _ in gate.entered { break }

            async let shutdown: Void = container.shutdown(gracePeriod: .seconds(600))
            while !container.isShuttingDown { await Task.yield() }
            let late = try await server.get("late")
            #expect(late.status == .serviceUnavailable)
            #expect(late.body.contains("The server is shutting down."))
            #expect(ledger.disposed.isEmpty)

            gate.openSignal.finish()
            let response = try await held
            #expect(response.status == .ok)
            #expect(response.body == "1 disposed: false")
            try await shutdown
        }
        #expect(ledger.disposed == ["unit of work 1"])  // after the request in flight answered
    }
}
