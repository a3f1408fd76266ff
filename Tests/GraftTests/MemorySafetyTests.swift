import Dispatch
import Foundation
@_spi(Interleavings) import Graft
import Synchronization
import Testing

// Three ways a user's code once made Graft read or write freed memory. Each test is written as
// the user's code triggers it; CI runs them in release builds under AddressSanitizer, where a
// regression is a crash report rather than a wrong value.

// MARK: Fixtures

private final class Slow: Sendable {}

/// What a synchronous factory hands back: the task it started, which resolves `Slow`.
private final class Starter: Sendable {
    let task: Task<Slow, any Error>
    init(task: Task<Slow, any Error>) { self.task = task }
}

/// The three ways synchronous code starts asynchronous work.
enum TaskStart: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// Runs on the starting thread until its first suspension.
    case immediate
    /// `Task { }`: inherits the caller's task-local values, runs on the pool.
    case unstructured
    /// `Task.detached { }`: inherits nothing.
    case detached

    var testDescription: String { rawValue }

    func start<Value: Sendable>(
        _ operation: sending @escaping @isolated(any) () async throws -> Value
    ) -> Task<Value, any Error> {
        switch self {
        case .immediate: Task.immediate(operation: operation)
        case .unstructured: Task(operation: operation)
        case .detached: Task.detached(operation: operation)
        }
    }
}

/// Writes over the stack below the caller, so that memory a returned frame left behind no longer
/// holds what it did: a read through a stale stack address then finds garbage, not a lucky copy.
@inline(never)
private func scribbleOverTheStack() {
    var bytes = [UInt8](repeating: 0, count: 1)
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16_384) { buffer in
        for index in buffer.indices { buffer[index] = 0xA5 }
        bytes[0] = buffer[buffer.count - 1]
    }
    #expect(bytes[0] == 0xA5)
}

/// Resolves with a runtime argument synchronously from async code.
private func syncResolve<Service: Sendable>(_ type: Service.Type, arguments: Int, from scope: Scope) throws -> Service {
    try scope.resolve(type, arguments: arguments)
}

/// Runs `body` on a thread of its own and waits for it without blocking the pool.
private func onDedicatedThread(_ body: @escaping @Sendable () -> Void) async {
    await runOnDedicatedThreads(1) { _ in body() }
}

// MARK: 1. An asynchronous resolve started inside a synchronous factory

@Suite struct TaskStartedInsideAFactoryTests {
    /// While another thread is creating `Slow`, a synchronous factory starts a task that resolves
    /// it. The task waits past the factory's return (an immediate task suspends right there, on
    /// the factory's thread) and resumes once `Slow` exists, after the factory's frames are gone
    /// and the stack they lived on has been written over.
    @Test(arguments: TaskStart.allCases, [Lifetime.singleton, .scoped])
    func aTaskStartedInAFactoryWaitsForACreationOnAnotherThreadAndGetsItsInstance(
        start: TaskStart,
        lifetime: Lifetime
    ) async throws {
        let slowEntered = DispatchSemaphore(value: 0)
        let releaseSlow = DispatchSemaphore(value: 0)
        var builder = ContainerBuilder()
        builder.register(Slow.self, lifetime: lifetime) { _ in
            slowEntered.signal()
            releaseSlow.wait()
            return Slow()
        }
        builder.register(Starter.self, lifetime: lifetime) { resolver in
            Starter(task: start.start { try await resolver.resolve(Slow.self) })
        }
        let container = try await builder.build()
        let scope = container.makeScope()
        let made = Mutex<(slow: Slow?, starter: Starter?)>((nil, nil))

        await onDedicatedThread {
            let creator = DispatchSemaphore(value: 0)
            Thread {
                let slow = try? syncResolve(Slow.self, from: scope)
                made.withLock { $0.slow = slow }
                creator.signal()
            }.start()
            slowEntered.wait()
            let starter = try? syncResolve(Starter.self, from: scope)
            made.withLock { $0.starter = starter }
            scribbleOverTheStack()
            releaseSlow.signal()
            creator.wait()
        }

        let (slow, starter) = made.withLock { $0 }
        let created = try #require(slow)
        let fromTask = try await #require(starter).task.value
        #expect(fromTask === created)
        try await scope.close()
    }

    /// A task started inside a factory that is itself part of an asynchronous creation sees a
    /// chain that outlives the factory: a cycle back to the creation is still reported as one,
    /// with the path, long after the factory returned.
    @Test(arguments: [TaskStart.immediate, .unstructured])
    func aTaskStartedInAFactoryReportsACycleBackToItsOwnCreation(start: TaskStart) async throws {
        let started = Mutex<Task<Slow, any Error>?>(nil)
        var builder = ContainerBuilder()
        builder.register(Slow.self, lifetime: .singleton) { resolver async throws in
            // The task asks for the singleton being created: it waits for it, and the
            // creation, which waits for the task, would never finish.
            let task = start.start { try await resolver.resolve(Slow.self) }
            started.withLock { $0 = task }
            _ = try await task.value
            return Slow()
        }
        let container = try await builder.build()
        let error = await #expect(throws: GraftError.self) { try await container.resolve(Slow.self) }
        #expect(error?.code == .cycle)
        #expect(error?.description.contains("dependency cycle: Slow → Slow") == true)
        try await container.shutdown()
        _ = started
    }
}

// MARK: 2. A parent scope closing while another thread lets a child go

@Suite struct ParentCloseRacingAnUnclosedChildTests {
    /// A disposable each child scope creates, counting its disposals.
    fileprivate final class Session: Disposable {
        let disposals: Atomic<Int>
        init() { disposals = Atomic(0) }
        func dispose() { disposals.add(1, ordering: .relaxed) }
    }

    /// Stress loop: thread A closes a parent scope while thread B drops the last references to
    /// unclosed children of it, started together at a barrier, 100 rounds of 16 children: the
    /// close visits them newest first while the other thread lets them go oldest first, so the
    /// two meet. Which side wins is left to the scheduler; every child's instance must be disposed
    /// exactly once either way, by the parent's close. Kept small: thread B waits for the
    /// parent's lock through most of each close, which under ThreadSanitizer is slow; the test
    /// above forces the one interleaving that matters.
    @Test func stressLoopParentClosesWhileAnotherThreadLetsAnUnclosedChildGo() async throws {
        var builder = ContainerBuilder()
        builder.register(Session.self, lifetime: .scoped) { _ in Session() }
        let container = try await builder.build()
        let rounds = 100
        let childrenPerRound = 16
        let sessions = Mutex<[Session]>([])

        await onDedicatedThread {
            for _ in 0..<rounds {
                let parent = container.makeScope()
                let children = Mutex<[Scope]>(
                    (0..<childrenPerRound).map { _ in parent.makeScope() }
                )
                let made = children.withLock { scopes in scopes.compactMap { try? syncResolve(Session.self, from: $0) }
                }
                sessions.withLock { $0 += made }
                let barrier = Barrier(parties: 2)
                let done = DispatchSemaphore(value: 0)
                Thread {
                    barrier.arriveAndWait()
                    // The last references to the children go here, one at a time, oldest first.
                    while children.withLock({ scopes in scopes.isEmpty ? nil : scopes.removeFirst() }) != nil {}
                    done.signal()
                }.start()
                barrier.arriveAndWait()
                try? parent.close()
                done.wait()
            }
        }

        let all = sessions.withLock { $0 }
        #expect(all.count == rounds * childrenPerRound)
        #expect(all.allSatisfy { $0.disposals.load(ordering: .relaxed) == 1 })
        try await container.shutdown()
    }

    /// The same pair, forced: the parent's close is held at the child (its lock held, the child
    /// not yet closed) while another thread drops the child's last reference. The child must
    /// still see itself listed, and so wait for the parent before its memory goes; the parent
    /// then disposes the child's instance, once.
    @Test func aChildLetGoWhileItsClosingParentIsAtItStillSeesItselfListedAndWaits() async throws {
        var builder = ContainerBuilder()
        builder.register(Session.self, lifetime: .scoped) { _ in Session() }
        let container = try await builder.build()
        let parent = container.makeScope()
        let holder = try ChildHolder(under: parent)
        let (childID, session) = (holder.id, holder.session)
        let parentAtChild = DispatchSemaphore(value: 0)
        let childDecided = DispatchSemaphore(value: 0)
        let sawListed = Mutex<Bool?>(nil)

        await Interleavings.whileRunning { point in
            switch point {
            case .parentClosesChild(let child) where child == childID && sawListed.withLock({ $0 == nil }):
                parentAtChild.signal()
                // Held here, the parent's lock taken, until the child has read its mark.
                _ = childDecided.wait(timeout: .now() + .seconds(600))
            case .scopeLetGo(let scope, let listed) where scope == childID:
                // The first only: once the child is gone, another test's scope may be made at
                // its address, and its identity with it.
                let isFirst = sawListed.withLock { seen in
                    defer { seen = seen ?? listed }
                    return seen == nil
                }
                if isFirst { childDecided.signal() }
            default:
                break
            }
        } _: {
            await runOnDedicatedThreads(2) { index in
                if index == 0 {
                    try? parent.close()
                } else {
                    _ = parentAtChild.wait(timeout: .now() + .seconds(600))
                    holder.letGo()
                }
            }
        }

        #expect(sawListed.withLock { $0 } == true)
        #expect(session.disposals.load(ordering: .relaxed) == 1)
        try await container.shutdown()
    }

    /// A forced interleaving of the same pair: the child is let go first, its deinit hands its
    /// records to the parent, and the parent's close disposes them.
    @Test func aChildLetGoBeforeItsParentClosesLeavesItsInstancesToTheParent() throws {
        var builder = ContainerBuilder()
        builder.register(Session.self, lifetime: .scoped) { _ in Session() }
        let container = try builder.build()
        let parent = container.makeScope()
        var child: Scope? = parent.makeScope()
        let session = try #require(child).resolve(Session.self)
        child = nil
        #expect(session.disposals.load(ordering: .relaxed) == 0)
        try parent.close()
        #expect(session.disposals.load(ordering: .relaxed) == 1)
        _ = child
    }
}

/// Holds the one reference to a child scope, which has made a `Session`, until `letGo()`.
private final class ChildHolder: Sendable {
    private let child: Mutex<Scope?>
    let id: ObjectIdentifier
    let session: ParentCloseRacingAnUnclosedChildTests.Session

    @inline(never)
    init(under parent: Scope) throws {
        let child = parent.makeScope()
        id = ObjectIdentifier(child)
        session = try child.resolve(ParentCloseRacingAnUnclosedChildTests.Session.self)
        self.child = Mutex(child)
    }

    /// Drops the last reference to the child, on the calling thread.
    @inline(never)
    func letGo() {
        let last = child.withLock { child in
            defer { child = nil }
            return child
        }
        withExtendedLifetime(last) {}
    }
}

/// A barrier: each party waits until all have arrived. Spins on an atomic, so both parties leave
/// it as close together as the scheduler allows.
private final class Barrier: Sendable {
    private let arrived = Atomic(0)
    private let parties: Int

    init(parties: Int) { self.parties = parties }

    func arriveAndWait() {
        arrived.add(1, ordering: .acquiringAndReleasing)
        var spins = 0
        while arrived.load(ordering: .acquiring) < parties {
            spins += 1
            // Bounded busy-waiting: after a while, give the core to the other party.
            if spins % 1_000 == 0 { sched_yield() }
        }
    }
}

// MARK: 3. A child container's scope closed while it resolves a parent's service

@Suite struct ChildScopeClosedDuringAParentResolveTests {
    /// The parent's disposable service, whose factory the test holds open.
    private final class Connection: Disposable {
        let disposals = Atomic(0)
        func dispose() { disposals.add(1, ordering: .relaxed) }
    }

    /// A tenant's own service that needs the parent's connection.
    private struct Invoice: Sendable {
        let connection: Connection
    }

    /// How the tenant's scope reaches the parent's connection.
    enum Route: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// The parent's scoped connection, resolved from the tenant's scope.
        case scopedAskedDirectly
        /// The parent's transient connection, which the parent's scope owns.
        case transientAskedDirectly
        /// The tenant's `Invoice`, whose dependency is the parent's scoped connection.
        case scopedAsADependency
        /// The parent's connection made from a runtime argument, resolved from the tenant's scope.
        case withRuntimeArguments

        var testDescription: String { rawValue }
    }

    /// A tenant's scope asks the app (the parent container) for a `Connection`; while its
    /// factory runs, the tenant's scope is closed and let go on another thread (a client that
    /// disconnects). The resolve must end with a closed-scope error, and the connection it made
    /// must be disposed exactly once, not adopted by a scope that no longer exists.
    @Test(arguments: Route.allCases, [false, true])
    func closingAChildScopeDuringAParentResolveDisposesWhatTheResolveMadeOnce(
        route: Route,
        async: Bool
    ) async throws {
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let made = Mutex<Connection?>(nil)
        var app = ContainerBuilder()
        let connect: @Sendable () -> Connection = {
            entered.signal()
            proceed.wait()
            let connection = Connection()
            made.withLock { $0 = connection }
            return connection
        }
        switch route {
        case .withRuntimeArguments:
            app.register(Connection.self, arguments: Int.self) { _, _ in connect() }
        case .transientAskedDirectly:
            app.register(Connection.self, lifetime: .transient) { _ in connect() }
        case .scopedAskedDirectly, .scopedAsADependency:
            app.register(Connection.self, lifetime: .scoped) { _ in connect() }
        }
        let parent = try await app.build()
        let tenant = try await parent.makeChild { builder in
            if route == .scopedAsADependency { builder.register(Invoice.self, using: Invoice.init(connection:)) }
        }
        let holder = Mutex<Scope?>(tenant.makeScope())
        let outcome = Mutex<Result<Connection, GraftError>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let resolve: @Sendable (Scope) async throws -> Connection = { scope in
            switch (route, async) {
            case (.scopedAsADependency, false): try syncResolve(Invoice.self, from: scope).connection
            case (.scopedAsADependency, true): try await scope.resolve(Invoice.self).connection
            case (.withRuntimeArguments, false): try syncResolve(Connection.self, arguments: 7, from: scope)
            case (.withRuntimeArguments, true): try await scope.resolve(Connection.self, arguments: 7)
            case (_, false): try syncResolve(Connection.self, from: scope)
            case (_, true): try await scope.resolve(Connection.self)
            }
        }

        // The resolve holds no reference to the tenant's scope of its own beyond the call's.
        Task.detached {
            do {
                let connection = try await resolve(try #require(holder.withLock { $0 }))
                outcome.withLock { $0 = .success(connection) }
            } catch let error as GraftError {
                outcome.withLock { $0 = .failure(error) }
            } catch {
                Issue.record("not a GraftError: \(error)")
            }
            finished.signal()
        }

        await onDedicatedThread {
            entered.wait()
            // The tenant's client disconnects: its scope closes and is let go.
            try? holder.withLock { $0 }?.close()
            holder.withLock { $0 = nil }
            scribbleOverTheStack()
            proceed.signal()
            finished.wait()
        }

        let connection = try #require(made.withLock { $0 })
        #expect(connection.disposals.load(ordering: .relaxed) == 1)
        switch try #require(outcome.withLock { $0 }) {
        case .success:
            Issue.record("a resolve from a scope closed meanwhile returned an instance it could not own")
        case .failure(let error):
            #expect(error.code == .closed)
            #expect(error.description.contains("Connection"))
            #expect(error.description.contains("closed"))
        }
        try await tenant.shutdown()
        try await parent.shutdown()
    }
}
