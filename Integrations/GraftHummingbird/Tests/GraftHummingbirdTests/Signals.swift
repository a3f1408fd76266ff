import Synchronization

/// A one-shot signal a test fires and tasks wait on: what the test waits for is what happens, not
/// a length of time (a suite's time limit is only a deadlock guard).
final class Signal: Sendable {
    private enum State {
        case waiting([UInt64: CheckedContinuation<Void, Never>], next: UInt64)
        case fired
    }

    private let state = Mutex(State.waiting([:], next: 0))

    var hasFired: Bool {
        state.withLock { if case .fired = $0 { true } else { false } }
    }

    /// Makes a fired signal wait again, for the next event of the same kind.
    func reset() {
        state.withLock { state in
            if case .fired = state { state = .waiting([:], next: 0) }
        }
    }

    func fire() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard case .waiting(let waiters, _) = state else { return [] }
            state = .fired
            return Array(waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the signal fires, ignoring cancellation: a handler that never looks at it.
    func wait() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                guard case .waiting(var waiters, let next) = state else { return true }
                waiters[next] = continuation
                state = .waiting(waiters, next: next + 1)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Returns once the signal fires, or throws `CancellationError` once the task is cancelled.
    func waitCancellably() async throws {
        let id = state.withLock { state -> UInt64? in
            guard case .waiting(let waiters, let next) = state else { return nil }
            state = .waiting(waiters, next: next + 1)
            return next
        }
        guard let id else { return }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> Bool in
                    guard case .waiting(var waiters, let next) = state, !Task.isCancelled else { return true }
                    waiters[id] = continuation
                    state = .waiting(waiters, next: next)
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard case .waiting(var waiters, let next) = state else { return nil }
                let waiter = waiters.removeValue(forKey: id)
                state = .waiting(waiters, next: next)
                return waiter
            }
            waiter?.resume()
        }
        try Task.checkCancellation()
    }
}
