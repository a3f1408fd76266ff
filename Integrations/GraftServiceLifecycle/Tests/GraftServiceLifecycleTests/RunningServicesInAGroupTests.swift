import Foundation
import Graft
import GraftServiceLifecycle
import Logging
import ServiceLifecycle
import Testing

/// Events in the order they happened, from any task (an `NSLock`: ThreadSanitizer sees its order).
private final class OrderLog: Sendable {
    private let lock = NSLock()
    // Read and written only while `lock` is held.
    private nonisolated(unsafe) var events: [String] = []

    func append(_ event: String) {
        lock.withLock { events.append(event) }
    }

    var entries: [String] { lock.withLock { events } }
}

private final class ConnectionPool: AsyncDisposable {
    let log: OrderLog
    init(log: OrderLog) { self.log = log }
    func dispose() async { log.append("dispose pool") }
}

/// A swift-service-lifecycle `Service` the container runs: a queue consumer on the pool.
private struct Consumer: Service {
    let pool: ConnectionPool
    let running: AsyncStream<Void>.Continuation
    let fails: Bool

    func run() async throws {
        pool.log.append("consume")
        running.yield()
        if fails { throw CocoaError(.fileReadCorruptFile) }
        // Runs until cancelled at shutdown.
        let (forever, keepOpen) = AsyncStream<Void>.makeStream()
        for await _ in forever {}
        keepOpen.finish()
        pool.log.append("consumer cancelled")
    }
}

/// A client whose `run()` returns once its group shuts down gracefully, as `PostgresClient`'s does.
private struct Client: Service {
    let pool: ConnectionPool
    let running: AsyncStream<Void>.Continuation

    func run() async throws {
        pool.log.append("client runs")
        running.yield()
        try? await gracefulShutdown()
        pool.log.append("client returned")
    }
}

private func makeContainer(_ log: OrderLog, _ running: AsyncStream<Void>.Continuation, fails: Bool) throws -> Container
{
    var builder = ContainerBuilder()
    builder.register(ConnectionPool.self, lifetime: .singleton) { _ in ConnectionPool(log: log) }
    builder.onStart(ConnectionPool.self) { _ in log.append("open pool") }
    builder.onStop(ConnectionPool.self) { _ in log.append("close pool") }
    builder.register(Consumer.self, lifetime: .singleton) { r in
        Consumer(pool: try r.resolve(ConnectionPool.self), running: running, fails: fails)
    }
    builder.runs(Consumer.self)
    return try builder.build()
}

/// A client that, as postgres-nio's `PostgresClient` does, marks itself running as the first step
/// of `run()`, before any `await`, and notes each use before that.
private final class MarkingClient: Service {
    private let runs = OrderLog()
    let complaints = OrderLog()

    func run() async throws {
        runs.append("run")
        try? await gracefulShutdown()
    }

    func query() {
        if runs.entries.isEmpty { complaints.append("query before run() was called") }
    }
}

/// What queries the client as soon as it starts.
private struct Reporter: Sendable {
    let client: MarkingClient
}

/// A group of the container alone, with a grace period no test reaches.
private func groupRunning(_ container: Container) -> ServiceGroup {
    ServiceGroup(services: [ContainerService(container, gracePeriod: .seconds(600))], logger: Logger(label: "test"))
}

@Suite(.timeLimit(.minutes(1))) struct RunningServicesInAGroupTests {
    @Test func theContainerServiceStartsRunsAndStopsInDependencyOrder() async throws {
        let log = OrderLog()
        let (running, runningSignal) = AsyncStream<Void>.makeStream()
        let container = try makeContainer(log, runningSignal, fails: false)
        let group = groupRunning(container)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            for await _ in running { break }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        #expect(log.entries == ["open pool", "consume", "consumer cancelled", "close pool", "dispose pool"])
    }

    @Test func whatDependsOnARunningServiceStartsOnlyOnceItsRunHasBegun() async throws {
        // Repeated: without the wait, the run's task is seldom scheduled before the next start hook.
        for _ in 0..<20 {
            let (started, startedSignal) = AsyncStream<Void>.makeStream()
            var builder = ContainerBuilder()
            builder.register(MarkingClient.self, lifetime: .singleton) { _ in MarkingClient() }
            builder.runs(MarkingClient.self)
            builder.register(Reporter.self, lifetime: .singleton) { r in
                Reporter(client: try r.resolve(MarkingClient.self))
            }
            builder.onStart(Reporter.self) { reporter in
                reporter.client.query()
                startedSignal.finish()
            }
            let container = try await builder.build()
            let client = try await container.resolve(MarkingClient.self)
            let group = groupRunning(container)
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                for await _ in started {}
                await group.triggerGracefulShutdown()
                do {
                    try await tasks.waitForAll()
                } catch let error as GraftError where error.code == .closed {
                    // The hook signals from inside start(), so the shutdown can come before
                    // start() has recorded it; start() then says so. What is checked here is
                    // only the order of the client's run and its first query.
                }
            }
            #expect(client.complaints.entries.isEmpty)
        }
    }

    @Test func aFailingServiceShutsTheContainerDownAndTheGroupThrowsNamingIt() async throws {
        let log = OrderLog()
        let (_, runningSignal) = AsyncStream<Void>.makeStream()
        let container = try makeContainer(log, runningSignal, fails: true)
        let group = groupRunning(container)
        let error = await #expect(throws: GraftError.self) { try await group.run() }
        #expect(error?.code == .runningServiceFailed)
        #expect(error?.summary.hasPrefix("run() of Consumer threw: ") == true)
        #expect(log.entries == ["open pool", "consume", "close pool", "dispose pool"])
    }

    @Test func aServiceThatReturnsOnGracefulShutdownEndsTheGroupWithoutAnError() async throws {
        let log = OrderLog()
        let (running, runningSignal) = AsyncStream<Void>.makeStream()
        var builder = ContainerBuilder()
        builder.register(ConnectionPool.self, lifetime: .singleton) { _ in ConnectionPool(log: log) }
        builder.onStop(ConnectionPool.self) { _ in log.append("close pool") }
        builder.register(Client.self, lifetime: .singleton) { r in
            Client(pool: try r.resolve(ConnectionPool.self), running: runningSignal)
        }
        builder.runs(Client.self)
        let group = groupRunning(try await builder.build())
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            for await _ in running { break }
            await group.triggerGracefulShutdown()
            // Throws if the container took the client's return for a failure.
            try await tasks.waitForAll()
        }
        #expect(log.entries == ["client runs", "client returned", "close pool", "dispose pool"])
    }
}
