import Graft
import NIOCore
import Synchronization
import Vapor

/// One request's way through ``GraftScopeMiddleware``: the one task it runs in, its deadline (a
/// callback scheduled on the request's event loop), and the promise its answer goes out by,
/// settled once, by whichever ends first.
///
/// Vapor would run an async middleware in a task and an async route handler in another; the
/// middleware runs both in one, and the deadline costs a timer on the event loop, not a task.
/// The answer is a promise, not the task's result, so at the deadline the client is answered
/// without waiting for a handler that ignores its cancellation.
final class RequestRun: NIOScheduledCallbackHandler, Sendable {
    private enum Phase {
        case running
        case finished
        case expired
    }

    private struct State {
        var phase = Phase.running
        var task: Task<Void, Never>?
        var timer: NIOScheduledCallback?
    }

    /// How the client is answered.
    let answer: EventLoopPromise<Response>
    private let request: Request
    private let lease: RequestScopeLease
    private let deadline: Duration
    private let state = Mutex(State())

    init(answer: EventLoopPromise<Response>, request: Request, lease: RequestScopeLease, deadline: Duration) {
        self.answer = answer
        self.request = request
        self.lease = lease
        self.deadline = deadline
    }

    /// Schedules the deadline on the request's event loop; `false` when the loop is shutting down,
    /// and the request runs without one.
    func armDeadline() -> Bool {
        guard let timer = try? request.eventLoop.scheduleCallback(in: TimeAmount(deadline), handler: self) else {
            return false
        }
        let late = state.withLock { state in
            guard case .running = state.phase else { return true }
            state.timer = timer
            return false
        }
        if late { timer.cancel() }
        return true
    }

    /// Keeps the request's task for the deadline to cancel; cancels it at once when the deadline
    /// passed already.
    func attach(_ task: Task<Void, Never>) {
        let cancelNow = state.withLock { state in
            guard case .running = state.phase else { return state.phase == .expired }
            state.task = task
            return false
        }
        if cancelNow { task.cancel() }
    }

    /// The work has ended: `true` when it ended first (the deadline is disarmed, and the caller
    /// answers), `false` when the deadline passed first and answered.
    func finish() -> Bool {
        let (first, timer) = state.withLock { state -> (Bool, NIOScheduledCallback?) in
            guard case .running = state.phase else { return (false, nil) }
            state.phase = .finished
            defer { (state.task, state.timer) = (nil, nil) }
            return (true, state.timer)
        }
        timer?.cancel()
        return first
    }

    /// The deadline: unless the work ended first, cancels its task, fails and closes the scope,
    /// then answers `503`.
    func handleScheduledCallback(eventLoop: some EventLoop) {
        let (first, task) = state.withLock { state -> (Bool, Task<Void, Never>?) in
            guard case .running = state.phase else { return (false, nil) }
            state.phase = .expired
            defer { (state.task, state.timer) = (nil, nil) }
            return (true, state.task)
        }
        guard first else { return }
        GraftScopeMiddleware.logDeadlinePassed(deadline, request, lease)
        task?.cancel()
        let (answer, lease) = (answer, lease)
        // Failing the scope awaits its async disposals: a task for that, only at a deadline. The
        // client is answered once the scope has closed (its connections are back).
        Task {
            await lease.fail()
            answer.fail(GraftScopeMiddleware.deadlineAnswer)
        }
    }

    /// Whether the deadline passed before the work ended.
    var hasExpired: Bool {
        state.withLock { $0.phase == .expired }
    }
}
