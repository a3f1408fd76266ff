import Dispatch
import Graft
import Testing

private final class Telemetry: Sendable {
    init() {}
}

private final class Tyres: Sendable {
    let telemetry: Telemetry

    init(telemetry: Telemetry) {
        self.telemetry = telemetry
    }
}

private final class Strategy: Sendable {
    let tyres: Tyres
    let telemetry: Telemetry

    init(tyres: Tyres, telemetry: Telemetry) {
        self.tyres = tyres
        self.telemetry = telemetry
    }
}

private final class Ping: Sendable {}
private final class Pong: Sendable {}

/// A rendezvous for tasks: each waits, suspended, for the others' signal, so no thread of the
/// cooperative pool is blocked and no clock decides when they go on.
private final class AsyncRendezvous: Sendable {
    private let arrivals: Countdown

    init(parties: Int) {
        arrivals = Countdown(parties)
    }

    /// Arrives and waits until every party has arrived (or `release()` lets everyone go).
    func arriveAndWait() async {
        arrivals.arrive()
        await arrivals.wait()
    }

    /// Lets every waiter go, whoever has arrived: for a test that is being cancelled.
    func release() {
        arrivals.release()
    }
}

/// The tests named "stress loop" run many callers at once, a bounded number of times, and check
/// what must hold whichever way they interleave; a `pause()` in a factory only widens the window,
/// it decides nothing the test asserts. The others force their interleaving with signals.
/// The time limit is a deadlock guard, not a speed requirement.
@Suite(.timeLimit(.minutes(10)))
struct ConcurrencyTests {
    static let taskCount = 1_000

    /// Runs `resolve` from `taskCount` tasks at once and returns what they resolved.
    private func resolveConcurrently<Service: AnyObject & Sendable>(
        _ resolve: @escaping @Sendable (Int) throws -> Service
    ) async throws -> [Service] {
        try await withThrowingTaskGroup(of: Service.self) { group in
            for index in 0..<Self.taskCount {
                group.addTask { try resolve(index) }
            }
            var results: [Service] = []
            for try await service in group {
                results.append(service)
            }
            return results
        }
    }

    @Test func stressLoopOfAThousandTasksResolvingASingletonCreatesItOnce() async throws {
        let calls = Counter()
        var builder = ContainerBuilder()
        builder.register(Telemetry.self, lifetime: .singleton) { _ in
            calls.increment()
            pause()
            return Telemetry()
        }
        let container = try await builder.build()

        let instances = try await resolveConcurrently { _ in try syncResolve(Telemetry.self, from: container) }

        #expect(instances.count == Self.taskCount)
        #expect(instances.distinctCount == 1)
        #expect(calls.value == 1)
    }

    @Test func stressLoopOfSynchronousAndAsyncCallersResolvingASingletonCreatesItOnce() async throws {
        let calls = Counter()
        var builder = ContainerBuilder()
        builder.register(Telemetry.self, lifetime: .singleton) { _ in
            calls.increment()
            pause()
            return Telemetry()
        }
        let container = try await builder.build()

        let instances = try await withThrowingTaskGroup(of: Telemetry.self) { group in
            for index in 0..<Self.taskCount {
                group.addTask {
                    if index.isMultiple(of: 2) { return try await container.resolve(Telemetry.self) }
                    return try syncResolve(Telemetry.self, from: container)
                }
            }
            var results: [Telemetry] = []
            for try await service in group {
                results.append(service)
            }
            return results
        }

        #expect(instances.distinctCount == 1)
        #expect(calls.value == 1)
    }

    @Test func stressLoopOfAThousandTasksResolvingOneScopesInstanceCreatesItOnce() async throws {
        let calls = Counter()
        var builder = ContainerBuilder()
        builder.register(Telemetry.self, lifetime: .scoped) { _ in
            calls.increment()
            pause()
            return Telemetry()
        }
        let container = try await builder.build()
        let scope = container.makeScope()

        let instances = try await resolveConcurrently { _ in try syncResolve(Telemetry.self, from: scope) }

        #expect(instances.distinctCount == 1)
        #expect(calls.value == 1)
        #expect(try syncResolve(Telemetry.self, from: container.makeScope()) !== instances[0])
    }

    @Test func stressLoopOfAThousandScopesGivesEachItsOwnScopedInstanceAndOneSingleton() async throws {
        let singletons = Counter()
        let log = EventLog()
        var builder = ContainerBuilder()
        builder.register(Telemetry.self, lifetime: .singleton) { _ in
            singletons.increment()
            pause()
            return Telemetry()
        }
        builder.register(Resource.self, lifetime: .scoped) { _ in Resource("scoped", log: log) }
        builder.register(Tyres.self, lifetime: .scoped, using: Tyres.init(telemetry:))
        let container = try await builder.build()

        let tyres = try await resolveConcurrently { _ in
            try container.withScope { scope in
                _ = try scope.resolve(Resource.self)
                return try scope.resolve(Tyres.self)
            }
        }

        #expect(tyres.distinctCount == Self.taskCount)
        #expect(tyres.map(\.telemetry).distinctCount == 1)
        #expect(singletons.value == 1)
        #expect(log.entries.count == Self.taskCount)
    }

    @Test func stressLoopOfSingletonFactoriesResolvingOtherSingletonsNeverDeadlocks() async throws {
        let calls = (telemetry: Counter(), tyres: Counter(), strategy: Counter())
        var builder = ContainerBuilder()
        builder.register(Telemetry.self, lifetime: .singleton) { _ in
            calls.telemetry.increment()
            pause()
            return Telemetry()
        }
        builder.register(Tyres.self, lifetime: .singleton) { r in
            calls.tyres.increment()
            pause()
            return Tyres(telemetry: try r.resolve())
        }
        builder.register(Strategy.self, lifetime: .singleton) { r in
            calls.strategy.increment()
            let telemetry: Telemetry = try r.resolve()
            pause()
            return Strategy(tyres: try r.resolve(), telemetry: telemetry)
        }
        let container = try await builder.build()

        let strategies = try await resolveConcurrently { index -> Strategy in
            switch index % 3 {
            case 0: _ = try syncResolve(Telemetry.self, from: container)
            case 1: _ = try syncResolve(Tyres.self, from: container)
            default: break
            }
            return try syncResolve(Strategy.self, from: container)
        }

        #expect(strategies.distinctCount == 1)
        #expect(strategies[0].tyres.telemetry === strategies[0].telemetry)
        #expect([calls.telemetry.value, calls.tyres.value, calls.strategy.value] == [1, 1, 1])
    }

    /// Scoped instances too: each scope's creations are coordinated apart from other scopes',
    /// and a cycle within one scope is still seen whole.
    @Test(arguments: [Lifetime.singleton, .scoped])
    func threadsEnteringAClosureCycleFromDifferentEndsBothGetACycleError(_ lifetime: Lifetime) async throws {
        // Both factories are under way before either resolves the other: a barrier holds each.
        let bothInside = ThreadBarrier(parties: 2)
        var builder = ContainerBuilder()
        builder.register(Ping.self, lifetime: lifetime) { r in
            bothInside.arriveAndWait()
            _ = try r.resolve(Pong.self)
            return Ping()
        }
        builder.register(Pong.self, lifetime: lifetime) { r in
            bothInside.arriveAndWait()
            _ = try r.resolve(Ping.self)
            return Pong()
        }
        let container = try await builder.build()
        let scope = container.makeScope()
        let errors = Guarded([Int: GraftError]())

        // Threads of their own: `concurrentPerform` may run both iterations on one thread, one
        // after the other, which the barrier would hold forever.
        await runOnDedicatedThreads(2) { index in
            do {
                if index == 0 {
                    _ = try scope.resolve(Ping.self)
                } else {
                    _ = try scope.resolve(Pong.self)
                }
            } catch let error as GraftError {
                errors.withLock { $0[index] = error }
            } catch {
                Issue.record(error, "not a GraftError")
            }
        }

        expectCycleEnteredFromBothEnds(Array(errors.current.values), "Ping", "Pong")
    }

    @Test func tasksEnteringAnAsyncClosureCycleFromDifferentEndsBothGetACycleError() async throws {
        let rendezvous = AsyncRendezvous(parties: 2)
        var builder = ContainerBuilder()
        builder.register(Ping.self, lifetime: .singleton) { r async throws in
            await rendezvous.arriveAndWait()
            _ = try await r.resolve(Pong.self)
            return Ping()
        }
        builder.register(Pong.self, lifetime: .singleton) { r async throws in
            await rendezvous.arriveAndWait()
            _ = try await r.resolve(Ping.self)
            return Pong()
        }
        let container = try await builder.build()

        // An engine that made one resolve wait for the other would leave both factories waiting
        // here; the time limit (a deadlock guard) cancels the test, which lets them go, so it
        // fails instead of hanging.
        let caught = await withTaskCancellationHandler {
            await withTaskGroup(of: GraftError?.self) { group in
                group.addTask {
                    do {
                        _ = try await container.resolve(Ping.self)
                        return nil
                    } catch { return error as? GraftError }
                }
                group.addTask {
                    do {
                        _ = try await container.resolve(Pong.self)
                        return nil
                    } catch { return error as? GraftError }
                }
                return await group.reduce(into: [GraftError?]()) { $0.append($1) }
            }
        } onCancel: {
            rendezvous.release()
        }

        #expect(caught.count == 2)
        for error in caught {
            #expect(error?.code == .cycle)
            #expect(
                ["dependency cycle: Ping → Pong → Ping", "dependency cycle: Pong → Ping → Pong"].contains(
                    error?.summary
                )
            )
            #expect(
                error?.hints.contains("two resolves entered this cycle from different ends at the same time") == true
            )
        }
        // Nothing half-made was kept: a later resolve runs the factories again and meets the
        // same cycle, alone this time.
        let alone = await #expect(throws: GraftError.self) { try await container.resolve(Ping.self) }
        #expect(
            alone?.description == """
                Graft: dependency cycle: Ping → Pong → Ping
                  resolving: Ping → Pong → Ping
                  break it with Lazy<Ping> or Provider<Ping> in Pong
                """
        )
    }

    @Test func closingAScopeFromManyThreadsDisposesOnce() throws {
        let log = EventLog()
        var builder = ContainerBuilder()
        builder.register(Resource.self, lifetime: .scoped) { _ in Resource("once", log: log) }
        let container = try builder.build()
        let scope = container.makeScope()
        _ = try scope.resolve(Resource.self)

        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            try? scope.close()
        }

        #expect(log.entries == ["once"])
    }
}
