/// An event that happens once, which any number of tasks can wait for.
///
/// A waiting task resumes when the event fires, or at once when it is cancelled: waiting never
/// outlives the task that waits.
final class OneShotSignal: Sendable {
    private struct State: Sendable {
        var hasFired = false
        // `Dictionary()`, not `[:]`: the literal's initializer needs the dictionary type's
        // metadata, and with it the first check of `Never: Error` in the process, a scan of
        // every protocol conformance in it (1.4 million instructions in an app of 30,000
        // types) that each container would pay when it is made, not when something waits.
        var waiters: [Int: CheckedContinuation<Void, Never>] = Dictionary()
        var nextWaiter = 0
    }

    private let state = Locked(State())

    var hasFired: Bool { state.withLock { $0.hasFired } }

    /// Fires the event, resuming every waiting task; a second call does nothing.
    func fire() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.hasFired = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the event has fired, or once the calling task is cancelled.
    func wait() async {
        let id = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // A cancellation that came before this point found no waiter to resume: it is
                // seen here instead.
                let resumesNow = state.withLock { state -> Bool in
                    if state.hasFired || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumesNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
