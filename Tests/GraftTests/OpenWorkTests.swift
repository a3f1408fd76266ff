import Graft
import Testing

/// A unit of work whose `dispose()` waits until the test lets it finish: a lease whose return
/// hangs.
private final class StuckLease: AsyncDisposable {
    let disposing = Latch()
    let release = Latch()
    func dispose() async {
        disposing.open()
        await release.wait()
    }
}

/// A connection lent by a pool that takes it back only when the test lets it.
private final class PooledConnection: Sendable {
    let returning = Latch()
    let returnable = Latch()
}

/// A unit of work on a leased connection.
private final class Orders: AsyncDisposable {
    let connection: PooledConnection
    init(connection: PooledConnection) { self.connection = connection }
    func dispose() async {}
}

private func leasingContainer() throws -> Container {
    var builder = ContainerBuilder()
    builder.register(PooledConnection.self, lifetime: .scoped) { _, use in
        let connection = PooledConnection()
        try await use(connection)
        // Taken back: the pool holds the return up until the test lets it end.
        connection.returning.open()
        await connection.returnable.wait()
    }
    builder.register(Orders.self, lifetime: .scoped, using: Orders.init(connection:))
    return try builder.build()
}

/// A service whose `run()` ends only when it is cancelled.
private struct Runner: Sendable {
    func run() async { await Latch().wait() }
}

/// A running service that depends on ``Runner``.
private struct Follower: Sendable {
    let runner: Runner
}

@Suite(.timeLimit(.minutes(1))) struct OpenWorkTests {
    @Test func namesALeaseApartFromWhatTheScopeWouldDispose() async throws {
        let container = try leasingContainer()
        let scope = container.makeScope()
        let orders = try await scope.resolve(Orders.self)
        #expect(container.openWork == ["an open scope holding a lease of PooledConnection, Orders"])

        let closing = Task { try await scope.close() }
        await orders.connection.returning.wait()
        #expect(container.openWork == ["return of the lease of PooledConnection"])
        orders.connection.returnable.open()
        try await closing.value
        #expect(container.openWork.isEmpty)
    }

    @Test func namesEachRunThatHasNotReturnedNewestFirst() async throws {
        var builder = ContainerBuilder()
        builder.register(Runner.self, lifetime: .singleton) { _ in Runner() }
        builder.runs(Runner.self) { runner in await runner.run() }
        builder.register(Follower.self, lifetime: .singleton, using: Follower.init(runner:))
        builder.runs(Follower.self) { follower in await follower.runner.run() }
        let container = try await builder.build()
        try await container.start()
        #expect(container.openWork == ["run() of Follower", "run() of Runner"])
        try await container.shutdown()
        #expect(container.openWork.isEmpty)
    }

    @Test func namesEachOpenScopeByWhatItHolds() async throws {
        var builder = ContainerBuilder()
        builder.register(StuckLease.self, lifetime: .scoped) { _ in StuckLease() }
        let container = try await builder.build()
        let empty = container.makeScope()
        let holding = container.makeScope()
        _ = try await holding.resolve(StuckLease.self)
        #expect(
            Set(container.openWork) == ["an open scope holding nothing to dispose", "an open scope holding StuckLease"]
        )
        try await empty.close()
        #expect(container.openWork == ["an open scope holding StuckLease"])
    }

    @Test func namesADisposalThatHasNotEnded() async throws {
        var builder = ContainerBuilder()
        builder.register(StuckLease.self, lifetime: .scoped) { _ in StuckLease() }
        let container = try await builder.build()
        let scope = container.makeScope()
        let lease = try await scope.resolve(StuckLease.self)
        let closing = Task { try await scope.close() }
        await lease.disposing.wait()
        #expect(container.openWork == ["dispose() of StuckLease"])
        lease.release.open()
        try await closing.value
        #expect(container.openWork.isEmpty)
    }

    @Test func namesTheStopHookAShutdownAwaits() async throws {
        let stopping = Latch()
        let release = Latch()
        var builder = ContainerBuilder()
        builder.register(Warehouse.self, lifetime: .singleton) { _ in Warehouse(log: EventLog()) }
        builder.onStart(Warehouse.self) { _ in }
        builder.onStop(Warehouse.self) { _ in
            stopping.open()
            await release.wait()
        }
        let container = try await builder.build()
        try await container.start()
        let shuttingDown = Task { try await container.shutdown() }
        await stopping.wait()
        #expect(container.openWork == ["stop hook of Warehouse"])
        release.open()
        try await shuttingDown.value
        #expect(container.openWork.isEmpty)
    }
}
