import Graft
import Synchronization
import Testing

/// A synchronous service that depends on the async pool.
private final class Repository: Sendable {
    let pool: Pool

    init(pool: Pool) {
        self.pool = pool
    }
}

private final class Settings: Sendable {}

@MainActor
private final class ViewModel: Sendable {
    let repository: Repository
    var title = "laps"

    init(repository: Repository) {
        self.repository = repository
    }
}

private struct Unreachable: Error {}

private func poolBuilder(lifetime: Lifetime = .singleton) -> ContainerBuilder {
    var builder = ContainerBuilder()
    builder.register(Pool.self, lifetime: lifetime) { _ async in await Pool(opening: "pool") }
    builder.register(Repository.self, using: Repository.init(pool:))
    return builder
}

@Suite struct AsyncResolutionTests {
    @Test func asyncFactoryResolvesWithAwait() async throws {
        let container = try await poolBuilder().build()
        let repository = try await container.resolve(Repository.self)
        #expect(try await repository.pool === container.resolve(Pool.self))
    }

    @Test func asyncAutowiredInitializer() async throws {
        var builder = ContainerBuilder()
        builder.register(String.self, instance: "autowired")
        builder.register(EventLog.self, instance: EventLog())
        builder.register(Pool.self, lifetime: .singleton, using: Pool.init(opening:log:))
        let container = try await builder.build()
        _ = try await container.resolve(Pool.self)
    }

    @Test func synchronousResolveOfAsyncServiceNamesTheAsyncServiceBehindIt() throws {
        let container = try poolBuilder().build()
        let error = #expect(throws: GraftError.self) { try container.resolve(Repository.self) }
        #expect(error?.code == .needsAwait)
        #expect(
            error?.description
                == """
                Graft: Repository needs await to be created: it depends on Pool, whose factory is async
                  this runs inside a task, but Swift picked the synchronous resolve
                  in an async function, write `try await resolve(Repository.self)` (a synchronous function or closure must become async first)
                  in top-level code (main.swift) Swift picks the synchronous overload even after `await`: move the code into an async function or an `@main` type's `static func main() async`
                """
        )
    }

    @Test func synchronousResolveReturnsAnAsyncSingletonThatExists() async throws {
        let container = try await poolBuilder().build()
        let pool = try await container.resolve(Pool.self)
        #expect(try syncResolve(Pool.self, from: container) === pool)
    }

    @Test func synchronousClosureMayUseAnExistingAsyncSingleton() async throws {
        var builder = poolBuilder()
        builder.register(Settings.self) { r in
            _ = try r.resolve(Pool.self)
            return Settings()
        }
        let container = try await builder.build()
        let error = #expect(throws: GraftError.self) { try container.resolve(Settings.self) }
        #expect(error?.code == .needsAwait)
        _ = try await container.resolve(Pool.self)
        _ = try syncResolve(Settings.self, from: container)
    }

    @Test func eagerAsyncSingletonNeedsTheAsyncBuild() async throws {
        let openings = Counter()
        var builder = ContainerBuilder()
        builder.register(Pool.self, lifetime: .eagerSingleton) { _ async in
            openings.increment()
            return await Pool(opening: "eager")
        }
        let error = #expect(throws: GraftError.self) { try builder.build() }
        #expect(
            error?.problems.first?.description
                == """
                Graft: eager singleton Pool needs await to be created: its factory is async
                  this runs inside a task, but Swift picked the synchronous build() (or validate())
                  in an async function, write `try await builder.build()` (a synchronous function or closure must become async first)
                  in top-level code (main.swift) Swift picks the synchronous overload even after `await`: move the code into an async function or an `@main` type's `static func main() async`
                """
        )
        #expect(openings.value == 0)
        _ = try await builder.build()
        #expect(openings.value == 1)
    }

    @Test(.timeLimit(.minutes(1))) func asyncSingletonIsCreatedOnceForAThousandWaiters() async throws {
        let created = Atomic(0)
        var builder = ContainerBuilder()
        builder.register(Settings.self, lifetime: .singleton) { _ async throws in
            created.add(1, ordering: .relaxed)
            try await Task.sleep(for: .milliseconds(50))
            return Settings()
        }
        let container = try await builder.build()
        let identities = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<1_000 {
                group.addTask { ObjectIdentifier(try await container.resolve(Settings.self)) }
            }
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(identities.count == 1)
        #expect(created.load(ordering: .relaxed) == 1)
    }

    @Test(.timeLimit(.minutes(1))) func asyncScopedInstanceIsCreatedOncePerScope() async throws {
        let created = Atomic(0)
        var builder = ContainerBuilder()
        builder.register(Settings.self, lifetime: .scoped) { _ async throws in
            created.add(1, ordering: .relaxed)
            try await Task.sleep(for: .milliseconds(20))
            return Settings()
        }
        let container = try await builder.build()
        let scope = container.makeScope()
        let identities = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<1_000 {
                group.addTask { ObjectIdentifier(try await scope.resolve(Settings.self)) }
            }
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(identities.count == 1)
        #expect(created.load(ordering: .relaxed) == 1)
        try await scope.close()
    }

    @Test(.timeLimit(.minutes(1))) func everyWaiterGetsTheFactoryErrorAndTheNextResolveRetries() async throws {
        let attempts = Atomic(0)
        var builder = ContainerBuilder()
        builder.register(Settings.self, lifetime: .singleton) { _ async throws in
            let attempt = attempts.add(1, ordering: .relaxed).newValue
            try await Task.sleep(for: .milliseconds(50))
            if attempt == 1 { throw Unreachable() }
            return Settings()
        }
        let container = try await builder.build()
        let failures = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<100 {
                group.addTask { (try? await container.resolve(Settings.self)) == nil }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(failures == 100)
        #expect(attempts.load(ordering: .relaxed) == 1)
        _ = try await container.resolve(Settings.self)
        #expect(attempts.load(ordering: .relaxed) == 2)
    }

    @Test(.timeLimit(.minutes(1))) func cancellingTheFirstWaiterDoesNotCancelTheCreation() async throws {
        var builder = ContainerBuilder()
        builder.register(Settings.self, lifetime: .singleton) { _ async throws in
            try await Task.sleep(for: .milliseconds(200))
            return Settings()
        }
        let container = try await builder.build()
        let first = Task { try await container.resolve(Settings.self) }
        try await Task.sleep(for: .milliseconds(20))
        let second = Task { try await container.resolve(Settings.self) }
        first.cancel()
        let fromFirst = try await first.value
        let fromSecond = try await second.value
        #expect(fromFirst === fromSecond)
    }

    @Test(.timeLimit(.minutes(1))) func cooperativePoolKeepsRunningWhileAnAsyncSingletonIsCreated() async throws {
        let release = AsyncStream<Void>.makeStream()
        var builder = ContainerBuilder()
        builder.register(Settings.self, lifetime: .singleton) { _ async throws in
            for await _ in release.stream { break }
            return Settings()
        }
        let container = try await builder.build()
        // More waiters than the pool has threads: if waiting blocked threads, the task that
        // releases the factory could never run.
        let waiters = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<64 {
                    group.addTask { _ = try await container.resolve(Settings.self) }
                }
                try await group.waitForAll()
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        let progress = await Task { 21 * 2 }.value
        #expect(progress == 42)
        release.continuation.yield()
        release.continuation.finish()
        try await waiters.value
    }

    @Test func asyncDisposalRunsOnAsyncShutdown() async throws {
        let container = try await poolBuilder().build()
        let pool = try await container.resolve(Pool.self)
        try await container.shutdown()
        #expect(pool.isDisposed)
    }

    @Test func synchronousShutdownReportsAsyncDisposables() async throws {
        let container = try await poolBuilder().build()
        _ = try await container.resolve(Pool.self)
        let error = #expect(throws: GraftError.self) { try container.shutdown() }
        #expect(
            error?.problems.first?.summary
                == "Pool is AsyncDisposable and was not disposed by a synchronous close"
        )
    }

    @MainActor @Test func mainActorServiceResolvesFromMainActorCode() async throws {
        var builder = poolBuilder()
        builder.register(ViewModel.self) { r async throws in
            await ViewModel(repository: try await r.resolve(Repository.self))
        }
        let container = try await builder.build()
        let viewModel = try await container.resolve(ViewModel.self)
        viewModel.title = "lap times"
        #expect(viewModel.title == "lap times")
    }

    @MainActor @Test func mainActorServiceAutowiredFromItsIsolatedInitializer() async throws {
        var builder = poolBuilder()
        builder.register(ViewModel.self, usingMainActor: ViewModel.init(repository:))
        let container = try await builder.build()
        let viewModel = try await container.resolve(ViewModel.self)
        #expect(viewModel.repository.pool === (try await container.resolve(Pool.self)))
    }
}
