/// Running services: each `run()` a task of the container's, begun before what depends on the
/// service starts, and the failure of one shutting the container down.
extension Lifecycle {
    /// Starts `hook`'s `run()` on `instance` in a task of its own and returns once the run has
    /// begun, not waiting for it to end.
    ///
    /// "Begun" is as far as the run goes before its first suspension: a client that marks itself
    /// running as `run()`'s first step (postgres-nio's `PostgresClient` sets its running flag
    /// before any `await`) is marked by the time a dependent's start hook uses it. The task starts
    /// at once on this thread, runs until it first suspends, and only then does this return. Where
    /// the system cannot start a task that way (Apple systems before 26), it returns once the task
    /// has been scheduled and has called `run()`, which runs on another thread from then on.
    ///
    /// A `run()` that never suspends holds `start()` up, as it would hold a thread forever.
    ///
    /// - Throws: The deadline's error when the task has not begun by then; it is cancelled, and
    ///   then does not call `run()`.
    func begin(
        _ hook: LifecycleHook,
        of instance: any Sendable,
        at position: Int,
        within deadline: StartDeadline,
        shutDown: @escaping @Sendable () async -> Void
    ) async throws(GraftError) -> Task<Void, Never> {
        let begun = OneShotSignal()
        let running: @Sendable () async -> Void = {
            guard !Task.isCancelled else { return }
            self.state.withLock { $0.runsNotEnded.append(position) }
            begun.fire()
            await self.run(hook, of: instance, at: position, shutDown: shutDown)
        }
        let task: Task<Void, Never>
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            task = Task.immediate(operation: running)
        } else {
            task = Task(operation: running)
        }
        if !begun.hasFired {
            do {
                try await deadline.bound("run() of \(hook.key) had not begun", of: hook.key) {
                    await begun.wait()
                }
            } catch {
                task.cancel()
                throw error
            }
        }
        return task
    }

    /// The body of a running service's task: runs it and, if it fails while the container runs,
    /// shuts the container down.
    private func run(
        _ hook: LifecycleHook,
        of instance: any Sendable,
        at position: Int,
        shutDown: @Sendable () async -> Void
    ) async {
        var thrown: (any Error)?
        do {
            try await hook.body(instance)
        } catch {
            thrown = error
        }
        let ended = Task.isCancelled ? nil : thrown.map(RunEnd.threw) ?? .returned
        let shutsDown = state.withLock { state -> Bool in
            state.endedRuns.insert(position)
            state.runsNotEnded.firstIndex(of: position).map { _ = state.runsNotEnded.remove(at: $0) }
            guard let ended, state.runFailure == nil, state.phase != .shuttingDown else { return false }
            // While starting, `start()` sees the failure and rolls back; once started, it shuts down.
            let whileStarting = state.phase == .starting
            state.runFailure = LifecycleErrors.runEnded(hook.key, ended, whileStarting: whileStarting)
            return state.phase == .started
        }
        if shutsDown { await shutDown() }
    }
}

/// How a running service's `run()` ended without being cancelled: a failure either way.
enum RunEnd {
    case returned
    case threw(any Error)
}
