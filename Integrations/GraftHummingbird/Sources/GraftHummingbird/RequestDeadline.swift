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

    /// Runs `work` (the rest of the chain, then the completion step) against the deadline that
    /// `clock` keeps: returns its response, or throws ``DeadlinePassed`` when the deadline came
    /// first (`expiry` has then logged it and is failing the scope).
    ///
    /// Behind a ``RequestGuard`` the work runs right here, in the task the guard made for the
    /// request, which the guard cancels and stops waiting for at the deadline. Without one, the
    /// work runs in a task of its own for the deadline to cancel, awaited to its end: a handler
    /// that ignores its cancellation then keeps this from returning until it ends.
    static func run(
        _ work: () async throws -> Response,
        on clock: DeadlineClock,
        expiry: RequestExpiry
    ) async throws -> Response {
        if expiry.isGuarded {
            let timer = clock.arm(expiry.fire)
            let result: Result<Response, any Error>
            do { result = .success(try await work()) } catch { result = .failure(error) }
            guard clock.disarm(timer) else { throw DeadlinePassed() }
            return try result.get()
        }
        let worker = WorkerCancellation()
        let timer = clock.arm {
            expiry.fire()
            worker.cancel()
        }
        let result: Result<Response, any Error>
        do {
            result = .success(try await DeadlineRace.run(started: worker.attach) { try await work() })
        } catch {
            result = .failure(error)
        }
        guard clock.disarm(timer) else { throw DeadlinePassed() }
        return try result.get()
    }
}

/// The request ran past its deadline: ``RequestExpiry`` has logged it and is failing its scope,
/// and the client is answered ``RequestDeadline/answer``.
struct DeadlinePassed: Error {}

/// The deadlines of one middleware's requests: one queue and at most one sleeping task for all
/// of them, instead of a timer (or a task) per request.
///
/// Every deadline it keeps has the same length, so they fall due in the order they were armed:
/// the queue is kept in that order, a request that ends takes its own entry out, and the one task
/// sleeps until the oldest entry left is due, fires what is due, and ends when none is left.
/// Arming and disarming cost a lock and a dictionary entry.
final class DeadlineClock: Sendable {
    /// What one request armed.
    struct Timer: Sendable {
        fileprivate let number: Int
    }

    private struct Entry {
        let due: ContinuousClock.Instant
        let action: @Sendable () -> Void
    }

    private struct State {
        /// The armed entries, by number: numbers rise with `due`.
        var entries: [Int: Entry] = [:]
        /// The number the next entry gets.
        var next = 0
        /// No entry below this number is left.
        var lowest = 0
        /// Whether a task is sleeping until the oldest entry is due.
        var ticking = false
    }

    let deadline: Duration
    private let state = Mutex(State())

    init(deadline: Duration) {
        self.deadline = deadline
    }

    /// Arms a deadline, `deadline` from now, that calls `action` once unless disarmed first.
    func arm(_ action: @escaping @Sendable () -> Void) -> Timer {
        let (timer, startTicking) = state.withLock { state in
            let number = state.next
            state.next += 1
            state.entries[number] = Entry(due: .now + deadline, action: action)
            defer { state.ticking = true }
            return (Timer(number: number), !state.ticking)
        }
        if startTicking {
            // Detached: it outlives the request that started it, and keeps none of its task-locals.
            Task.detached { await self.tick() }
        }
        return timer
    }

    /// Disarms `timer`: `true` when it had not fired, `false` when its action was called (or is
    /// being called).
    func disarm(_ timer: Timer) -> Bool {
        state.withLock { $0.entries.removeValue(forKey: timer.number) != nil }
    }

    /// Fires what is due, then sleeps until the oldest entry left is due; ends when none is left.
    private func tick() async {
        while true {
            let (due, expired) = state.withLock { state -> (ContinuousClock.Instant?, [@Sendable () -> Void]) in
                let now = ContinuousClock.now
                var expired: [@Sendable () -> Void] = []
                while state.lowest < state.next {
                    guard let entry = state.entries[state.lowest] else {
                        state.lowest += 1
                        continue
                    }
                    guard entry.due <= now else { return (entry.due, expired) }
                    state.entries[state.lowest] = nil
                    state.lowest += 1
                    expired.append(entry.action)
                }
                state.ticking = false
                return (nil, expired)
            }
            for action in expired { action() }
            guard let due else { return }
            // Never cancelled: nothing holds this task. An entry disarmed meanwhile is skipped.
            try? await Task.sleep(until: due, clock: .continuous)
        }
    }
}

/// The task a request runs in when no ``RequestGuard`` made one, for its deadline to cancel.
final class WorkerCancellation: Sendable {
    private struct State {
        var task: Task<Response, any Error>?
        var cancelled = false
    }

    private let state = Mutex(State())

    /// Keeps the request's task; cancels it at once when the deadline passed already.
    func attach(_ task: Task<Response, any Error>) {
        let cancelNow = state.withLock { state in
            if !state.cancelled { state.task = task }
            return state.cancelled
        }
        if cancelNow { task.cancel() }
    }

    /// Cancels the request's task, now or as soon as it is attached.
    func cancel() {
        let task = state.withLock { state in
            state.cancelled = true
            defer { state.task = nil }
            return state.task
        }
        task?.cancel()
    }
}

/// One request's end at its deadline, done once: the log line naming the request and what its
/// scope still held, the scope failed and closed (without keeping the answer waiting), and the
/// ``RequestGuard`` above the router, if any, told to answer now.
final class RequestExpiry: Sendable {
    private let lease: RequestScopeLease
    private let logger: Logger
    private let deadline: Duration
    private let method: HTTPRequest.Method
    private let route: String
    private let id: String
    private let watch: RequestDeadlineWatch?
    private let fired = Atomic(false)

    init(
        _ lease: RequestScopeLease,
        logger: Logger,
        deadline: Duration,
        method: HTTPRequest.Method,
        route: String,
        id: String,
        watch: RequestDeadlineWatch?
    ) {
        self.lease = lease
        self.logger = logger
        self.deadline = deadline
        self.method = method
        self.route = route
        self.id = id
        self.watch = watch
    }

    /// Whether a ``RequestGuard`` runs the request in a task it cancels and answers for.
    var isGuarded: Bool { watch != nil }

    /// Logs, tells the guard, and fails the scope; only the first call does anything.
    func fire() {
        guard fired.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        // Written here, not for every request: most never need it.
        let request = "\(method) \(route) (request \(id))"
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
/// at the deadline, and the guard cancels the work and answers without waiting for a handler that
/// ignores its cancellation.
final class RequestDeadlineWatch: Sendable {
    /// The watch of the request this task answers; `nil` without a ``RequestGuard``.
    @TaskLocal static var current: RequestDeadlineWatch?

    private let onExpiry: @Sendable () -> Void

    init(onExpiry: @escaping @Sendable () -> Void) {
        self.onExpiry = onExpiry
    }

    func expire() { onExpiry() }
}
