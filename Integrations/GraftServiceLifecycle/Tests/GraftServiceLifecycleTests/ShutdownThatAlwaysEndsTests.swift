import Graft
import GraftServiceLifecycle
import Logging
import ServiceLifecycle
import Testing
import UnixSignals

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A lease whose return never ends: a connection handed back to a pool that is gone.
private final class HungLease: AsyncDisposable {
    let returning: AsyncStream<Void>.Continuation
    init(returning: AsyncStream<Void>.Continuation) { self.returning = returning }

    func dispose() async {
        returning.finish()
        await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
    }
}

/// The trial's server: its request closes its scope in the response writer, and that close never
/// ends; it ignores graceful shutdown and cancellation alike.
private struct StuckServer: Service {
    let container: Container

    func run() async throws {
        let scope = container.makeScope()
        _ = try await scope.resolve(HungLease.self)
        try await scope.close()
    }
}

/// A unit of work that tells its server when the container has closed its scope for it.
private final class Session: Disposable {
    let closed: AsyncStream<Void>.Continuation
    init(closed: AsyncStream<Void>.Continuation) { self.closed = closed }
    func dispose() { closed.finish() }
}

/// A server that ignores graceful shutdown: it returns only once its request's scope was closed
/// for it, which only the grace period's end does.
private struct ServerWaitingForItsScope: Service {
    let container: Container
    let opened: AsyncStream<Void>.Continuation
    let closed: AsyncStream<Void>

    func run() async throws {
        let scope = container.makeScope()
        _ = try await scope.resolve(Session.self)
        opened.finish()
        for await _ in closed {}
    }
}

/// Finishes when the container has started: `ContainerService` traps its signals before that, so
/// a signal sent afterwards is not missed.
private struct StartedSignal: Sendable {
    let started: AsyncStream<Void>.Continuation
}

extension ContainerBuilder {
    fileprivate mutating func signalWhenStarted(_ started: AsyncStream<Void>.Continuation) {
        register(StartedSignal.self, lifetime: .singleton) { _ in StartedSignal(started: started) }
        onStart(StartedSignal.self) { $0.started.finish() }
    }
}

/// A connection lent only inside `withConnection`, by a pool that never takes it back.
private final class PooledConnection: Sendable {}

/// A feed whose `run()` ignores cancellation and graceful shutdown: it never returns.
private struct DeafFeed: Service {
    func run() async throws {
        await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
    }
}

/// A group whose `ContainerService` (listed first, then `others`) ends the process 20 ms after
/// SIGUSR2, logging what is still open to standard error.
private func groupWithAShortDeadline(_ container: Container, then others: any Service...) -> ServiceGroup {
    let logger = Logger(label: "shutdown") { StreamLogHandler.standardError(label: $0) }
    let service = ContainerService(
        container,
        gracePeriod: .milliseconds(10),
        signals: [.sigusr2],
        deadlineAfterGracePeriod: .milliseconds(10),
        logger: logger
    )
    return ServiceGroup(
        configuration: .init(
            services: [.init(service: service)] + others.map { .init(service: $0) },
            gracefulShutdownSignals: [.sigusr2],
            logger: logger
        )
    )
}

/// A group with a short deadline running a container whose shutdown cannot end: a feed that
/// ignores it, and a request's scope, never closed, holding a leased connection. Returns once the
/// container has started and the connection is leased.
private func aShutdownThatCannotEnd() async throws -> (Container, ServiceGroup, Task<Void, any Error>) {
    let (started, startedSignal) = AsyncStream<Void>.makeStream()
    var builder = ContainerBuilder()
    builder.signalWhenStarted(startedSignal)
    builder.register(PooledConnection.self, lifetime: .scoped) { _, use in try await use(PooledConnection()) }
    builder.register(DeafFeed.self, lifetime: .singleton) { _ in DeafFeed() }
    builder.runs(DeafFeed.self)
    let container = try await builder.build()
    let group = groupWithAShortDeadline(container)
    let running = Task { try await group.run() }
    for await _ in started {}
    _ = try await container.makeScope().resolve(PooledConnection.self)
    return (container, group, running)
}

/// What the deadline logs as it ends the process of ``aShutdownThatCannotEnd()``.
private let overrunOfAShutdownThatCannotEnd =
    "Graft: shutdown did not end within 0.02 seconds of the signal; "
    + "still open: an open scope holding a lease of PooledConnection; run() of DeafFeed; exiting with status 1"

@Suite struct ShutdownThatAlwaysEndsTests {
    @Test func theDeadlineNamesTheRunThatHasNotReturnedAndTheLeaseStillHeld() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (_, _, running) = try await aShutdownThatCannotEnd()
            kill(getpid(), SIGUSR2)
            try await running.value
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains(overrunOfAShutdownThatCannotEnd), "\(output)")
    }

    @Test func aSignalAfterTheGroupsGracefulShutdownReachedTheContainerStillArmsTheDeadline() async {
        // The group's graceful shutdown comes first (as it may, from the same signal, before this
        // service's own trap sees it): the signal that follows must still end a stuck shutdown.
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (container, group, running) = try await aShutdownThatCannotEnd()
            await group.triggerGracefulShutdown()
            // Once the container drains for the group's shutdown, which this service began:
            while !container.isShuttingDown { await Task.yield() }
            kill(getpid(), SIGUSR2)
            try await running.value
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains(overrunOfAShutdownThatCannotEnd), "\(output)")
    }

    @Test func theGracePeriodRunsFromTheSignalWhenTheContainerIsToldLast() async {
        // Exit status 3 only for the grace period's error, which comes at its end, from the signal.
        let result = await #expect(processExitsWith: .exitCode(3), observing: [\.standardErrorContent]) {
            let (closed, closedSignal) = AsyncStream<Void>.makeStream()
            let (opened, openedSignal) = AsyncStream<Void>.makeStream()
            let (started, startedSignal) = AsyncStream<Void>.makeStream()
            var builder = ContainerBuilder()
            builder.signalWhenStarted(startedSignal)
            builder.register(Session.self, lifetime: .scoped) { _ in Session(closed: closedSignal) }
            let container = try await builder.build()
            let service = ContainerService(
                container,
                gracePeriod: .milliseconds(10),
                signals: [.sigusr2],
                deadlineAfterGracePeriod: nil
            )
            let server = ServerWaitingForItsScope(container: container, opened: openedSignal, closed: closed)
            // Listed first, the container is told after the server returns, which it does only
            // once the grace period, running from the signal, has closed its scope.
            let group = ServiceGroup(
                configuration: .init(
                    services: [.init(service: service), .init(service: server)],
                    gracefulShutdownSignals: [.sigusr2],
                    logger: Logger(label: "shutdown")
                )
            )
            let running = Task { try await group.run() }
            for await _ in opened {}
            for await _ in started {}
            kill(getpid(), SIGUSR2)
            do {
                try await running.value
            } catch let error as GraftError where error.code == .gracePeriodRanOut {
                Logger(label: "shutdown") { StreamLogHandler.standardError(label: $0) }.critical("\(error.summary)")
                exit(3)
            }
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("grace period of 0.01 seconds ran out and 1 scope was still open"))
        #expect(output.contains("they were closed for the work in them: an open scope holding Session"))
    }

    @Test func aSignalEndsAStuckProcessWithFailureNamingWhatIsOpenWhateverTheOrder() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (started, startedSignal) = AsyncStream<Void>.makeStream()
            var builder = ContainerBuilder()
            builder.signalWhenStarted(startedSignal)
            let (returning, returningSignal) = AsyncStream<Void>.makeStream()
            builder.register(HungLease.self, lifetime: .scoped) { _ in HungLease(returning: returningSignal) }
            let container = try await builder.build()
            // Listed first, the container is told last: never, as the server never returns.
            let group = groupWithAShortDeadline(container, then: StuckServer(container: container))
            let running = Task { try await group.run() }
            // Once the container has started and the lease is being returned, the signal comes.
            for await _ in started {}
            for await _ in returning {}
            kill(getpid(), SIGUSR2)
            try await running.value
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("Graft: shutdown did not end within "))
        #expect(output.contains("still open: dispose() of HungLease; exiting with status 1"))
    }
}
