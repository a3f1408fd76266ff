/// Runs work that a caller cannot send to another task (a web framework's `next` closure, which
/// is not `Sendable`) in a task whose handle the caller gets, so that a request deadline can
/// cancel it from a timer: written once for the integrations.
///
/// Swift gives no safe handle to the current task, and a child task can only be cancelled by its
/// group's owner, which is busy awaiting it; an unstructured task awaited to its end is the one
/// task that a timer elsewhere can cancel.
@_spi(Integrations)
public enum DeadlineRace {
    /// Runs `operation` in a task of its own, hands that task to `started` before awaiting it,
    /// and returns what it returns (or throws what it throws) once it has ended.
    ///
    /// Cancelling the caller cancels the task. The caller waits for the task to end whatever
    /// happens to it: an operation that ignores its cancellation keeps this from returning.
    ///
    /// - Parameters:
    ///   - started: Given the task, before it is awaited; cancel it to cancel `operation`.
    ///   - operation: The work; called once, from the task.
    /// - Returns: What `operation` returned.
    public static func run<Result: Sendable>(
        started: (Task<Result, any Error>) -> Void,
        _ operation: () async throws -> Result
    ) async throws -> Result {
        try await withoutActuallyEscaping(operation) { operation in
            let work = OnceFromTheTask(operation)
            let task = Task { try await work.call() }
            started(task)
            return try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        }
    }

    /// The non-`Sendable` work, handed to the one task.
    ///
    /// `@unchecked Sendable` is sound: the value is made in `run`, captured by exactly one task
    /// made there and never stored elsewhere; `run` awaits that task's value on every path (a
    /// cancelled caller still waits: `Task.value` returns only once the task has ended), so the
    /// closure is called once, never concurrently, and never after `withoutActuallyEscaping`'s
    /// frame, which owns what it captures, has gone. `operation` is a non-escaping parameter: the
    /// compiler keeps a caller from holding it beyond the call.
    private struct OnceFromTheTask<Result>: @unchecked Sendable {
        let call: () async throws -> Result

        init(_ call: @escaping () async throws -> Result) {
            self.call = call
        }
    }
}
