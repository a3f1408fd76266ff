import Graft
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

    init(repository: Repository) {
        self.repository = repository
    }
}

/// A pool whose factory awaits, and a repository autowired from it.
private func poolBuilder(lifetime: Lifetime = .singleton, log: EventLog = EventLog()) -> ContainerBuilder {
    var builder = ContainerBuilder()
    builder.register(Pool.self, lifetime: lifetime) { _ async in await Pool(opening: "pool", log: log) }
    builder.register(Repository.self, using: Repository.init(pool:))
    return builder
}

/// Where a factory of the tests below stands: how many runs started, how many are running now,
/// and the most that ever ran at once.
private final class FactoryRuns: Sendable {
    private let state = Guarded((started: 0, running: 0, mostAtOnce: 0))

    /// Notes a run starting and returns its number (1 for the first).
    func start() -> Int {
        state.withLock { state in
            state.started += 1
            state.running += 1
            state.mostAtOnce = max(state.mostAtOnce, state.running)
            return state.started
        }
    }

    func finish() {
        state.withLock { $0.running -= 1 }
    }

    var started: Int { state.current.started }
    var mostAtOnce: Int { state.current.mostAtOnce }
}

@Suite struct AsyncResolutionTests {
    @Test func asyncFactoryResolvesWithAwait() async throws {
        let container = try await poolBuilder().build()
        let repository = try await container.resolve(Repository.self)
        #expect(try await repository.pool === container.resolve(Pool.self))
    }

    @Test func asyncAutowiredInitializerIsAwaitedAndReceivesItsDependencies() async throws {
        let log = EventLog()
        var builder = ContainerBuilder()
        builder.register(String.self, instance: "autowired")
        builder.register(EventLog.self, instance: log)
        builder.register(Pool.self, lifetime: .singleton, using: Pool.init(opening:log:))
        let container = try await builder.build()

        // Autowiring saw that the initializer is async: a synchronous resolve cannot run it.
        let error = #expect(throws: GraftError.self) { try syncResolve(Pool.self, from: container) }
        #expect(error?.code == .needsAwait)
        #expect(error?.summary == "Pool needs await to be created: its factory is async")

        let pool = try await container.resolve(Pool.self)
        #expect(pool.label == "autowired")
        #expect(pool.log === log)
        #expect(try await container.resolve(Pool.self) === pool)
    }

    @Test func synchronousResolveReturnsAnAsyncSingletonThatExists() async throws {
        let container = try await poolBuilder().build()
        let pool = try await container.resolve(Pool.self)
        #expect(try syncResolve(Pool.self, from: container) === pool)
    }

    @Test func synchronousClosureMayUseAnExistingAsyncSingleton() async throws {
        let received = Guarded([ObjectIdentifier]())
        var builder = poolBuilder()
        builder.register(Settings.self) { r in
            let pool = try r.resolve(Pool.self)
            received.withLock { $0.append(ObjectIdentifier(pool)) }
            return Settings()
        }
        let container = try await builder.build()
        let error = #expect(throws: GraftError.self) { try container.resolve(Settings.self) }
        #expect(error?.code == .needsAwait)
        #expect(error?.path == ["Settings", "Pool"])

        let pool = try await container.resolve(Pool.self)
        _ = try syncResolve(Settings.self, from: container)

        #expect(received.current == [ObjectIdentifier(pool)])
    }

    @Test func eagerAsyncSingletonNeedsTheAsyncBuild() async throws {
        let openings = Counter()
        var builder = ContainerBuilder()
        builder.register(Pool.self, lifetime: .eagerSingleton) { _ async in
            openings.increment()
            return await Pool(opening: "eager")
        }

        let error = #expect(throws: GraftError.self) { try builder.build() }
        #expect(error?.problems.map(\.code) == [.needsAwait])
        #expect(
            error?.problems.map(\.summary) == ["eager singleton Pool needs await to be created: its factory is async"]
        )
        #expect(openings.value == 0)

        let container = try await builder.build()
        #expect(openings.value == 1)
        #expect(try await container.resolve(Pool.self).label == "eager")
        #expect(openings.value == 1)
    }

    @Test(.timeLimit(.minutes(1))) func asyncSingletonIsCreatedOnceForAThousandWaiters() async throws {
        let runs = FactoryRuns()
        let started = Latch()
        let release = Latch()
        var builder = ContainerBuilder()
        builder.register(Settings.self, lifetime: .singleton) { _ async throws in
            _ = runs.start()
            defer { runs.finish() }
            started.open()
            await release.wait()
            return Settings()
        }
        let container = try await builder.build()
        let waiters = Countdown(1_000)

        let identities = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<1_000 {
                group.addTask {
                    waiters.arrive()
                    return ObjectIdentifier(try await container.resolve(Settings.self))
                }
            }
            // The creation is held open until every waiter has called `resolve`.
            await started.wait()
            await waiters.wait()
            release.open()
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }

        #expect(identities.count == 1)
        #expect(runs.started == 1)
    }

    @Test(.timeLimit(.minutes(1))) func asyncScopedInstanceIsCreatedOncePerScope() async throws {
        let runs = FactoryRuns()
        let started = Latch()
        let release = Latch()
        var builder = ContainerBuilder()
        builder.register(Settings.self, lifetime: .scoped) { _ async throws in
            _ = runs.start()
            defer { runs.finish() }
            started.open()
            await release.wait()
            return Settings()
        }
        let container = try await builder.build()
        let scope = container.makeScope()
        let waiters = Countdown(1_000)

        let identities = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<1_000 {
                group.addTask {
                    waiters.arrive()
                    return ObjectIdentifier(try await scope.resolve(Settings.self))
                }
            }
            await started.wait()
            await waiters.wait()
            release.open()
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        let other = try await container.withScope { try await $0.resolve(Settings.self) }

        #expect(identities.count == 1)
        #expect(runs.started == 2)
        #expect(!identities.contains(ObjectIdentifier(other)))
        try await scope.close()
    }

    @Test(.timeLimit(.minutes(1))) func everyWaiterGetsTheFactoryErrorAndTheNextResolveRetries() async throws {
        let runs = FactoryRuns()
        let started = Latch()
        let release = Latch()
        let failing = Guarded(true)
        var builder = ContainerBuilder()
        let factoryLine = #line + 1
        builder.register(Settings.self, lifetime: .singleton) { _ async throws in
            _ = runs.start()
            defer { runs.finish() }
            started.open()
            await release.wait()
            if failing.current { throw Jammed(part: "settings") }
            return Settings()
        }
        let container = try await builder.build()
        let waiters = Countdown(100)

        // The first creation is held open until every waiter has called `resolve`; a waiter
        // that still came too late to join it starts a creation of its own, which fails too.
        let errors = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<100 {
                group.addTask {
                    waiters.arrive()
                    do {
                        _ = try await container.resolve(Settings.self)
                        return nil
                    } catch let error as GraftError {
                        return error.description
                    } catch {
                        return "not a GraftError: \(error)"
                    }
                }
            }
            await started.wait()
            await waiters.wait()
            release.open()
            return await group.reduce(into: [String?]()) { $0.append($1) }
        }
        let failedRuns = runs.started

        #expect(
            errors
                == Array(
                    repeating: """
                        Graft: factory of Settings threw: settings is jammed
                          registered at GraftTests/AsyncResolutionTests.swift:\(factoryLine); \
                        the next resolve runs the factory again
                        """,
                    count: 100
                )
        )
        #expect(runs.mostAtOnce == 1, "waiters joined the creation in flight instead of starting their own")

        failing.withLock { $0 = false }
        let settings = try await container.resolve(Settings.self)
        #expect(runs.started == failedRuns + 1)
        #expect(try await container.resolve(Settings.self) === settings)
        #expect(runs.started == failedRuns + 1)
    }

    @Test(.timeLimit(.minutes(1))) func cancellingTheFirstWaiterDoesNotCancelTheCreation() async throws {
        let runs = FactoryRuns()
        let started = Latch()
        let release = Latch()
        let creationSawCancellation = Guarded<Bool?>(nil)
        var builder = ContainerBuilder()
        builder.register(Settings.self, lifetime: .singleton) { _ async throws in
            _ = runs.start()
            defer { runs.finish() }
            started.open()
            await release.wait()
            creationSawCancellation.withLock { $0 = Task.isCancelled }
            try Task.checkCancellation()
            return Settings()
        }
        let container = try await builder.build()

        let first = Task { try await container.resolve(Settings.self) }
        await started.wait()
        let second = Task { try await container.resolve(Settings.self) }
        first.cancel()
        release.open()
        let fromFirst = await first.result
        let fromSecond = await second.result

        #expect(creationSawCancellation.current == false)
        #expect(try [fromFirst.get(), fromSecond.get()].distinctCount == 1)
        #expect(runs.started == 1)
    }

    @Test(.timeLimit(.minutes(1))) func cooperativePoolKeepsRunningWhileAnAsyncSingletonIsCreated() async throws {
        let runs = FactoryRuns()
        let release = Latch()
        var builder = ContainerBuilder()
        builder.register(Settings.self, lifetime: .singleton) { _ async throws in
            _ = runs.start()
            defer { runs.finish() }
            await release.wait()
            return Settings()
        }
        builder.register(Wheel.self, lifetime: .singleton) { _ in Wheel() }
        let container = try await builder.build()
        // More waiters than the pool has threads: if a waiter blocked its thread, the pool would
        // run out of threads before every waiter had started, and this test would hang until its
        // time limit failed it.
        let waiterCount = 64
        let waiters = Countdown(waiterCount)

        let identities = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<waiterCount {
                group.addTask {
                    waiters.arrive()
                    return ObjectIdentifier(try await container.resolve(Settings.self))
                }
            }
            await waiters.wait()
            // Every waiter has started while the creation is held open; other work, a resolve of
            // another service in a task of its own, still gets a thread and finishes.
            let other = try await Task { try await container.resolve(Wheel.self) }.value
            #expect(try await container.resolve(Wheel.self) === other)
            release.open()
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }

        #expect(identities.count == 1)
        #expect(runs.started == 1)
    }

    @Test func asyncDisposalRunsOnAsyncShutdown() async throws {
        let log = EventLog()
        let container = try await poolBuilder(log: log).build()
        let pool = try await container.resolve(Pool.self)
        #expect(!pool.isDisposed)

        try await container.shutdown()

        #expect(pool.isDisposed)
        #expect(log.entries == ["pool"])
    }

    @Test func synchronousShutdownReportsAsyncDisposables() async throws {
        let container = try await poolBuilder().build()
        let pool = try await container.resolve(Pool.self)
        let error = #expect(throws: GraftError.self) { try container.shutdown() }
        #expect(error?.code == .disposalFailed)
        #expect(
            error?.problems.map(\.description) == [
                """
                Graft: Pool is AsyncDisposable and was not disposed by a synchronous close
                  this runs inside a task, but Swift picked the synchronous shutdown()
                  in an async function, write `try await container.shutdown()` (a synchronous function or closure must become async first)
                  in top-level code (main.swift) Swift picks the synchronous overload even after `await`: move the code into an async function or an `@main` type's `static func main() async`
                """
            ]
        )
        #expect(!pool.isDisposed)
    }

    @Test func asyncResolveAllAwaitsEveryRegistrationInOrder() async throws {
        var builder = ContainerBuilder()
        builder.register((any Engine).self) { _ in RCEngine() }
        builder.register((any Engine).self, name: "v12", lifetime: .singleton) { _ async in
            await Task.yield()
            return V12Engine()
        }
        let container = try await builder.build()

        let error = #expect(throws: GraftError.self) { try container.resolveAll((any Engine).self) }
        #expect(
            error?.description
                == """
                Graft: Engine (name: "v12") needs await to be created: its factory is async
                  this runs inside a task, but Swift picked the synchronous resolve
                  in an async function, write `try await resolve(Engine.self, name: "v12")` (a synchronous function or closure must become async first)
                  in top-level code (main.swift) Swift picks the synchronous overload even after `await`: move the code into an async function or an `@main` type's `static func main() async`
                """
        )

        let engines = try await container.resolveAll((any Engine).self)
        let fromScope = try await container.withScope { try await $0.resolveAll((any Engine).self) }

        #expect(engines.map(\.name) == ["rc", "v12"])
        #expect(fromScope.map(\.name) == ["rc", "v12"])
        #expect(engines[1] as AnyObject === fromScope[1] as AnyObject, "the singleton is shared")
        #expect(engines[0] as AnyObject !== fromScope[0] as AnyObject, "the transient is made anew")
    }

    @MainActor @Test func mainActorServiceResolvesFromMainActorCode() async throws {
        var builder = poolBuilder()
        builder.register(ViewModel.self) { r async throws in
            await ViewModel(repository: try await r.resolve(Repository.self))
        }
        let container = try await builder.build()

        let first = try await container.resolve(ViewModel.self)
        let second = try await container.resolve(ViewModel.self)

        #expect(first !== second)
        #expect(first.repository !== second.repository)
        #expect(try await first.repository.pool === container.resolve(Pool.self))
    }

    @MainActor @Test func mainActorServiceAutowiredFromItsIsolatedInitializer() async throws {
        var builder = poolBuilder()
        builder.register(ViewModel.self, usingMainActor: ViewModel.init(repository:))
        let container = try await builder.build()
        let viewModel = try await container.resolve(ViewModel.self)
        #expect(viewModel.repository.pool === (try await container.resolve(Pool.self)))
    }
}
