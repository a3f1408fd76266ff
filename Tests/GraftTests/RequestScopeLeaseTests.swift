import Graft
import Testing

/// A request's connection: disposal opens `released`, so a test waits for it, not for a time.
private final class Connection: AsyncDisposable {
    let log: EventLog
    let outcome: RequestOutcome
    let released = Latch()
    let failsToRelease: Bool

    init(log: EventLog, outcome: RequestOutcome, failsToRelease: Bool = false) {
        self.log = log
        self.outcome = outcome
        self.failsToRelease = failsToRelease
    }

    func dispose() async throws {
        log.append(outcome.failed ? "rollback" : "release")
        released.open()
        if failsToRelease { throw ReleaseFailed() }
    }
}

private struct ReleaseFailed: Error, CustomStringConvertible {
    var description: String { "the connection was reset" }
}

private struct TraceID: Sendable {
    let value: String
}

/// What both web framework integrations share: a request's scope opened, completed, and closed once.
@Suite(.timeLimit(.minutes(1))) struct RequestScopeLeaseTests {
    let log = EventLog()
    let reported = EventLog()

    private func container(failsToRelease: Bool = false, declaresTrace: Bool = false) throws -> Container {
        var builder = ContainerBuilder()
        if declaresTrace { builder.registerScopeValue(TraceID.self) }
        builder.register(Connection.self, lifetime: .scoped) { [log] r in
            Connection(log: log, outcome: try r.resolve(RequestOutcome.self), failsToRelease: failsToRelease)
        }
        return try builder.build()
    }

    private func open(_ scopes: RequestScopes) throws -> RequestScopeLease {
        try scopes.open(providing: TraceID(value: "req-1")) { [reported] in reported.append("\($0)") }
    }

    @Test func aFailedRequestMarksItsOutcomeAndClosesItsScopeOnceWhicheverPathComesFirst() async throws {
        let lease = try open(RequestScopes(container(), values: TraceID.self))
        _ = try await lease.scope.resolve(Connection.self)
        await lease.fail()
        await lease.close()
        await lease.fail()
        #expect(lease.scope.isClosed)
        #expect(log.entries == ["rollback"])
    }

    @Test func aLeaseNobodyClosesClosesItsScopeWhenReleased() async throws {
        var lease: RequestScopeLease? = try open(RequestScopes(container(), values: TraceID.self))
        let connection = try await lease?.scope.resolve(Connection.self)
        lease = nil
        await connection?.released.wait()
        #expect(log.entries == ["release"])
    }

    @Test func aDisposalThatFailsAfterTheResponseGoesToTheReporter() async throws {
        let lease = try open(RequestScopes(container(failsToRelease: true), values: TraceID.self))
        _ = try await lease.scope.resolve(Connection.self)
        await lease.close()
        #expect(
            reported.entries == [
                """
                Graft: 1 disposal failed while closing the scope
                  every other instance was disposed
                  1. dispose() of Connection threw: the connection was reset
                """
            ]
        )
    }

    @Test func aRequestArrivingWhileTheContainerShutsDownIsRefusedAsClosed() async throws {
        for declaresTrace in [false, true] {
            let container = try container(declaresTrace: declaresTrace)
            let held = try open(RequestScopes(container, values: TraceID.self))
            async let shutdown: Void = container.shutdown(gracePeriod: .seconds(600))
            while !container.isShuttingDown { await Task.yield() }
            let error = #expect(throws: GraftError.self) { try open(RequestScopes(container, values: TraceID.self)) }
            #expect(error?.code == .closed)
            #expect(
                error?.description == """
                    Graft: cannot open a request's scope: the container is shutting down
                      answer 503 Service Unavailable; the requests already in flight finish first
                    """
            )
            await held.close()
            try await shutdown
        }
    }

    @Test func theRequestsValuesAreGivenWhenTheContainerDeclaresThem() async throws {
        let lease = try open(RequestScopes(container(declaresTrace: true), values: TraceID.self))
        #expect(try await lease.scope.resolve(TraceID.self).value == "req-1")
        await lease.close()
    }

    @Test func requestsOpenedUnderASessionAreItsChildrenAndCloseWithIt() async throws {
        let container = try container(declaresTrace: true)
        let session = container.makeScope()
        let sessionConnection = try await session.resolve(Connection.self)
        let scopes = RequestScopes(container, under: session, values: TraceID.self)
        let first = try open(scopes)
        let second = try open(scopes)
        // Each request is a scope of its own: its `.scoped` services are its own, not the session's.
        #expect(try await first.scope.resolve(Connection.self) !== sessionConnection)
        #expect(try await first.scope.resolve(TraceID.self).value == "req-1")
        await first.close()
        #expect(log.entries == ["release"])
        try await session.close()  // closes the request still open under it, then its own
        #expect(second.scope.isClosed)
        #expect(log.entries == ["release", "release"])
    }
}
