import Graft
import Testing

/// A connection a ``FakePool`` lends only inside `withConnection`'s closure.
private final class FakeConnection: Sendable {
    let id: Int
    private let lent = Guarded(true)

    init(id: Int) { self.id = id }

    var isLent: Bool { lent.current }
    func takeBack() { lent.withLock { $0 = false } }
}

private struct PoolExhausted: Error, CustomStringConvertible {
    var description: String { "no connection available" }
}

private struct ReturnFailed: Error, CustomStringConvertible {
    var description: String { "COMMIT failed: deferred constraint violated" }
}

/// A with-style lender, as postgres-nio's `PostgresClient.withConnection` is: at most `capacity`
/// connections out at once (others wait), each lent inside the closure and taken back when the
/// closure returns. It records each lend and return.
private final class FakePool: Sendable {
    private struct State: Sendable {
        var nextID = 0
        var out = 0
        var mostOut = 0
        var failuresToCome: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    let log = EventLog()
    let capacity: Int
    let failsOnReturn: Bool
    /// When set, `withConnection` waits here before lending.
    let gate: Latch?
    /// When set, `withConnection` lends even if its task was cancelled while it waited.
    let ignoresCancellation: Bool
    private let state: Guarded<State>

    init(
        capacity: Int = 1000,
        failingFirst failures: Int = 0,
        failsOnReturn: Bool = false,
        gate: Latch? = nil,
        ignoresCancellation: Bool = false
    ) {
        self.capacity = capacity
        self.failsOnReturn = failsOnReturn
        self.gate = gate
        self.ignoresCancellation = ignoresCancellation
        state = Guarded(State(failuresToCome: failures))
    }

    var mostOut: Int { state.current.mostOut }
    var out: Int { state.current.out }

    func withConnection<Result: Sendable>(_ body: (FakeConnection) async throws -> Result) async throws -> Result {
        if let gate {
            log.append("waiting")
            await gate.wait()
            if !ignoresCancellation && Task.isCancelled {
                log.append("cancelled")
                throw CancellationError()
            }
        }
        let fails = state.withLock { state in
            defer { state.failuresToCome -= 1 }
            return state.failuresToCome > 0
        }
        if fails { throw PoolExhausted() }
        await takeSlot()
        let connection = FakeConnection(
            id: state.withLock { state in
                state.nextID += 1
                return state.nextID
            }
        )
        log.append("lend \(connection.id)")
        defer {
            connection.takeBack()
            giveSlot()
        }
        let result = try await body(connection)
        log.append("return \(connection.id)")
        if failsOnReturn { throw ReturnFailed() }
        return result
    }

    private func takeSlot() async {
        await withCheckedContinuation { waiter in
            let now = state.withLock { state in
                guard state.out < capacity else {
                    state.waiters.append(waiter)
                    return false
                }
                state.out += 1
                state.mostOut = max(state.mostOut, state.out)
                return true
            }
            if now { waiter.resume() }
        }
    }

    private func giveSlot() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiters.isEmpty else {
                state.out -= 1
                return nil
            }
            return state.waiters.removeFirst()  // the slot passes to the next waiter
        }
        next?.resume()
    }
}

/// Commits in the completion step, on the leased connection.
private final class UnitOfWork: Completable, AsyncDisposable {
    let connection: FakeConnection
    let log: EventLog

    init(connection: FakeConnection, log: EventLog) {
        self.connection = connection
        self.log = log
    }

    func complete() async throws {
        log.append("commit on \(connection.id), lent: \(connection.isLent)")
    }

    func dispose() async {
        log.append("dispose unit of work, connection lent: \(connection.isLent)")
    }
}

/// Autowired from the leased connection.
private struct Repository: Sendable {
    let connection: FakeConnection
}

/// A scoped service leased from a with-style API (`register(_:lifetime:leasedFrom:)`).
@Suite(.timeLimit(.minutes(1))) struct LeasedServiceTests {
    private func container(_ pool: FakePool, lifetime: Lifetime = .scoped) throws -> Container {
        var builder = ContainerBuilder()
        builder.register(FakePool.self, instance: pool)
        builder.register(FakeConnection.self, lifetime: lifetime, dependencies: [Requirement(FakePool.self)]) {
            r,
            use in
            try await r.resolve(FakePool.self).withConnection { connection in try await use(connection) }
        }
        builder.register(UnitOfWork.self, lifetime: .scoped) { r async throws in
            UnitOfWork(connection: try await r.resolve(FakeConnection.self), log: pool.log)
        }
        builder.onComplete(UnitOfWork.self)
        builder.register(Repository.self, lifetime: .scoped, using: Repository.init(connection:))
        return try builder.build()
    }

    @Test func leasedOnTheFirstResolveInAScopeSharedWithinItAndReturnedWhenItCloses() async throws {
        let pool = FakePool()
        let container = try container(pool)
        let scope = container.makeScope()
        let untouched = container.makeScope()
        #expect(pool.log.entries.isEmpty)

        let first = try await scope.resolve(FakeConnection.self)
        let again = try await scope.resolve(FakeConnection.self)
        #expect(first === again)
        #expect(first.isLent)
        #expect(pool.log.entries == ["lend 1"])

        try await untouched.close()
        try await scope.close()
        #expect(pool.log.entries == ["lend 1", "return 1"])
        #expect(!first.isLent)
        #expect(pool.out == 0)
    }

    @Test func eachScopeLeasesItsOwn() async throws {
        let pool = FakePool()
        let container = try container(pool)
        let first = container.makeScope()
        let second = container.makeScope()
        let one = try await first.resolve(FakeConnection.self)
        let two = try await second.resolve(FakeConnection.self)
        #expect(one !== two)
        try await second.close()
        #expect(one.isLent && !two.isLent)
        try await first.close()
        #expect(pool.log.entries == ["lend 1", "lend 2", "return 2", "return 1"])
    }

    @Test func theLeaseIsHeldThroughTheCompletionStepAndReturnedAfterWhatWasMadeFromItIsDisposed() async throws {
        let pool = FakePool()
        let scope = try container(pool).makeScope()
        _ = try await scope.resolve(UnitOfWork.self)
        try await scope.complete()
        #expect(pool.log.entries == ["lend 1", "commit on 1, lent: true"])
        try await scope.close()
        #expect(
            pool.log.entries == [
                "lend 1", "commit on 1, lent: true", "dispose unit of work, connection lent: true", "return 1",
            ]
        )
    }

    @Test func anErrorWhileLeasingIsTheResolvesErrorNamingTheServiceAndTheNextResolveLeasesAgain() async throws {
        let pool = FakePool(failingFirst: 1)
        let scope = try container(pool).makeScope()
        let error = await #expect(throws: GraftError.self) { try await scope.resolve(FakeConnection.self) }
        #expect(error?.code == .factoryFailed)
        #expect(error?.service == "FakeConnection")
        #expect(error?.summary == "factory of FakeConnection threw: no connection available")
        #expect(error?.underlyingError is PoolExhausted)
        #expect(error?.hints.first?.hasPrefix("registered at GraftTests/LeasedServiceTests.swift:") == true)
        #expect(pool.log.entries.isEmpty)

        let connection = try await scope.resolve(FakeConnection.self)
        #expect(connection.id == 1)
        try await scope.close()
        #expect(pool.log.entries == ["lend 1", "return 1"])
    }

    @Test func anErrorWhileLeasingADependencyHasThePath() async throws {
        let pool = FakePool(failingFirst: 1)
        let scope = try container(pool).makeScope()
        let error = await #expect(throws: GraftError.self) { try await scope.resolve(UnitOfWork.self) }
        #expect(error?.code == .factoryFailed)
        #expect(error?.service == "FakeConnection")
        #expect(error?.path == ["UnitOfWork", "FakeConnection"])
        try await scope.close()
    }

    @Test func anErrorWhileReturningIsADisposalFailureOfTheClose() async throws {
        let pool = FakePool(failsOnReturn: true)
        let scope = try container(pool).makeScope()
        _ = try await scope.resolve(UnitOfWork.self)
        let error = await #expect(throws: GraftError.self) { try await scope.close() }
        #expect(error?.code == .disposalFailed)
        #expect(error?.summary == "1 disposal failed while closing the scope")
        #expect(error?.problems.map(\.service) == ["FakeConnection"])
        #expect(
            error?.problems.map(\.summary) == [
                "dispose() of FakeConnection threw: COMMIT failed: deferred constraint violated"
            ]
        )
        #expect(error?.problems.first?.underlyingError is ReturnFailed)
        #expect(pool.log.entries.last == "return 1")
        #expect(pool.out == 0)
    }

    @Test func aLenderThatReturnsWithoutLendingIsAnError() async throws {
        var builder = ContainerBuilder()
        builder.register(FakeConnection.self, lifetime: .scoped) { _, _ in }
        let scope = try await builder.build().makeScope()
        let error = await #expect(throws: GraftError.self) { try await scope.resolve(FakeConnection.self) }
        #expect(error?.code == .invalidLease)
        #expect(error?.service == "FakeConnection")
        #expect(error?.summary == "the lender of FakeConnection returned without lending it")
        try await scope.close()
    }

    @Test func aLenderThatLendsTwiceGetsAnErrorFromTheSecondUse() async throws {
        let second = Guarded<GraftError?>(nil)
        var builder = ContainerBuilder()
        builder.register(FakeConnection.self, lifetime: .scoped) { _, use in
            try await use(FakeConnection(id: 1))
            do { try await use(FakeConnection(id: 2)) } catch let error as GraftError { second.withLock { $0 = error } }
        }
        let scope = try await builder.build().makeScope()
        #expect(try await scope.resolve(FakeConnection.self).id == 1)
        try await scope.close()
        #expect(second.current?.code == .invalidLease)
        #expect(
            second.current?.summary
                == "the lender of FakeConnection called use(value) twice: a lease lends one instance"
        )
    }

    @Test func aLeaseOnALifetimeOtherThanScopedIsABuildProblemNamingTheService() throws {
        for lifetime in [Lifetime.transient, .singleton, .eagerSingleton, .graph, .weak] {
            var builder = ContainerBuilder()
            builder.register(FakeConnection.self, name: "replica", lifetime: lifetime) { _, use in
                try await use(FakeConnection(id: 1))
            }
            let error = #expect(throws: GraftError.self) { try builder.build() }
            // An eager singleton also needs await to be made: build() says so too.
            let problems = error?.problems.filter { $0.code != .needsAwait } ?? []
            #expect(problems.map(\.code) == [.invalidLease])
            #expect(problems.first?.service == "FakeConnection[\"replica\"]")
            #expect(
                problems.first?.summary.hasPrefix("FakeConnection[\"replica\"] (GraftTests/LeasedServiceTests.swift:")
                    == true
            )
            #expect(
                problems.first?.summary.hasSuffix(") is leased from a with-style API and is \(lifetime), not .scoped")
                    == true
            )
            #expect(
                problems.first?.hints == [
                    "a lease is held from the first resolve in a scope until that scope closes, so only a .scoped "
                        + "service can be leased; register FakeConnection[\"replica\"] with lifetime: .scoped"
                ]
            )
        }
    }

    @Test func aSynchronousResolveSaysItNeedsAwaitAndHowToAwait() async throws {
        let pool = FakePool()
        let scope = try container(pool).makeScope()
        let error = #expect(throws: GraftError.self) { try syncResolve(FakeConnection.self, from: scope) }
        #expect(error?.code == .needsAwait)
        #expect(
            error?.summary
                == "FakeConnection needs await to be created: it is leased from a with-style API, which lends it only to async code"
        )
        #expect(
            error?.hints.contains {
                $0 == "in an async function, write `try await resolve(FakeConnection.self)` "
                    + "(a synchronous function or closure must become async first)"
            } == true
        )
        let throughUnitOfWork = #expect(throws: GraftError.self) { try syncResolve(Repository.self, from: scope) }
        #expect(
            throughUnitOfWork?.summary
                == "Repository needs await to be created: it depends on FakeConnection, which is leased from a with-style API"
        )
        // The hint, followed literally, works.
        _ = try await scope.resolve(FakeConnection.self)
        #expect(pool.log.entries == ["lend 1"])
        try await scope.close()
    }

    @Test func aLeasedServiceThatIsDisposableIsNotDisposedByGraftTheLenderTakesItBack() async throws {
        let disposals = Counter()
        final class Handle: Disposable {
            let disposals: Counter
            init(_ disposals: Counter) { self.disposals = disposals }
            func dispose() { disposals.increment() }
        }
        var builder = ContainerBuilder()
        builder.register(Handle.self, lifetime: .scoped) { _, use in try await use(Handle(disposals)) }
        let scope = try await builder.build().makeScope()
        _ = try await scope.resolve(Handle.self)
        try await scope.close()
        #expect(disposals.value == 0)
    }

    @Test func aCancelledResolveCancelsTheLeaseAndLeavesNothingLent() async throws {
        let gate = Latch()
        let pool = FakePool(gate: gate)
        let scope = try container(pool).makeScope()
        let resolve = Task { try await scope.resolve(FakeConnection.self) }
        while pool.log.entries.isEmpty { await Task.yield() }  // waiting at the gate
        resolve.cancel()
        let error = await #expect(throws: GraftError.self) { try await resolve.value }
        #expect(error?.code == .factoryFailed)
        #expect(error?.underlyingError is CancellationError)
        #expect(pool.log.entries == ["waiting", "cancelled"])
        gate.open()
        try await scope.close()
        #expect(pool.out == 0)
    }

    @Test func whatALenderLendsAfterTheResolveWasCancelledIsReturnedAtOnce() async throws {
        let gate = Latch()
        let pool = FakePool(gate: gate, ignoresCancellation: true)
        let scope = try container(pool).makeScope()
        let resolve = Task { try await scope.resolve(FakeConnection.self) }
        while pool.log.entries.isEmpty { await Task.yield() }
        resolve.cancel()
        gate.open()
        let error = await #expect(throws: GraftError.self) { try await resolve.value }
        #expect(error?.underlyingError is CancellationError)
        // Returned before the resolve threw, not when the scope closes.
        #expect(pool.log.entries == ["waiting", "lend 1", "return 1"])
        #expect(pool.out == 0)
        try await scope.close()
    }

    @Test func aScopeClosedWhileItsLeaseIsBeingAcquiredGetsItReturned() async throws {
        let gate = Latch()
        let pool = FakePool(gate: gate)
        let scope = try container(pool).makeScope()
        let resolve = Task { try await scope.resolve(FakeConnection.self) }
        while pool.log.entries.isEmpty { await Task.yield() }
        try await scope.close()
        gate.open()
        let error = await #expect(throws: GraftError.self) { try await resolve.value }
        #expect(error?.code == .closed)
        #expect(pool.log.entries == ["waiting", "lend 1", "return 1"])
        #expect(pool.out == 0)
    }

    @Test func aSynchronousCloseCannotAwaitTheReturnButStillEndsTheLease() async throws {
        let pool = FakePool()
        let scope = try container(pool).makeScope()
        _ = try await scope.resolve(FakeConnection.self)
        let error = #expect(throws: GraftError.self) { try syncClose(scope) }
        #expect(error?.problems.map(\.code) == [.disposalFailed])
        #expect(error?.problems.first?.hints.contains { $0.contains("try await scope.close()") } == true)
        while pool.out > 0 { await Task.yield() }
        #expect(pool.log.entries == ["lend 1", "return 1"])
    }

    @Test func shutdownReturnsTheLeasesOfScopesLeftOpen() async throws {
        let pool = FakePool()
        let container = try container(pool)
        for _ in 0..<3 { _ = try await container.makeScope().resolve(FakeConnection.self) }
        try await container.shutdown()
        #expect(pool.log.entries.filter { $0.hasPrefix("return") }.count == 3)
        #expect(pool.out == 0)
    }

    @Test func underContentionEveryScopeLeasesOnceAndReturnsWhatItLeased() async throws {
        let pool = FakePool(capacity: 4)
        let container = try container(pool)
        let scopes = 200
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<scopes {
                group.addTask {
                    let scope = container.makeScope()
                    // Four resolves in one scope at once: one lease.
                    let ids = try await withThrowingTaskGroup(of: Int.self) { inner in
                        for _ in 0..<4 { inner.addTask { try await scope.resolve(FakeConnection.self).id } }
                        return try await inner.reduce(into: Set<Int>()) { $0.insert($1) }
                    }
                    #expect(ids.count == 1)
                    _ = try await scope.resolve(UnitOfWork.self)
                    try await scope.complete()
                    try await scope.close()
                }
            }
            try await group.waitForAll()
        }
        let entries = pool.log.entries
        #expect(entries.filter { $0.hasPrefix("lend ") }.count == scopes)
        #expect(entries.filter { $0.hasPrefix("return ") }.count == scopes)
        #expect(entries.filter { $0.hasPrefix("commit on ") && $0.hasSuffix("lent: true") }.count == scopes)
        // Each connection is lent, committed on, then returned, in that order.
        for id in 1...scopes {
            let own = entries.filter {
                $0 == "lend \(id)" || $0 == "return \(id)" || $0.hasPrefix("commit on \(id),")
            }
            #expect(own == ["lend \(id)", "commit on \(id), lent: true", "return \(id)"])
        }
        #expect(pool.mostOut <= 4)
        #expect(pool.out == 0)
    }
}

/// A synchronous close, called from async code.
private func syncClose(_ scope: Scope) throws {
    try scope.close()
}
