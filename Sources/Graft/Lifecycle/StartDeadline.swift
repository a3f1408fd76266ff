/// The time limit of one `start(timeout:)`: each step of starting a service (making it, each of
/// its start hooks, the beginning of each `run()`) must end before it, or the start fails.
///
/// Without a limit a step is simply awaited. With one, the step runs in a task of its own while
/// the start waits for whichever comes first, the step's end or the deadline; at the deadline the
/// step is cancelled and not awaited (a hook that ignores cancellation cannot be stopped, and
/// must not hold the start up), and the start fails as if the step had thrown.
struct StartDeadline: Sendable {
    /// The limit `start(timeout:)` was given, for messages; `nil` when there is none.
    let limit: Duration?
    private let end: ContinuousClock.Instant?

    init(_ limit: Duration?) {
        self.limit = limit
        end = limit.map { ContinuousClock.now + $0 }
    }

    /// The result of `operation`, unless the deadline passes first.
    ///
    /// - Parameters:
    ///   - unfinished: What the deadline found, as a clause of the message: "the start hook of
    ///     Consumer was still running".
    ///   - key: The service being started.
    ///   - operation: The step; its errors are the start's.
    /// - Throws: `operation`'s error, or ``LifecycleErrors/startTimedOut(_:_:_:)`` at the deadline.
    func bound<Value: Sendable>(
        _ unfinished: String,
        of key: ServiceKey,
        _ operation: @escaping @Sendable () async throws(GraftError) -> Value
    ) async throws(GraftError) -> Value {
        guard let end, let limit else { return try await operation() }
        let race = StepRace<Value>()
        let work = Task {
            do throws(GraftError) {
                race.settle(.finished(.success(try await operation())))
            } catch {
                race.settle(.finished(.failure(error)))
            }
        }
        let outcome = await withTaskGroup(of: Void.self) { timer in
            timer.addTask {
                // Cancelled when the step ends first: nothing to settle then.
                guard (try? await Task.sleep(until: end, clock: .continuous)) != nil else { return }
                race.settle(.timedOut)
            }
            // The caller's cancellation reaches the step as it would without a limit.
            let outcome = await withTaskCancellationHandler {
                await race.outcome()
            } onCancel: {
                work.cancel()
            }
            timer.cancelAll()
            return outcome
        }
        switch outcome {
        case .finished(let result):
            return try result.get()
        case .timedOut:
            work.cancel()
            throw LifecycleErrors.startTimedOut(limit, unfinished, key)
        }
    }
}

/// One step raced against its deadline: the first to settle it decides the outcome.
private final class StepRace<Value: Sendable>: Sendable {
    enum Outcome: Sendable {
        case finished(Result<Value, GraftError>)
        case timedOut
    }

    private struct State: Sendable {
        var outcome: Outcome?
        var waiter: CheckedContinuation<Outcome, Never>?
    }

    private let state = Locked(State())

    /// Settles the race with `outcome`, unless it is settled already.
    func settle(_ outcome: Outcome) {
        let waiter = state.withLock { state -> CheckedContinuation<Outcome, Never>? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: outcome)
    }

    /// The outcome, once settled; not ended by cancellation (the step or the deadline ends it).
    func outcome() async -> Outcome {
        await withCheckedContinuation { waiter in
            let settled = state.withLock { state -> Outcome? in
                if state.outcome == nil { state.waiter = waiter }
                return state.outcome
            }
            if let settled { waiter.resume(returning: settled) }
        }
    }
}
