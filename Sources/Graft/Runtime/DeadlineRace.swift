/// Races work that a caller cannot send to another task (a web framework's `next` closure, which
/// is not `Sendable`) against a deadline, in a child task: what a request deadline needs, written
/// once for the integrations.
@_spi(Integrations)
public enum DeadlineRace {
    /// Runs `operation` in a child task raced against `deadline`: returns its result, or at the
    /// deadline cancels it, calls `atDeadline`, and returns `nil` once the child has ended.
    ///
    /// An error `operation` throws before the deadline is thrown here. A child that ignores its
    /// cancellation keeps this from returning until it ends.
    ///
    /// - Parameters:
    ///   - deadline: How long `operation` may run.
    ///   - atDeadline: Called once, as the deadline passes, before the child has ended.
    ///   - operation: The work; called once, from the child task.
    /// - Returns: What `operation` returned, or `nil` when the deadline came first.
    public static func run<Result: Sendable>(
        within deadline: Duration,
        atDeadline: () -> Void,
        _ operation: () async throws -> Result
    ) async throws -> Result? {
        try await withoutActuallyEscaping(operation) { operation in
            let work = OnceFromTheChild(operation)
            return try await withThrowingTaskGroup(of: Result?.self) { group in
                group.addTask { try await work.call() }
                group.addTask {
                    try await Task.sleep(for: deadline)
                    return nil
                }
                // The first to end: the work (its result or error), or the deadline.
                let first: Result??
                do {
                    first = try await group.next()
                } catch {
                    group.cancelAll()
                    throw error
                }
                group.cancelAll()
                if let result = first ?? nil { return result }
                atDeadline()
                // Wait for the cancelled work to end, whatever it returns or throws.
                while (try? await group.next()) != nil {}
                return nil
            }
        }
    }

    /// The non-`Sendable` work, handed to the one child task.
    ///
    /// `@unchecked Sendable` is sound: the value is made in `run`, captured by exactly one child
    /// task of `run`'s task group and never stored elsewhere; the group is awaited to its end
    /// before `run` returns (the loop above drains it on every path, and `withThrowingTaskGroup`
    /// awaits what is left when its body throws), so the closure is called once, never
    /// concurrently, and never after `withoutActuallyEscaping`'s frame, which owns what it
    /// captures, has gone. `operation` is a non-escaping parameter: the compiler keeps a caller
    /// from holding it beyond the call.
    private struct OnceFromTheChild<Result>: @unchecked Sendable {
        let call: () async throws -> Result

        init(_ call: @escaping () async throws -> Result) {
            self.call = call
        }
    }
}
