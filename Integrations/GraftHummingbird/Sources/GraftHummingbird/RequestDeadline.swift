@_spi(Integrations) import Graft
import HTTPTypes
import Hummingbird
import Logging
import Synchronization

/// What a request that ran past its deadline is answered: `503 Service Unavailable`, the status
/// the middleware also answers while the container drains (the server could not serve it now; a
/// client may try again), with a message that shows nothing of what the request held.
enum RequestDeadline {
    static var answer: HTTPError {
        HTTPError(.serviceUnavailable, message: "The request did not finish within its deadline.")
    }

    /// Runs `work` (the rest of the chain, then the completion step) in a child task, raced in a
    /// task group against `deadline`: returns its response, or at the deadline cancels it, has
    /// `expiry` fail the request, and throws ``DeadlinePassed`` once the child has ended.
    ///
    /// A child that ignores its cancellation keeps this from returning until it ends; a
    /// ``RequestGuard`` above the router answers the client at the deadline all the same.
    static func race<Context: RequestContext>(
        _ work: (Request, Context) async throws -> Response,
        _ request: Request,
        _ context: Context,
        within deadline: Duration,
        expiry: RequestExpiry
    ) async throws -> Response {
        let response = try await DeadlineRace.run(within: deadline, atDeadline: expiry.fire) {
            try await work(request, context)
        }
        guard let response else { throw DeadlinePassed() }
        return response
    }
}

/// The request ran past its deadline: ``RequestExpiry`` has logged it and is failing its scope,
/// and the client is answered ``RequestDeadline/answer``.
struct DeadlinePassed: Error {}

/// One request's end at its deadline, done once: the log line naming the request and what its
/// scope still held, the scope failed and closed (without keeping the answer waiting), and the
/// ``RequestGuard`` above the router, if any, told to answer now.
final class RequestExpiry: Sendable {
    private let lease: RequestScopeLease
    private let logger: Logger
    private let deadline: Duration
    private let request: String
    private let watch: RequestDeadlineWatch?
    private let fired = Atomic(false)

    init(
        _ lease: RequestScopeLease,
        logger: Logger,
        deadline: Duration,
        request: String,
        watch: RequestDeadlineWatch?
    ) {
        self.lease = lease
        self.logger = logger
        self.deadline = deadline
        self.request = request
        self.watch = watch
    }

    /// Logs, tells the guard, and fails the scope; only the first call does anything.
    func fire() {
        guard fired.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        logger.error("\(Self.message(request, deadline, held: lease.scope.servicesHeld))")
        watch?.expire()
        // Closing may wait for a disposal behind the stuck work (a ROLLBACK queued after a query
        // that never ends): the answer does not wait for it.
        let lease = lease
        Task { await lease.fail() }
    }

    /// The log line: which request, its deadline, what was done, and what its scope held.
    static func message(_ request: String, _ deadline: Duration, held: [String]) -> String {
        let holding = held.isEmpty ? "held nothing" : "held \(held.joined(separator: ", "))"
        return "\(request) was still running at its deadline of \(deadline): answered 503, its task was "
            + "cancelled, and its scope, which \(holding), was failed and closed"
    }
}

/// The signal a ``RequestGuard`` waits on beside the request's own work: the middleware fires it
/// at the deadline, and the guard answers without waiting for a handler that ignores its
/// cancellation.
final class RequestDeadlineWatch: Sendable {
    /// The watch of the request this task answers; `nil` without a ``RequestGuard``.
    @TaskLocal static var current: RequestDeadlineWatch?

    private let onExpiry: @Sendable () -> Void

    init(onExpiry: @escaping @Sendable () -> Void) {
        self.onExpiry = onExpiry
    }

    func expire() { onExpiry() }
}
