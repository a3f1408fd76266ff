import Synchronization

/// Runs a request's work against its deadline: whichever ends first, the work or the deadline,
/// decides, and a handler that ignores cancellation cannot hold the answer back.
///
/// The work runs in a task of its own, so that nothing has to wait for it once the deadline has
/// passed; a task group races the wait for its result against a sleep until the deadline.
/// The loser is cancelled: the sleep when the work finished first, the work when the deadline
/// passed first (and its result, should it come later, is dropped).
enum RequestDeadline {
    /// How a race ended.
    enum Ending<Value: Sendable>: Sendable {
        /// The work finished in time, with this result.
        case finished(Result<Value, any Error>)
        /// The deadline passed first; the work's task was cancelled.
        case passed
    }

    /// What one side of the race brought back: the other side's end, or that it stepped aside.
    private enum Arrival<Value: Sendable>: Sendable {
        case ending(Ending<Value>)
        case none
    }

    /// Runs `work` until it finishes or `deadline` passes, whichever is first.
    ///
    /// When the calling task is cancelled, `work` is cancelled too and still awaited (or the
    /// deadline still ends the wait).
    static func run<Value: Sendable>(
        within deadline: Duration,
        _ work: @escaping @Sendable () async throws -> Value
    ) async -> Ending<Value> {
        let result = OutcomeSlot<Result<Value, any Error>>()
        let task = Task {
            do {
                result.fill(.success(try await work()))
            } catch {
                result.fill(.failure(error))
            }
        }
        let ending = await withTaskCancellationHandler {
            await withTaskGroup(of: Arrival<Value>.self) { group in
                group.addTask {
                    guard let outcome = await result.wait() else { return .none }
                    return .ending(.finished(outcome))
                }
                group.addTask {
                    do {
                        try await Task.sleep(for: deadline)
                        return .ending(.passed)
                    } catch {
                        return .none  // cancelled: the work finished first, or the caller was cancelled
                    }
                }
                var ending = Ending<Value>.passed
                for await arrival in group {
                    guard case .ending(let first) = arrival else { continue }
                    ending = first
                    break
                }
                group.cancelAll()
                result.abandon()  // the waiting side steps aside, so the group ends now
                return ending
            }
        } onCancel: {
            task.cancel()
        }
        if case .passed = ending { task.cancel() }
        return ending
    }
}

/// A value that one side fills and the other waits for, once; abandoning it ends the wait with
/// `nil`.
final class OutcomeSlot<Value: Sendable>: Sendable {
    private enum State: Sendable {
        case empty(waiter: CheckedContinuation<Value?, Never>?)
        case filled(Value)
        case abandoned
    }

    private let state = Mutex(State.empty(waiter: nil))

    /// Hands `value` to the waiter; does nothing once filled or abandoned.
    func fill(_ value: Value) {
        let waiter = state.withLock { state -> CheckedContinuation<Value?, Never>? in
            guard case .empty(let waiter) = state else { return nil }
            state = .filled(value)
            return waiter
        }
        waiter?.resume(returning: value)
    }

    /// Ends the wait with `nil` unless the value came first; a later `fill` is dropped.
    func abandon() {
        let waiter = state.withLock { state -> CheckedContinuation<Value?, Never>? in
            guard case .empty(let waiter) = state else { return nil }
            state = .abandoned
            return waiter
        }
        waiter?.resume(returning: nil)
    }

    /// The value, once filled; `nil` once abandoned.
    func wait() async -> Value? {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Value?? in
                switch state {
                case .empty:
                    state = .empty(waiter: continuation)
                    return .none
                case .filled(let value):
                    return .some(value)
                case .abandoned:
                    return .some(nil)
                }
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
