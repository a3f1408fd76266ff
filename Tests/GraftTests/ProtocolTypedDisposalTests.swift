import Graft
import Testing

// Issue 25, item 2: a service registered under the protocol it is used through is disposed when
// its instance is disposable, as a concretely registered one is.

/// What callers see of a pool; it does not refine `Disposable` or `AsyncDisposable`.
private protocol ConnectionPool: Sendable {
    var label: String { get }
}

/// A pool that must be drained with `await`, made with `await` (the issue's `PgPool`).
private final class PgPool: ConnectionPool, AsyncDisposable {
    let label: String
    let log: EventLog

    init(_ label: String, log: EventLog) async {
        await Task.yield()
        self.label = label
        self.log = log
    }

    func dispose() async throws {
        await Task.yield()
        log.append(label)
    }
}

/// A pool closed synchronously, which can be told to fail.
private final class FilePool: ConnectionPool, Disposable {
    let label: String
    let log: EventLog
    let failsToDispose: Bool

    init(_ label: String, log: EventLog, failsToDispose: Bool = false) {
        self.label = label
        self.log = log
        self.failsToDispose = failsToDispose
    }

    convenience init(log: EventLog) {
        self.init("autowired", log: log)
    }

    func dispose() throws {
        log.append(label)
        if failsToDispose { throw Jammed(part: label) }
    }
}

/// A pool with nothing to release.
private final class MemoryPool: ConnectionPool {
    let label = "memory"
}

/// A protocol composition.
private typealias SendablePool = any ConnectionPool & Sendable

/// A protocol with a primary associated type, registered as `any Store<String>`.
private protocol Store<Record>: Sendable {
    associatedtype Record
}

private final class FileStore: Store, Disposable {
    typealias Record = String
    let log: EventLog

    init(log: EventLog) {
        self.log = log
    }

    func dispose() throws {
        log.append("store")
    }
}

/// A service registered under a protocol (or another existential) is disposed when its instance
/// is `Disposable` or `AsyncDisposable`, with every lifetime that disposes.
@Suite struct ProtocolTypedDisposalTests {
    let log = EventLog()

    @Test(arguments: [Lifetime.transient, .scoped, .graph])
    func aProtocolTypedServiceIsDisposedWhenItsScopeCloses(_ lifetime: Lifetime) throws {
        var builder = ContainerBuilder()
        builder.register((any ConnectionPool).self, lifetime: lifetime) { [log] _ in FilePool("file", log: log) }
        let container = try builder.build()

        let label = try container.withScope { scope in
            let pool = try scope.resolve((any ConnectionPool).self)
            #expect(log.entries.isEmpty)
            return pool.label
        }

        #expect(label == "file")
        #expect(log.entries == ["file"])
    }

    @Test func aProtocolTypedSingletonIsDisposedAtShutdown() throws {
        var builder = ContainerBuilder()
        builder.register((any ConnectionPool).self, lifetime: .singleton) { [log] _ in FilePool("file", log: log) }
        let container = try builder.build()

        _ = try container.resolve((any ConnectionPool).self)
        _ = try container.resolve((any ConnectionPool).self)
        #expect(log.entries.isEmpty)
        try container.shutdown()

        #expect(log.entries == ["file"])
    }

    @Test func aProtocolTypedTransientOfTheRootContainerIsDisposedAtShutdown() throws {
        var builder = ContainerBuilder()
        builder.register((any ConnectionPool).self) { [log] _ in FilePool("file", log: log) }
        let container = try builder.build()

        _ = try container.resolve((any ConnectionPool).self)
        try container.shutdown()

        #expect(log.entries == ["file"])
    }

    /// The form: an async eager singleton registered under its protocol.
    @Test func aProtocolTypedAsyncEagerSingletonIsDisposedByTheAsyncShutdown() async throws {
        var builder = ContainerBuilder()
        builder.register((any ConnectionPool).self, lifetime: .eagerSingleton) { [log] r in
            await PgPool("pg", log: log)
        }
        let container = try await builder.build()

        #expect(try await container.resolve((any ConnectionPool).self).label == "pg")
        try await container.shutdown()

        #expect(log.entries == ["pg"])
    }

    @Test func aProtocolTypedAsyncDisposableScopedServiceIsDisposedByTheAsyncClose() async throws {
        var builder = ContainerBuilder()
        builder.register((any ConnectionPool).self, lifetime: .scoped) { [log] _ in await PgPool("pg", log: log) }
        let container = try await builder.build()

        try await container.withScope { scope in _ = try await scope.resolve((any ConnectionPool).self) }

        #expect(log.entries == ["pg"])
    }

    @Test func anAutowiredProtocolTypedServiceIsDisposed() async throws {
        var builder = ContainerBuilder()
        builder.register(EventLog.self, instance: log)
        builder.register((any ConnectionPool).self, name: "sync", lifetime: .scoped, using: FilePool.init(log:))
        builder.register((any ConnectionPool).self, name: "async", lifetime: .scoped) { (log: EventLog) async in
            await PgPool("async autowired", log: log)
        }
        let container = try await builder.build()

        try await container.withScope { scope in
            _ = try await scope.resolve((any ConnectionPool).self, name: "sync")
            _ = try await scope.resolve((any ConnectionPool).self, name: "async")
        }

        #expect(log.entries == ["async autowired", "autowired"])
    }

    @Test func aCompositionAConstrainedProtocolAndAnySendableAreAskedToo() throws {
        var builder = ContainerBuilder()
        builder.register(SendablePool.self, lifetime: .scoped) { [log] _ in FilePool("composed", log: log) }
        builder.register((any Store<String>).self, lifetime: .scoped) { [log] _ in FileStore(log: log) }
        builder.register((any Sendable).self, lifetime: .scoped) { [log] _ in FilePool("any sendable", log: log) }
        let container = try builder.build()

        try container.withScope { scope in
            _ = try scope.resolve(SendablePool.self)
            _ = try scope.resolve((any Store<String>).self)
            _ = try scope.resolve((any Sendable).self)
        }

        #expect(log.entries == ["any sendable", "store", "composed"])
    }

    /// Protocol-typed and concrete registrations share one newest-first order.
    @Test func disposalOrderIsNewestFirstAcrossProtocolTypedAndConcreteServices() throws {
        var builder = ContainerBuilder()
        builder.register(FilePool.self, name: "a", lifetime: .scoped) { [log] _ in FilePool("a", log: log) }
        builder.register((any ConnectionPool).self, name: "b", lifetime: .scoped) { [log] _ in FilePool("b", log: log) }
        builder.register(FilePool.self, name: "c", lifetime: .scoped) { [log] _ in FilePool("c", log: log) }
        builder.register((any ConnectionPool).self, name: "d") { [log] _ in FilePool("d", log: log) }
        let container = try builder.build()

        try container.withScope { scope in
            _ = try scope.resolve(FilePool.self, name: "a")
            _ = try scope.resolve((any ConnectionPool).self, name: "b")
            _ = try scope.resolve(FilePool.self, name: "c")
            _ = try scope.resolve((any ConnectionPool).self, name: "d")
        }

        #expect(log.entries == ["d", "c", "b", "a"])
    }

    @Test func aWeakProtocolTypedServiceIsNeverDisposed() throws {
        var builder = ContainerBuilder()
        builder.register((any ConnectionPool).self, lifetime: .weak) { [log] _ in FilePool("weak", log: log) }
        let container = try builder.build()

        let pool = try container.withScope { try $0.resolve((any ConnectionPool).self) }
        try container.shutdown()

        #expect(pool.label == "weak")
        #expect(log.entries.isEmpty)
    }

    /// An instance that is not disposable is recorded nowhere: the scope does not keep it alive.
    /// The control beside it, a disposable one, is kept until the scope closes.
    @Test func aProtocolTypedInstanceThatIsNotDisposableIsNotRecorded() throws {
        var builder = ContainerBuilder()
        builder.register((any ConnectionPool).self, name: "memory") { _ in MemoryPool() }
        builder.register((any ConnectionPool).self, name: "file") { [log] _ in FilePool("file", log: log) }
        let container = try builder.build()
        let scope = container.makeScope()

        weak var memory: MemoryPool?
        weak var file: FilePool?
        do {
            memory = try scope.resolve((any ConnectionPool).self, name: "memory") as? MemoryPool
            file = try scope.resolve((any ConnectionPool).self, name: "file") as? FilePool
        }

        #expect(memory == nil)
        #expect(file != nil)
        try scope.close()
        #expect(file == nil)
        #expect(log.entries == ["file"])
    }

    /// Each instance is asked, not the registration: what one instance was says nothing about
    /// the next.
    @Test func aRegistrationWhoseInstancesChangeTypeDisposesExactlyTheDisposableOnes() throws {
        let made = Counter()
        var builder = ContainerBuilder()
        builder.register((any ConnectionPool).self) { [log] _ in
            let number = made.increment()
            return number % 3 == 0 ? FilePool("file \(number)", log: log) : MemoryPool()
        }
        let container = try builder.build()

        let labels = try container.withScope { scope in
            try (1...7).map { _ in try scope.resolve((any ConnectionPool).self).label }
        }

        #expect(labels == ["memory", "memory", "file 3", "memory", "memory", "file 6", "memory"])
        #expect(log.entries == ["file 6", "file 3"])
    }

    @Test func aFailingDisposeOfAProtocolTypedServiceIsReportedAsForAnyOther() throws {
        var builder = ContainerBuilder()
        builder.register((any ConnectionPool).self, name: "a", lifetime: .scoped) { [log] _ in
            FilePool("a", log: log, failsToDispose: true)
        }
        builder.register((any ConnectionPool).self, name: "b", lifetime: .scoped) { [log] _ in FilePool("b", log: log) }
        let container = try builder.build()
        let scope = container.makeScope()
        _ = try scope.resolve((any ConnectionPool).self, name: "a")
        _ = try scope.resolve((any ConnectionPool).self, name: "b")

        let error = #expect(throws: GraftError.self) { try scope.close() }

        #expect(log.entries == ["b", "a"])
        #expect(error?.problems.first?.underlyingError as? Jammed == Jammed(part: "a"))
        #expect(
            error?.description == """
                Graft: 1 disposal failed while closing the scope
                  every other instance was disposed
                  1. dispose() of ConnectionPool["a"] threw: a is jammed
                """
        )
    }
}
