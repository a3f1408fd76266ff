import Graft
import Testing

/// A client whose `run()` must be going while it is used: it runs until cancelled, or fails
/// when the test says so.
private final class Client: Sendable {
    let warehouse: Warehouse
    let began = Latch()
    let fail = Latch()
    init(warehouse: Warehouse) { self.warehouse = warehouse }

    func run(failing: Bool) async throws {
        let log = warehouse.log
        log.append("run Client")
        began.open()
        await fail.wait()
        if Task.isCancelled {
            log.append("cancelled Client")
            return
        }
        if failing { throw Jammed(part: "client connection") }
    }
}

private func makeContainer(_ log: EventLog, failing: Bool = true) async throws -> Container {
    var builder = ContainerBuilder()
    builder.registerLifecycleGraph(log)
    builder.register(Client.self, lifetime: .singleton, using: Client.init(warehouse:))
    builder.logStartAndStop(Warehouse.self, log)
    builder.runs(Client.self) { client in try await client.run(failing: failing) }
    builder.onStop(Client.self) { _ in log.append("stop Client") }
    return try await builder.build()
}

/// `container.run()` in a task, once the client's `run()` has begun.
private func runUntilTheClientRuns(_ container: Container) async throws -> Task<Void, any Error> {
    let running = Task { try await container.run() }
    let client = try await container.resolve(Client.self)
    await client.began.wait()
    return running
}

/// A client that, as postgres-nio's `PostgresClient` does, marks itself running as the first step
/// of `run()`, before any `await`, and complains when it is used before that.
private final class MarkingClient: Sendable {
    private let marked = Guarded(false)
    let complaints = EventLog()

    func run() async {
        marked.withLock { $0 = true }
        await Latch().wait()  // until cancelled
    }

    func query() {
        if !marked.current { complaints.append("query before run() was called") }
    }
}

/// What queries the client as soon as it starts.
private struct Reporter: Sendable {
    let client: MarkingClient
}

@Suite(.timeLimit(.minutes(1))) struct RunningServiceTests {
    /// The run's first step, before its first suspension, is done by the time the dependent's
    /// start hook runs: the client is marked running, and the log shows the run began first.
    @Test func whatDependsOnARunningServiceStartsOnlyOnceItsRunHasBegun() async throws {
        let log = EventLog()
        var builder = ContainerBuilder()
        builder.register(MarkingClient.self, lifetime: .singleton) { _ in MarkingClient() }
        builder.runs(MarkingClient.self) { client in
            log.append("run MarkingClient")
            await client.run()
        }
        builder.register(Reporter.self, lifetime: .singleton, using: Reporter.init(client:))
        builder.onStart(Reporter.self) { reporter in
            log.append("start Reporter")
            reporter.client.query()
        }
        let container = try await builder.build()
        try await container.start()
        let client = try await container.resolve(MarkingClient.self)
        #expect(log.entries == ["run MarkingClient", "start Reporter"])
        #expect(client.complaints.entries.isEmpty)
        try await container.shutdown()
        #expect(client.complaints.entries.isEmpty)
    }

    @Test func runBeginsAfterWhatItDependsOnAndIsCancelledBeforeThatStops() async throws {
        let log = EventLog()
        let container = try await makeContainer(log)
        try await container.start()
        let client = try await container.resolve(Client.self)
        await client.began.wait()

        try await container.shutdown()
        #expect(
            log.entries == [
                "start Warehouse", "run Client",
                "cancelled Client", "stop Client", "stop Warehouse", "dispose Warehouse",
            ]
        )
    }

    @Test func aRunThatFailsShutsTheContainerDownAndRunThrowsNamingTheService() async throws {
        let log = EventLog()
        let container = try await makeContainer(log)
        let running = Task { try await container.run() }
        let client = try await container.resolve(Client.self)
        await client.began.wait()
        client.fail.open()

        let error = await #expect(throws: GraftError.withCode(.runningServiceFailed)) { try await running.value }
        #expect(error?.service == "Client")
        #expect(error?.underlyingError as? Jammed == Jammed(part: "client connection"))
        #expect(
            error?.description == """
                Graft: run() of Client threw: client connection is jammed
                  so the container shut down: every other running service was cancelled and every started service stopped
                """
        )
        #expect(
            log.entries == ["start Warehouse", "run Client", "stop Client", "stop Warehouse", "dispose Warehouse"]
        )
        #expect(container.isShuttingDown)
    }

    @Test func aRunThatReturnsWhileTheContainerRunsIsAFailureToo() async throws {
        let log = EventLog()
        let reported = EventLog()
        let failureReported = Latch()
        var builder = ContainerBuilder()
        builder.unhandledErrorHandler = { error in
            reported.append(error.summary)
            failureReported.open()
        }
        builder.registerLifecycleGraph(log)
        let started = Latch()
        builder.runs(Warehouse.self) { _ in await started.wait() }
        let container = try await builder.build()

        // Without `run()` to throw it, the failure goes to the unhandled-error handler.
        try await container.start()
        started.open()
        await failureReported.wait()
        #expect(reported.entries == ["run() of Warehouse returned while the container was running"])
        #expect(log.entries == ["dispose Warehouse"])
    }

    @Test func aRunThatEndsBeforeItsFirstSuspensionFailsTheStartNamingTheService() async throws {
        let log = EventLog()
        var builder = ContainerBuilder()
        builder.registerLifecycleGraph(log)
        builder.logStartAndStop(Warehouse.self, log)
        builder.runs(Shelf.self) { _ in }
        let container = try await builder.build()

        let error = await #expect(throws: GraftError.withCode(.runningServiceFailed)) { try await container.start() }
        #expect(error?.service == "Shelf")
        #expect(
            error?.description == """
                Graft: run() of Shelf returned while the container was starting
                  a running service's run() returns only once cancelled at shutdown
                  stopped what had started, newest first: Shelf, Warehouse
                  shut the container down to dispose what was made; build a new one to start again
                """
        )
        #expect(log.entries == ["start Warehouse", "stop Warehouse"])
        try await container.shutdown()
    }

    @Test func cancellingRunShutsTheContainerDown() async throws {
        let log = EventLog()
        let container = try await makeContainer(log, failing: false)
        let running = try await runUntilTheClientRuns(container)
        running.cancel()
        try await running.value
        #expect(log.entries.suffix(3) == ["stop Client", "stop Warehouse", "dispose Warehouse"])
    }

    @Test func runEndsWhenTheContainerIsShutDownElsewhere() async throws {
        let log = EventLog()
        let container = try await makeContainer(log, failing: false)
        let running = try await runUntilTheClientRuns(container)
        try await container.shutdown(gracePeriod: .seconds(600))
        try await running.value
        #expect(log.entries.last == "dispose Warehouse")
    }
}
