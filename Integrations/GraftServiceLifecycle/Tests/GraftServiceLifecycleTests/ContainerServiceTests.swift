import Graft
import GraftServiceLifecycle
import Logging
import ServiceLifecycle
import Synchronization
import Testing

private final class DisposalLog: Sendable {
    private let entries = Mutex<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

private struct Pool: AsyncDisposable {
    let log: DisposalLog
    func dispose() async { log.append("pool") }
}

private final class UnitOfWork: AsyncDisposable {
    let pool: Pool
    init(pool: Pool) { self.pool = pool }
    func dispose() async { pool.log.append("unit") }
}

/// Stands in for a server: it holds one request's scope open until the test lets it finish,
/// whatever the group is doing, and returns on graceful shutdown like a server that has drained.
private struct RequestInFlight: Service {
    let container: Container
    let opened: AsyncStream<Void>.Continuation
    let release: AsyncStream<Void>

    func run() async throws {
        try await container.withScope { scope in
            _ = try await scope.resolve(UnitOfWork.self)
            opened.yield()
            for await _ in release {}
            // The request goes on after shutdown began: its unit of work is still there.
            _ = try await scope.resolve(UnitOfWork.self)
        }
        try? await gracefulShutdown()
    }
}

private func makeContainer(_ log: DisposalLog) throws -> Container {
    var builder = ContainerBuilder()
    builder.register(Pool.self, lifetime: .singleton) { _ in Pool(log: log) }
    builder.register(UnitOfWork.self, lifetime: .scoped, using: UnitOfWork.init(pool:))
    return try builder.build()
}

@Suite(.timeLimit(.minutes(1))) struct ContainerServiceTests {
    @Test(arguments: [true, false])
    func eitherOrderLetsTheRequestInFlightFinishBeforeDisposal(containerFirst: Bool) async throws {
        let log = DisposalLog()
        let container = try makeContainer(log)
        let (opened, openedSignal) = AsyncStream<Void>.makeStream()
        let (release, releaseSignal) = AsyncStream<Void>.makeStream()
        let request = RequestInFlight(container: container, opened: openedSignal, release: release)
        let service = ContainerService(container, gracePeriod: .seconds(600))
        let group = ServiceGroup(
            services: containerFirst ? [service, request] : [request, service],
            logger: Logger(label: "test")
        )

        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            for await _ in opened { break }
            await group.triggerGracefulShutdown()
            if !containerFirst {
                // Told first, the container drains and waits for the request.
                while !container.isShuttingDown { await Task.yield() }
                #expect(container.makeScope().isClosed)
            }
            #expect(log.all.isEmpty)
            releaseSignal.finish()
            try await tasks.waitForAll()
        }
        #expect(log.all == ["unit", "pool"])
    }

    @Test func cancellingTheGroupShutsTheContainerDownAtOnce() async throws {
        let log = DisposalLog()
        let container = try makeContainer(log)
        let stuck = container.makeScope()
        _ = try await stuck.resolve(UnitOfWork.self)
        let group = ServiceGroup(
            services: [ContainerService(container, gracePeriod: .seconds(600))],
            logger: Logger(label: "test")
        )
        let run = Task { try await group.run() }
        run.cancel()
        try? await run.value
        #expect(stuck.isClosed)
        #expect(log.all == ["unit", "pool"])
    }

    @Test func describesItselfForTheGroupsLogs() throws {
        let service = ContainerService(try makeContainer(DisposalLog()), gracePeriod: .seconds(5))
        #expect("\(service)" == "Graft.Container (grace period 5.0 seconds)")
    }

    @Test func aStartThatRunsOutOfItsTimeoutFailsTheGroupNamingTheServiceStillStarting() async throws {
        let log = DisposalLog()
        var builder = ContainerBuilder()
        builder.register(Pool.self, lifetime: .singleton) { _ in Pool(log: log) }
        builder.onStart(Pool.self) { _ in
            // A database that does not answer: waits until cancelled.
            let (never, keepOpen) = AsyncStream<Void>.makeStream()
            for await _ in never {}
            keepOpen.finish()
        }
        let container = try await builder.build()
        let service = ContainerService(container, startTimeout: .milliseconds(20), gracePeriod: .seconds(600))
        let group = ServiceGroup(services: [service], logger: Logger(label: "test"))

        let error = await #expect(throws: GraftError.self) { try await group.run() }
        #expect(error?.code == .startTimedOut)
        #expect(error?.service == "Pool")
        #expect(
            error?.description == """
                Graft: container.start(timeout: 0.02 seconds) ran out of time: the start hook of Pool was still running
                  it was cancelled and is not awaited; make it give up sooner (a connect timeout, say), or give start(timeout:) more time
                  nothing had started before it
                  shut the container down to dispose what was made; build a new one to start again
                """
        )
        #expect(container.isShuttingDown)
        #expect(log.all == ["pool"])
    }
}
