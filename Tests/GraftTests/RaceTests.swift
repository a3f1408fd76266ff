import Foundation
import Graft
import Testing

// Each pair of operations that can meet, met on purpose: a factory says it has begun and waits for
// the test's go-ahead, a `dispose()` holds a close where it is, and the test starts the other
// operation in between. What decides the path is a signal, never a sleep; each wait has only a
// deadlock guard (ten minutes). The tests assert what a user sees: which instance came back, how
// often it was disposed, and what an error says.

// MARK: Fixtures

/// A disposable service that counts its disposals.
private final class Held: Disposable {
    let disposals = Counter()
    let label: String

    init(_ label: String = "held") {
        self.label = label
    }

    func dispose() { disposals.increment() }
}

/// A factory the test holds: it says when it has begun, then waits for the go-ahead.
private final class HeldFactory: Sendable {
    let entered = ThreadLatch()
    let go = ThreadLatch()
    private let made = Guarded([Held]())

    /// Blocks its thread between "entered" and "go"; only for factories run on a test's threads.
    func make(_ label: String = "held") -> Held {
        entered.open()
        go.waitBlocking("the go-ahead for a factory")
        return record(Held(label))
    }

    /// Suspends between "entered" and "go", and says whether it saw its task cancelled.
    func makeAsync(_ label: String = "held", sawCancellation: Counter) async -> Held {
        entered.open()
        await go.wait()
        if Task.isCancelled { sawCancellation.increment() }
        return record(Held(label))
    }

    private func record(_ held: Held) -> Held {
        made.withLock { $0.append(held) }
        return held
    }

    var instances: [Held] { made.current }
}

/// A disposable whose `dispose()` blocks until the test lets it go: it holds a close mid-way.
private final class BlockingDisposal: Disposable {
    let began = ThreadLatch()
    let finish = ThreadLatch()
    let disposals = Counter()
    let log: EventLog
    let label: String

    init(_ label: String, log: EventLog) {
        self.label = label
        self.log = log
    }

    func dispose() {
        disposals.increment()
        began.open()
        finish.waitBlocking("the go-ahead for \(label)'s dispose()")
        log.append(label)
    }
}

/// The summaries a resolve may end with when its scope or container closed under it.
private let closedSummaries: Set<String> = [
    "cannot resolve Held: its scope was closed",
    "cannot resolve Held: the container was shut down",
    "cannot resolve Held: its scope was closed because the container was shut down",
    "cannot resolve Held: its scope was closed because the container is shutting down",
]

/// Expects what a resolve that met a close may end with: the one instance its factory made, or a
/// readable ``GraftError/Code/closed`` error; either way every instance made is disposed exactly
/// once by the time the close has returned.
private func expectInstanceOrClosedError(
    _ outcome: Result<Held, GraftError>?,
    made: [Held],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(made.count == 1, "the factory ran once", sourceLocation: sourceLocation)
    switch outcome {
    case .success(let held):
        #expect(made.first === held, "the instance the factory made", sourceLocation: sourceLocation)
    case .failure(let error):
        #expect(error.code == .closed, sourceLocation: sourceLocation)
        #expect(closedSummaries.contains(error.summary), "\(error.summary)", sourceLocation: sourceLocation)
        #expect(error.description.hasPrefix("Graft: \(error.summary)\n  "), sourceLocation: sourceLocation)
    case nil:
        Issue.record("the resolve never returned", sourceLocation: sourceLocation)
    }
    #expect(made.map(\.disposals.value) == [1], "disposed exactly once", sourceLocation: sourceLocation)
}

/// Expects the close or shutdown run on `thread` to have returned without an error.
private func expectNoError(
    _ thread: OnThread<Result<Void, GraftError>>,
    sourceLocation: SourceLocation = #_sourceLocation
) async {
    switch await thread.value() {
    case .success: break
    case .failure(let error): Issue.record(error, "the close threw", sourceLocation: sourceLocation)
    case nil: Issue.record("the close never returned", sourceLocation: sourceLocation)
    }
}

// MARK: Resolve and close

@Suite(.timeLimit(.minutes(10)))
struct ResolveRacingAClose {
    @Test func aScopedCreationUnderWayWhenItsScopeClosesEndsInItsInstanceOrAClosedErrorAndIsDisposedOnce()
        async throws
    {
        let factory = HeldFactory()
        var builder = ContainerBuilder()
        builder.register(Held.self, lifetime: .scoped) { _ in factory.make() }
        let container = try await builder.build()
        let scope = container.makeScope()

        let resolving = OnThread { Result { () throws(GraftError) -> Held in try scope.resolve(Held.self) } }
        await factory.entered.wait()
        let closing = OnThread { Result { () throws(GraftError) in try scope.close() } }
        await waitUntil("the scope is closed") { scope.isClosed }
        factory.go.open()

        let outcome = await resolving.value()
        await expectNoError(closing)
        expectInstanceOrClosedError(outcome, made: factory.instances)
        // The closed scope makes nothing more.
        #expect(throws: GraftError.withCode(.closed)) { try scope.resolve(Held.self) }
        #expect(factory.instances.count == 1)
    }

    @Test(arguments: [Lifetime.singleton, .scoped])
    func aCreationUnderWayWhenTheContainerShutsDownEndsInItsInstanceOrAClosedErrorAndIsDisposedOnce(
        _ lifetime: Lifetime
    ) async throws {
        let factory = HeldFactory()
        var builder = ContainerBuilder()
        builder.register(Held.self, lifetime: lifetime) { _ in factory.make() }
        let container = try await builder.build()
        let scope = container.makeScope()

        let resolving = OnThread { Result { () throws(GraftError) -> Held in try scope.resolve(Held.self) } }
        await factory.entered.wait()
        let shuttingDown = OnThread { Result { () throws(GraftError) in try container.shutdown() } }
        await waitUntil("the container is shutting down") { container.isShuttingDown }
        factory.go.open()

        let outcome = await resolving.value()
        await expectNoError(shuttingDown)
        expectInstanceOrClosedError(outcome, made: factory.instances)
        #expect(scope.isClosed)
    }
}

// MARK: Closing scopes, parents and children

@Suite(.timeLimit(.minutes(10)))
struct ClosesRacingEachOther {
    /// The child's `dispose()` is under way in the child's own close when the parent closes: the
    /// child's instance is disposed once, by the close that took it, and the parent's once.
    @Test func aParentClosingWhileItsChildsCloseIsDisposingDisposesEachInstanceOnce() async throws {
        let log = EventLog()
        var builder = ContainerBuilder()
        builder.register(BlockingDisposal.self, lifetime: .scoped) { _ in BlockingDisposal("child's", log: log) }
        builder.register(Resource.self, lifetime: .scoped) { _ in Resource("parent's", log: log) }
        let container = try await builder.build()
        let parent = container.makeScope()
        let child = parent.makeScope()
        let parentOwn = try syncResolve(Resource.self, from: parent)
        let childOwn = try syncResolve(BlockingDisposal.self, from: child)

        let closingChild = OnThread { Result { () throws(GraftError) in try child.close() } }
        await childOwn.began.wait()
        let closingParent = OnThread { Result { () throws(GraftError) in try parent.close() } }
        await waitUntil("the parent is closed") { parent.isClosed }
        childOwn.finish.open()

        await expectNoError(closingChild)
        await expectNoError(closingParent)
        #expect(childOwn.disposals.value == 1)
        #expect(log.entries.sorted() == ["child's", "parent's"])
        #expect(parentOwn.label == "parent's")
    }

    /// The parent's close is disposing the child's instance when the child's own close runs: the
    /// child's close does not dispose it again, and both closes return.
    @Test func aChildClosingWhileItsParentsCloseIsDisposingItsInstanceDoesNotDisposeItAgain() async throws {
        let log = EventLog()
        var builder = ContainerBuilder()
        builder.register(BlockingDisposal.self, lifetime: .scoped) { _ in BlockingDisposal("child's", log: log) }
        builder.register(Resource.self, lifetime: .scoped) { _ in Resource("parent's", log: log) }
        let container = try await builder.build()
        let parent = container.makeScope()
        let child = parent.makeScope()
        _ = try syncResolve(Resource.self, from: parent)
        let childOwn = try syncResolve(BlockingDisposal.self, from: child)

        let closingParent = OnThread { Result { () throws(GraftError) in try parent.close() } }
        await childOwn.began.wait()
        let childCloses = ThreadLatch()
        let closingChild = OnThread {
            childCloses.open()
            return Result { () throws(GraftError) in try child.close() }
        }
        await childCloses.wait()
        #expect(child.isClosed)
        childOwn.finish.open()

        await expectNoError(closingChild)
        await expectNoError(closingParent)
        #expect(childOwn.disposals.value == 1)
        // Children first, then the parent's own.
        #expect(log.entries == ["child's", "parent's"])
    }

    /// A scope made under a scope whose close is under way is born closed: it resolves nothing,
    /// and what it would have made is never made.
    @Test func aScopeMadeUnderAClosingScopeIsBornClosedAndMakesNothing() async throws {
        let log = EventLog()
        let made = Counter()
        var builder = ContainerBuilder()
        builder.register(BlockingDisposal.self, lifetime: .scoped) { _ in BlockingDisposal("parent's", log: log) }
        builder.register(Held.self, lifetime: .scoped) { _ in
            made.increment()
            return Held()
        }
        let container = try await builder.build()
        let parent = container.makeScope()
        let parentOwn = try syncResolve(BlockingDisposal.self, from: parent)

        let closing = OnThread { Result { () throws(GraftError) in try parent.close() } }
        await parentOwn.began.wait()
        let child = parent.makeScope()
        let grandchild = child.makeScope()

        #expect(child.isClosed)
        #expect(grandchild.isClosed)
        let error = #expect(throws: GraftError.withCode(.closed)) { try child.resolve(Held.self) }
        #expect(error?.summary == "cannot resolve Held: its scope was closed")
        #expect(throws: GraftError.withCode(.closed)) { try grandchild.resolve(Held.self) }
        #expect(made.value == 0)
        parentOwn.finish.open()
        await expectNoError(closing)
        #expect(throws: Never.self) { try child.close() }
        #expect(parentOwn.disposals.value == 1)
    }
}

// MARK: Async resolves and cancellation
//
// A task started inside a synchronous factory, and a parent scope closing while an unclosed child
// is let go, are in MemorySafetyTests.swift, with the other two scenarios that once read freed memory.

@Suite(.timeLimit(.minutes(10)))
struct AsyncResolvesRacingCreations {
    /// Which of the two tasks meeting at one creation is cancelled.
    enum Cancelled: String, CaseIterable, Sendable {
        /// The task that started the creation.
        case creator
        /// The task waiting for it.
        case waiter
    }

    /// Of two tasks meeting at one singleton's creation, one is cancelled while the factory runs:
    /// the creation goes on for everyone (its factory never sees the cancellation), the other task
    /// gets the one instance, and the cancelled one gets that instance or an error, never a
    /// second instance.
    @Test(arguments: Cancelled.allCases)
    func cancellingOneOfTwoTasksAtACreationLeavesTheCreationAlone(_ cancelled: Cancelled) async throws {
        let factory = HeldFactory()
        let sawCancellation = Counter()
        var builder = ContainerBuilder()
        builder.register(Held.self, lifetime: .singleton) { _ async in
            await factory.makeAsync(sawCancellation: sawCancellation)
        }
        let container = try await builder.build()

        let creator = Task { try await container.resolve(Held.self) }
        await factory.entered.wait()
        let waiterStarted = Latch()
        let waiter = Task {
            waiterStarted.open()
            return try await container.resolve(Held.self)
        }
        await waiterStarted.wait()
        let (cancelledTask, otherTask) = cancelled == .creator ? (creator, waiter) : (waiter, creator)
        cancelledTask.cancel()
        factory.go.open()

        let made = try await otherTask.value
        #expect(factory.instances.count == 1)
        #expect(factory.instances.first === made)
        #expect(sawCancellation.value == 0)
        switch await cancelledTask.result {
        case .success(let other): #expect(other === made)
        case .failure(let error): #expect(error is GraftError || error is CancellationError)
        }
        try await container.shutdown()
        #expect(made.disposals.value == 1)
    }
}

// MARK: Child containers

@Suite(.timeLimit(.minutes(10)))
struct ChildContainersRacingCloses {
    /// How the child's side ends while the parent's factory runs.
    enum ChildEnd: String, CaseIterable, Sendable {
        /// The child container's scope is closed.
        case scopeCloses
        /// The child container shuts down.
        case childShutsDown
    }

    /// A child container's scope resolves a `.scoped` service the parent registers, and the
    /// child's scope is closed (or the child shut down) on another thread while the parent's
    /// factory runs: the resolve ends in the instance or a closed error, and the instance is
    /// disposed exactly once.
    @Test(arguments: ChildEnd.allCases)
    func aParentsScopedServiceResolvedInAChildsScopeThatEndsMeanwhileIsDisposedOnce(_ end: ChildEnd) async throws {
        let factory = HeldFactory()
        var builder = ContainerBuilder()
        builder.register(Held.self, lifetime: .scoped) { _ in factory.make() }
        let app = try await builder.build()
        let child = try await app.makeChild { $0.register(Wheel.self) { _ in Wheel() } }
        let scope = child.makeScope()

        let resolving = OnThread { Result { () throws(GraftError) -> Held in try scope.resolve(Held.self) } }
        await factory.entered.wait()
        let ending = OnThread {
            Result { () throws(GraftError) in
                switch end {
                case .scopeCloses: try scope.close()
                case .childShutsDown: try child.shutdown()
                }
            }
        }
        switch end {
        case .scopeCloses: await waitUntil("the child's scope is closed") { scope.isClosed }
        case .childShutsDown: await waitUntil("the child is shutting down") { child.isShuttingDown }
        }
        factory.go.open()

        let outcome = await resolving.value()
        await expectNoError(ending)
        expectInstanceOrClosedError(outcome, made: factory.instances)
        if end == .scopeCloses { try await child.shutdown() }
        try await app.shutdown()
        #expect(factory.instances.map(\.disposals.value) == [1])
    }
}
