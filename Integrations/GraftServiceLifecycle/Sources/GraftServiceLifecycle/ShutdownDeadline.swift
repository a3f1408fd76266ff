import Graft
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The last resort of a shutdown: if the process is still running some time after the shutdown
/// signal, it names what is still open and ends the process with a non-zero status.
///
/// A request stuck on a dead connection, a `dispose()` that never returns, a service that
/// ignores cancellation: any of them would keep a `ServiceGroup` (and the process) from ever
/// ending. `ContainerService` arms one when a Unix signal starts the shutdown.
struct ShutdownDeadline: Sendable {
    /// How long after the signal the process may go on.
    let limit: Duration
    /// The status the process ends with when the deadline passes.
    let exitStatus: Int32

    /// A deadline `limit` after the signal.
    ///
    /// - Parameters:
    ///   - limit: How long after the signal the process may go on: longer than the grace period,
    ///     so that the scopes closed when it ends, stop hooks and disposals have time to finish.
    ///   - exitStatus: The status the process ends with; 1 unless given.
    init(limit: Duration, exitStatus: Int32 = 1) {
        self.limit = limit
        self.exitStatus = exitStatus
    }

    /// The message logged when the deadline passes, naming what `container` still has open.
    ///
    /// - Parameter container: The container being shut down.
    /// - Returns: One line: how long it waited, what is open, and the exit status.
    func overrunMessage(for container: Container) -> String {
        let open = container.openWork
        let still =
            open.isEmpty
            ? "the container has shut down, but a service of the group that the container does not run has not returned"
            : "still open: \(open.joined(separator: "; "))"
        return "Graft: shutdown did not end within \(limit) of the signal; \(still); exiting with status \(exitStatus)"
    }

    /// Starts the countdown: when `limit` has passed, logs ``overrunMessage(for:)`` as critical
    /// and ends the process.
    ///
    /// The countdown is an unstructured task on purpose: it must outlive the service that armed
    /// it, whose `run()` returns once the container has shut down while another service may
    /// still hang. The process ending, normally or by this, is what ends it.
    func arm(for container: Container, logger: Logger) {
        Task.detached { [self] in
            try? await Task.sleep(for: limit)
            logger.critical("\(overrunMessage(for: container))")
            exit(exitStatus)
        }
    }
}
