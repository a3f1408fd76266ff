// Signals between a test and the factories it registers: a test waits for what happened, never
// for a length of time, so no sleep decides which path a test takes.

/// A gate that opens once: tasks wait at it until someone opens it.
///
/// Waiting ends when the latch opens or when the waiting task is cancelled (a test's time limit
/// cancels it), so a test whose latch never opens fails instead of hanging. A factory that must
/// not see cancellation checks `Task.isCancelled` after waiting.
final class Latch: Sendable {
    private struct State: Sendable {
        var isOpen = false
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
    }

    private let state = Guarded(State())

    init() {}

    /// Lets every waiter, and every later one, through.
    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the latch is open, or once the calling task is cancelled.
    func wait() async {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let passes = state.withLock { state in
                    if state.isOpen || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if passes { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}

/// Opens once `count` arrivals have been counted: a test waits for every worker to get going.
final class Countdown: Sendable {
    private let remaining: Guarded<Int>
    private let reached = Latch()

    init(_ count: Int) {
        remaining = Guarded(count)
        if count <= 0 { reached.open() }
    }

    /// Counts one arrival.
    func arrive() {
        let left = remaining.withLock { remaining in
            remaining -= 1
            return remaining
        }
        if left == 0 { reached.open() }
    }

    /// Lets every waiter go, however many have arrived.
    func release() {
        reached.open()
    }

    /// Returns once every arrival has been counted (or the calling task is cancelled).
    func wait() async {
        await reached.wait()
    }
}
