public import Graft
public import Logging
public import ServiceLifecycle
import Synchronization
public import UnixSignals

/// A Graft `Container` as a `Service` in a `ServiceGroup`: it starts the container (start hooks,
/// running services), and on graceful shutdown it drains, stops what started, then disposes
/// everything the container created.
///
/// When the group runs it, the service calls the container's `start(timeout:)` with
/// ``startTimeout``: start hooks run, dependencies first, and each running service's `run()`
/// begins (see `ContainerBuilder.runs`) before what depends on it starts.
/// If a start hook throws, or a running service fails later, the container shuts down and the
/// service throws the error, which names the service; the group then shuts down the others.
///
/// When the group shuts down gracefully (SIGTERM, say), the service calls the container's
/// `shutdown(gracePeriod:)`: the container makes no new scope, the scopes already open (requests
/// or jobs in flight) go on until they close, or until `gracePeriod` ends, and then every scope
/// left and every singleton is disposed, newest first. When the group cancels the service
/// instead, the container shuts down at once.
///
/// ```swift
/// let container = try await builder.build()
/// let group = ServiceGroup(
///     services: [ContainerService(container), app],
///     gracefulShutdownSignals: [.sigterm, .sigint],
///     logger: logger
/// )
/// try await group.run()
/// ```
///
/// ## The order of services does not matter
///
/// A `ServiceGroup` shuts its services down in the reverse of the order they are listed, one
/// after the other. Listing the container first (as above) shuts it down last: by then the
/// server has answered every request, no scope is open, and the container disposes at once.
/// Listed after the server, the container is told first, while requests are still running; it
/// drains instead of closing their scopes under them, so each request finishes with its scoped
/// services intact and their disposals run before any singleton is disposed. Requests that
/// arrive while it drains get no scope; the Hummingbird integration answers them
/// `503 Service Unavailable`. Either order shuts down cleanly; listing the container first
/// keeps the server answering normally until it stops.
///
/// ## A shutdown that always ends
///
/// The service traps the shutdown ``signals`` itself, so the grace period starts at the signal
/// even when the group tells the container last (listed first) and a service before it hangs.
/// When the group tells it, the container drains for what is left of ``gracePeriod``; when the
/// grace period ends before that, the container shuts down then, closing the scopes still open,
/// and the service throws a `GraftError` with code `gracePeriodRanOut` naming them, so the group
/// ends with it (and a server's process, which exits non-zero on it, tells its supervisor that
/// requests were cut off). When ``deadlineAfterGracePeriod`` has passed too and the process is still running, what is
/// still open (scopes by the services and leases they hold, `dispose()` calls and lease returns,
/// the stop hook being awaited, each running service whose `run()` has not returned) is logged as
/// critical by name and the process exits with a non-zero status. A graceful shutdown triggered in code
/// (`triggerGracefulShutdown()`) drains the same way but arms no deadline.
///
/// <doc:GracefulShutdown> walks through a whole group, with a job runner in place of a server.
public struct ContainerService: Service, CustomStringConvertible {
    /// The container the service shuts down.
    ///
    /// The service only shuts it down; building it and resolving from it are the app's business.
    public let container: Container

    /// How long starting the container may take, or `nil` for no limit.
    ///
    /// When it passes with a start hook still running (or a service still being made, or a
    /// `run()` not yet begun), the start fails: what had started is stopped, newest first, the
    /// container shuts down, and the service throws a `GraftError` with code `startTimedOut`
    /// naming that service. See `Container.start(timeout:)`.
    public let startTimeout: Duration?

    /// How long open scopes may go on once graceful shutdown has begun.
    ///
    /// When it ends, the scopes still open are closed for them, their disposals run, the
    /// container shuts down, and the service throws `gracePeriodRanOut` naming those scopes.
    public let gracePeriod: Duration

    /// The Unix signals that start the shutdown, and its deadline, whatever the order of services.
    public let signals: [UnixSignal]

    /// How long after the grace period a shutdown that a signal started may go on before the
    /// process is ended, what is still open logged; `nil` when it is never ended.
    public let deadlineAfterGracePeriod: Duration?

    /// Where the service logs a shutdown that overran its deadline.
    public let logger: Logger

    /// A service that starts `container` and shuts it down when its service group ends.
    ///
    /// ```swift
    /// let service = ContainerService(container, gracePeriod: .seconds(30))
    /// ```
    ///
    /// - Parameters:
    ///   - container: The container to start, drain and shut down.
    ///   - startTimeout: How long starting the container may take before the service fails with
    ///     an error naming the service still starting; no limit unless given.
    ///   - gracePeriod: How long open scopes may go on once graceful shutdown has begun; then
    ///     they are closed for them. Ten seconds unless given.
    ///   - signals: The signals that start the shutdown: list the group's graceful shutdown
    ///     signals. `SIGTERM` and `SIGINT` unless given.
    ///   - deadlineAfterGracePeriod: How long after the grace period the process may go on
    ///     (closing the scopes left, stopping services, disposing) before it is ended with exit
    ///     status 1, what is still open logged. Ten seconds unless given; `nil` never ends it.
    ///   - logger: Where a shutdown that overran is logged.
    public init(
        _ container: Container,
        startTimeout: Duration? = nil,
        gracePeriod: Duration = .seconds(10),
        signals: [UnixSignal] = [.sigterm, .sigint],
        deadlineAfterGracePeriod: Duration? = .seconds(10),
        logger: Logger = Logger(label: "Graft")
    ) {
        self.container = container
        self.startTimeout = startTimeout
        self.gracePeriod = gracePeriod
        self.signals = signals
        self.deadlineAfterGracePeriod = deadlineAfterGracePeriod
        self.logger = logger
    }

    /// Starts the container, waits for graceful shutdown (or cancellation, or a running service
    /// that fails), then drains and shuts the container down.
    ///
    /// The `ServiceGroup` calls it; you do not. On graceful shutdown the container drains for up
    /// to ``gracePeriod``, then stops what started, newest first; on cancellation it does so at
    /// once. Either way every stop hook and disposal runs, even after one has thrown.
    ///
    /// - Throws: A `GraftError`: `startFailed`, `startTimedOut` or `runningServiceFailed` naming
    ///   the service; `gracePeriodRanOut` naming the scopes the grace period's end closed;
    ///   `disposalFailed` or `stopFailed` listing every `dispose()` and stop hook that threw.
    public func run() async throws {
        // Trapped before the container starts, so a signal during start-up is not lost.
        let trapped = signals.isEmpty ? nil : await UnixSignalsSequence(trapping: signals)
        let shutdown = ShutdownClaim()
        try await withThrowingTaskGroup(of: Bool.self) { tasks in
            // Starts, then returns once the container has shut down; throws when a start hook or
            // a running service failed (the container has shut down by then).
            tasks.addTask {
                do {
                    try await container.run(startTimeout: startTimeout)
                } catch let error as GraftError where error.code == .closed && shutdown.isClaimed {
                    // The shutdown came before start() had ended, or begun: what had started was
                    // stopped, and the container shut down as it was asked to.
                }
                return true
            }
            tasks.addTask {
                // Cancellation ends the wait too: `shutdown(gracePeriod:)` then sees a cancelled
                // task and closes what is open at once.
                try? await gracefulShutdown()
                if shutdown.claim() { try await shutDown(awaitingTheGroup: false) }
                return false
            }
            if let trapped {
                tasks.addTask {
                    // Waits through the shutdown too: one signal reaches the group and this
                    // service alike, and the group's graceful shutdown may reach this service
                    // first. The signal still arms the deadline, which is what ends a process
                    // whose shutdown never ends.
                    for await _ in trapped {
                        if let deadlineAfterGracePeriod {
                            let deadline = ShutdownDeadline(limit: gracePeriod + deadlineAfterGracePeriod)
                            deadline.arm(for: container, logger: logger)
                        }
                        if shutdown.claim() { try await shutDown(awaitingTheGroup: true) }
                        return false
                    }
                    return false  // cancelled: the container's run has ended
                }
            }
            // The first error cancels the other tasks: a failed container needs no graceful wait.
            // Once the container's run has ended, nothing is left to wait for.
            while let containerRunEnded = try await tasks.next() {
                if containerRunEnded { tasks.cancelAll() }
            }
        }
    }

    /// Drains the container for the grace period, from now, then shuts it down; throws
    /// `gracePeriodRanOut` naming the scopes the period's end closed (see
    /// `Container.shutdown(gracePeriod:drainingAfter:)`), so that the group ends with it and a
    /// server's process with a non-zero status, because requests did not finish.
    ///
    /// - Parameter awaitingTheGroup: Whether draining waits for the group's graceful shutdown to
    ///   reach this service first (a Unix signal trapped here comes before it); the grace period
    ///   runs from now either way.
    private func shutDown(awaitingTheGroup: Bool) async throws {
        try await container.shutdown(gracePeriod: gracePeriod) {
            if awaitingTheGroup { try? await gracefulShutdown() }
        }
    }

    /// How the service appears in `ServiceGroup`'s logs, with its grace period.
    ///
    /// For example `Graft.Container (grace period 10.0 seconds)`.
    public var description: String { "Graft.Container (grace period \(gracePeriod))" }
}

/// Which of the ways a shutdown can begin (a trapped signal, the group's graceful shutdown, or
/// cancellation) begins it: the first to claim it.
private final class ShutdownClaim: Sendable {
    private let claimed = Atomic(false)

    /// Whether a shutdown has begun.
    var isClaimed: Bool { claimed.load(ordering: .relaxed) }

    /// `true` for the first caller only.
    func claim() -> Bool {
        claimed.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
    }
}
