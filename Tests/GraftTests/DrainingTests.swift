import Graft
import Testing

/// Scoped, like a request's unit of work: it uses the pool until its scope closes.
private final class UnitOfWork: AsyncDisposable {
    let pool: Pool
    init(pool: Pool) { self.pool = pool }
    func dispose() async {
        await Task.yield()
        pool.log.append("unit")
    }
}

private func drainingContainer(_ log: EventLog) throws -> Container {
    var builder = ContainerBuilder()
    builder.register(Pool.self, lifetime: .singleton) { _ in Pool(log: log) }
    builder.register(UnitOfWork.self, lifetime: .scoped, using: UnitOfWork.init(pool:))
    return try builder.build()
}

@Suite(.timeLimit(.minutes(1))) struct DrainingTests {
    @Test func openScopesFinishBeforeAnythingIsDisposed() async throws {
        let log = EventLog()
        let container = try drainingContainer(log)
        let holders = 50
        let (opened, openedSignal) = AsyncStream<Void>.makeStream()
        let (release, releaseSignal) = AsyncStream<Void>.makeStream()

        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<holders {
                group.addTask {
                    try await container.withScope { scope in
                        let unit = try await scope.resolve(UnitOfWork.self)
                        openedSignal.yield()
                        for await _ in release {}
                        // Still open while the container drains: the same instance, alive.
                        #expect(try await scope.resolve(UnitOfWork.self) === unit)
                        #expect(!log.entries.contains("pool"))
                    }
                }
            }
            var count = 0
            for await _ in opened {
                count += 1
                if count == holders { break }
            }
            group.addTask { try await container.shutdown(gracePeriod: .seconds(600)) }
            while !container.isShuttingDown { await Task.yield() }

            // Refused while draining: a new scope is born closed.
            let late = container.makeScope()
            #expect(late.isClosed)
            let error = await #expect(throws: GraftError.self) { try await late.resolve(UnitOfWork.self) }
            #expect(error?.code == .closed)
            #expect(
                error?.description == """
                    Graft: cannot resolve UnitOfWork: its scope was closed because the container is shutting down
                      no scope opens once shutdown(gracePeriod:) has started: turn the work away (the web integrations answer 503) or finish it before shutting down
                    """
            )
            #expect(log.entries.isEmpty)

            releaseSignal.finish()
            try await group.waitForAll()
        }
        #expect(log.entries == Array(repeating: "unit", count: holders) + ["pool"])
    }

    @Test func theGracePeriodEndingClosesTheScopesStillOpen() async throws {
        let log = EventLog()
        let container = try drainingContainer(log)
        let stuck = container.makeScope()
        _ = try await stuck.resolve(UnitOfWork.self)

        let cutOff = await #expect(throws: GraftError.self) {
            try await container.shutdown(gracePeriod: .milliseconds(20))
        }

        // The shutdown ran to its end before reporting the work it cut off.
        #expect(stuck.isClosed)
        #expect(log.entries == ["unit", "pool"])
        #expect(cutOff?.code == .gracePeriodRanOut)
        #expect(
            cutOff?.description == """
                Graft: the shutdown's grace period of 0.02 seconds ran out and 1 scope was still open; \
                they were closed for the work in them: an open scope holding UnitOfWork
                  work that outlives the grace period is stuck or too slow: give it a limit of its own \
                (a query or connection timeout), or a longer gracePeriod
                """
        )
        let error = await #expect(throws: GraftError.self) { try await stuck.resolve(UnitOfWork.self) }
        #expect(
            error?.description == """
                Graft: cannot resolve UnitOfWork: its scope was closed because the container was shut down
                  no scope opens once the container has shut down: resolve before shutdown()
                """
        )
    }

    @Test func withNoOpenScopeShutdownDisposesAtOnce() async throws {
        let log = EventLog()
        let container = try drainingContainer(log)
        _ = try await container.resolve(Pool.self)
        #expect(!container.isShuttingDown)

        try await container.shutdown(gracePeriod: .seconds(600))

        #expect(container.isShuttingDown)
        #expect(log.entries == ["pool"])
        try await container.shutdown(gracePeriod: .seconds(600))
        #expect(log.entries == ["pool"], "a second shutdown does nothing")
    }

    @Test func scopesOpenUntilWhatMustComeFirstHasFinished() async throws {
        let log = EventLog()
        let container = try drainingContainer(log)
        let (serverStopped, stopServer) = AsyncStream<Never>.makeStream()
        let (waiting, waitingSignal) = AsyncStream<Never>.makeStream()

        let shutdown = Task {
            try await container.shutdown(gracePeriod: .seconds(600)) {
                waitingSignal.finish()
                for await _ in serverStopped {}
            }
        }
        for await _ in waiting {}
        // The server still answers: its requests still get scopes.
        #expect(!container.isShuttingDown)
        let late = container.makeScope()
        #expect(!late.isClosed)
        _ = try await late.resolve(UnitOfWork.self)

        stopServer.finish()
        while !container.isShuttingDown { await Task.yield() }
        #expect(container.makeScope().isClosed)
        #expect(log.entries.isEmpty, "the open scope still drains")
        try await late.close()
        try await shutdown.value
        #expect(log.entries == ["unit", "pool"])
    }

    @Test func theGracePeriodRunsWhileWhatMustComeFirstIsStillGoing() async throws {
        let log = EventLog()
        let container = try drainingContainer(log)
        let stuck = container.makeScope()
        _ = try await stuck.resolve(UnitOfWork.self)

        let cutOff = await #expect(throws: GraftError.self) {
            try await container.shutdown(gracePeriod: .milliseconds(20)) {
                // A server that never stops: only the grace period ends the wait.
                let (never, _) = AsyncStream<Never>.makeStream()
                for await _ in never {}
            }
        }
        #expect(stuck.isClosed)
        #expect(log.entries == ["unit", "pool"])
        #expect(cutOff?.code == .gracePeriodRanOut)
        #expect(cutOff?.summary.hasSuffix("an open scope holding UnitOfWork") == true)
    }

    @Test func cancellingTheShutdownEndsTheGracePeriod() async throws {
        let log = EventLog()
        let container = try drainingContainer(log)
        let stuck = container.makeScope()
        _ = try await stuck.resolve(UnitOfWork.self)

        let shutdown = Task { try await container.shutdown(gracePeriod: .seconds(600)) }
        while !container.isShuttingDown { await Task.yield() }
        shutdown.cancel()
        try await shutdown.value

        #expect(stuck.isClosed)
        #expect(log.entries == ["unit", "pool"])
    }
}
