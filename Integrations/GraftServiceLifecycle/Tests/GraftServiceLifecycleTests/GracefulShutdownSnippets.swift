import Graft
import GraftServiceLifecycle
import Logging
import ServiceLifecycle
import Synchronization
import Testing
import UnixSignals

// The code of the article "Graceful shutdown in a service group" (GracefulShutdown.md),
// compiled and run, and so is the code of the catalog's landing page.
// `.ci/articles` compiles their blocks as they are; these run them.

/// Shared by every job: made once, closed when the container shuts down.
private actor Database: AsyncDisposable {
    private(set) var log: [String] = []

    func commit(_ order: String) { log.append("commit \(order)") }
    func dispose() async { log.append("close") }
}

/// One job's work: what it records is committed when the job's scope closes.
private final class UnitOfWork: AsyncDisposable {
    let database: Database
    private let pending = Mutex<[String]>([])

    init(database: Database) { self.database = database }

    func record(_ order: String) { pending.withLock { $0.append(order) } }

    func dispose() async {
        for order in pending.withLock({ $0 }) {
            await database.commit(order)
        }
    }
}

private typealias Job = @Sendable (Scope) async throws -> Void

/// Runs each job in a scope of its own. It knows nothing of HTTP.
private struct JobRunner: Service {
    let container: Container
    let jobs: AsyncStream<Job>

    func run() async throws {
        // Graceful shutdown ends the loop: no new job is taken, the one in hand finishes first.
        for await job in jobs.cancelOnGracefulShutdown() {
            try await container.withScope { scope in
                try await job(scope)
            }
        }
    }
}

/// The article's builder.
private func makeContainer() async throws -> Container {
    var builder = ContainerBuilder()
    builder.register(Database.self, lifetime: .singleton) { _ in Database() }
    builder.register(UnitOfWork.self, lifetime: .scoped, using: UnitOfWork.init(database:))
    let container = try await builder.build()
    return container
}

/// A job that records `order`, then holds its scope open until `release` finishes.
private func heldJob(_ order: String, started: AsyncStream<Void>.Continuation, release: AsyncStream<Void>) -> Job {
    { scope in
        try await scope.resolve(UnitOfWork.self).record(order)
        started.yield()
        for await _ in release {}
    }
}

private struct JobFailed: Error {}

private struct BrokenPool: AsyncDisposable {
    func dispose() async throws { throw JobFailed() }
}

@Suite(.timeLimit(.minutes(1))) struct GracefulShutdownSnippets {
    @Test func theJobInHandFinishesThenTheContainerDisposes() async throws {
        let container = try await makeContainer()
        let database = try await container.resolve(Database.self)
        let (jobs, queue) = AsyncStream<Job>.makeStream()
        let (started, startedSignal) = AsyncStream<Void>.makeStream()
        let (release, releaseSignal) = AsyncStream<Void>.makeStream()
        let logger = Logger(label: "jobs")

        let runner = JobRunner(container: container, jobs: jobs)
        let group = ServiceGroup(
            services: [ContainerService(container), runner],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        )
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            queue.yield { scope in
                try await scope.resolve(UnitOfWork.self).record("order 1")
            }
            queue.yield(heldJob("order 2", started: startedSignal, release: release))
            for await _ in started { break }

            // What SIGTERM does; the test asks for it directly.
            await group.triggerGracefulShutdown()
            // The runner is told first; the container waits its turn with nothing disposed.
            #expect(!container.isShuttingDown)
            #expect(await database.log == ["commit order 1"])
            releaseSignal.finish()
            try await tasks.waitForAll()
        }
        #expect(await database.log == ["commit order 1", "commit order 2", "close"])
        #expect(container.makeScope().isClosed)
    }

    @Test func toldFirstTheContainerDrainsWhileTheJobFinishes() async throws {
        let container = try await makeContainer()
        let database = try await container.resolve(Database.self)
        let (jobs, queue) = AsyncStream<Job>.makeStream()
        let (started, startedSignal) = AsyncStream<Void>.makeStream()
        let (release, releaseSignal) = AsyncStream<Void>.makeStream()
        let runner = JobRunner(container: container, jobs: jobs)
        let service = ContainerService(container, gracePeriod: .seconds(30))
        let group = ServiceGroup(
            services: [runner, service],
            logger: Logger(label: "jobs")
        )
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            queue.yield(heldJob("order 1", started: startedSignal, release: release))
            for await _ in started { break }

            await group.triggerGracefulShutdown()
            // Listed last, the container is told first; the wait is bounded.
            let deadline = ContinuousClock.now + .seconds(10)
            while !container.isShuttingDown, ContinuousClock.now < deadline { await Task.yield() }
            #expect(container.isShuttingDown)
            // Draining: no new scope, so a job taken now would fail; the open one goes on.
            let error = await #expect(throws: GraftError.self) {
                try await container.makeScope().resolve(UnitOfWork.self)
            }
            #expect(error?.code == .closed)
            #expect(await database.log.isEmpty)
            releaseSignal.finish()
            try await tasks.waitForAll()
        }
        #expect(await database.log == ["commit order 1", "close"])
    }

    @Test func theGracePeriodEndsForAScopeThatStaysOpen() async throws {
        let container = try await makeContainer()
        let database = try await container.resolve(Database.self)
        let stuck = container.makeScope()
        try await stuck.resolve(UnitOfWork.self).record("order 1")
        let group = ServiceGroup(
            services: [ContainerService(container, gracePeriod: .milliseconds(50))],
            logger: Logger(label: "jobs")
        )
        let error = await #expect(throws: GraftError.self) {
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
        }
        #expect(stuck.isClosed)
        #expect(await database.log == ["commit order 1", "close"])
        // The work cut off is named: the group ends with the error, and a server exits non-zero.
        #expect(error?.code == .gracePeriodRanOut)
        #expect(
            error?.summary
                == "the shutdown's grace period of 0.05 seconds ran out and 1 scope was still open; "
                + "they were closed for the work in them: an open scope holding UnitOfWork"
        )
        #expect(
            error?.hints == [
                "work that outlives the grace period is stuck or too slow: give it a limit of its own "
                    + "(a query or connection timeout), or a longer gracePeriod"
            ]
        )
    }

    @Test func scopesThatCloseWithinTheGracePeriodEndTheGroupWithoutAnError() async throws {
        let container = try await makeContainer()
        let database = try await container.resolve(Database.self)
        let scope = container.makeScope()
        try await scope.resolve(UnitOfWork.self).record("order 1")
        let group = ServiceGroup(
            services: [ContainerService(container, gracePeriod: .seconds(60))],
            logger: Logger(label: "jobs")
        )
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            await group.triggerGracefulShutdown()
            // The request finishes well within the grace period: a clean shutdown, at once.
            while !container.isShuttingDown { await Task.yield() }
            try await scope.close()
            try await tasks.waitForAll()
        }
        #expect(await database.log == ["commit order 1", "close"])
    }

    @Test func aFailedDisposalEndsTheGroupWithTheContainersError() async throws {
        var builder = ContainerBuilder()
        builder.register(BrokenPool.self, lifetime: .singleton) { _ in BrokenPool() }
        builder.register(Database.self, lifetime: .singleton) { _ in Database() }
        let container = try await builder.build()
        _ = try await container.resolve(BrokenPool.self)
        let database = try await container.resolve(Database.self)
        let group = ServiceGroup(services: [ContainerService(container)], logger: Logger(label: "jobs"))

        let error = await #expect(throws: GraftError.self) {
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
        }
        #expect(error?.code == .disposalFailed)
        // Every disposal ran, the one that threw included.
        #expect(await database.log == ["close"])
    }

    @Test func aJobThatThrowsEndsTheGroupAndTheContainerShutsDown() async throws {
        let container = try await makeContainer()
        let database = try await container.resolve(Database.self)
        let (jobs, queue) = AsyncStream<Job>.makeStream()
        let runner = JobRunner(container: container, jobs: jobs)
        let group = ServiceGroup(
            services: [ContainerService(container), runner],
            logger: Logger(label: "jobs")
        )
        queue.yield { scope in
            _ = try await scope.resolve(UnitOfWork.self)
            throw JobFailed()
        }
        await #expect(throws: JobFailed.self) { try await group.run() }
        // The cancelled group shut the container down.
        #expect(await database.log == ["close"])
        #expect(container.isShuttingDown)
    }
}
