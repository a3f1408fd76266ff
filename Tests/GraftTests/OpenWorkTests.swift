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

@Suite(.timeLimit(.minutes(1))) struct OpenWorkTests {
    @Test func namesEachOpenScopeByWhatItHolds() async throws {
        var builder = ContainerBuilder()
        builder.register(StuckLease.self, lifetime: .scoped) { _ in StuckLease() }
        let container = try await builder.build()
        let empty = container.makeScope()
        let holding = container.makeScope()
        _ = try await holding.resolve(StuckLease.self)
        #expect(Set(container.openWork) == ["an open scope", "an open scope holding StuckLease"])
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
