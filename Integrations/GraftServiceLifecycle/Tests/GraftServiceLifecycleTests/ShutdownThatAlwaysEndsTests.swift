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
    func dispose() async {
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

@Suite struct ShutdownThatAlwaysEndsTests {
    @Test func aSignalEndsAStuckProcessWithFailureNamingWhatIsOpenWhateverTheOrder() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var builder = ContainerBuilder()
            builder.register(HungLease.self, lifetime: .scoped) { _ in HungLease() }
            let container = try await builder.build()
            let logger = Logger(label: "shutdown") { StreamLogHandler.standardError(label: $0) }
            let service = ContainerService(
                container,
                gracePeriod: .milliseconds(10),
                signals: [.sigusr2],
                deadlineAfterGracePeriod: .milliseconds(10),
                logger: logger
            )
            // Listed first, the container is told last: never, as the server never returns.
            let group = ServiceGroup(
                configuration: .init(
                    services: [.init(service: service), .init(service: StuckServer(container: container))],
                    gracefulShutdownSignals: [.sigusr2],
                    logger: logger
                )
            )
            let running = Task { try await group.run() }
            // Once the lease is being returned, the signal comes.
            while container.openWork != ["dispose() of HungLease"] { await Task.yield() }
            kill(getpid(), SIGUSR2)
            try await running.value
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("Graft: shutdown did not end within "))
        #expect(output.contains("still open: dispose() of HungLease; exiting with status 1"))
    }
}
