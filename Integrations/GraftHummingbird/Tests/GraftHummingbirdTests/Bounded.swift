import Synchronization

/// What a bounded wait throws when `what` has not ended within its limit.
struct TimedOut: Error, CustomStringConvertible {
    let what: String
    let limit: Duration

    var description: String { "\(what) did not end within \(limit)" }
}

/// Runs `operation` and returns what it returns, or throws ``TimedOut`` naming `what` once
/// `limit` has passed: the test then fails with that message and goes on, even when the
/// operation ignores its cancellation (it is cancelled and left behind, not awaited). The limit
/// only bounds a wait that should end long before it; nothing is decided by how long things take.
func bounded<Value: Sendable>(
    _ what: String,
    within limit: Duration = .seconds(20),
    _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    let outcome = FirstOutcome<Value>()
    return try await withCheckedThrowingContinuation { continuation in
        outcome.waiting(continuation)
        let work = Task {
            do {
                outcome.settle(.success(try await operation()))
            } catch {
                outcome.settle(.failure(error))
            }
        }
        let timer = Task {
            try await Task.sleep(for: limit)
            work.cancel()
            outcome.settle(.failure(TimedOut(what: what, limit: limit)))
        }
        outcome.onSettled { timer.cancel() }
    }
}

/// The first of the operation's end and its limit's, handed to the waiting test once.
private final class FirstOutcome<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, any Error>?
        var settled = false
        var cleanUp: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    func waiting(_ continuation: CheckedContinuation<Value, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    /// Runs `cleanUp` once the outcome is settled (at once if it is already).
    func onSettled(_ cleanUp: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            guard !state.settled else { return true }
            state.cleanUp = cleanUp
            return false
        }
        if now { cleanUp() }
    }

    func settle(_ result: Result<Value, any Error>) {
        let (continuation, cleanUp) = state.withLock { state in
            guard !state.settled else {
                return (CheckedContinuation<Value, any Error>?.none, (@Sendable () -> Void)?.none)
            }
            state.settled = true
            defer { (state.continuation, state.cleanUp) = (nil, nil) }
            return (state.continuation, state.cleanUp)
        }
        continuation?.resume(with: result)
        cleanUp?()
    }
}
