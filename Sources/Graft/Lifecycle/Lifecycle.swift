/// A container's start and shutdown: which services started, their running tasks, and the one
/// shutdown every caller shares.
///
/// Services start one after another in the plan's order (dependencies first) and stop in the
/// reverse. A `run()` is a task the container owns: it begins when its service starts and is
/// cancelled, and awaited, when the service stops, so no task outlives the container's shutdown.
final class Lifecycle: Sendable {
    enum Phase: Sendable {
        case idle, starting, started, startFailed, shuttingDown
    }

    /// A service that `start()` started, kept until it is stopped.
    struct Started: Sendable {
        /// Its place in ``LifecyclePlan/services``.
        let position: Int
        let instance: any Sendable
        var runs: [Task<Void, Never>] = []
    }

    struct State: Sendable {
        var phase = Phase.idle
        var started: [Started] = []
        /// Positions whose `run()` has already ended: stopping does not wait for them.
        var endedRuns: Set<Int> = []
        /// The first running service that failed.
        var runFailure: GraftError?
        /// How many callers of `Container.run()` will throw ``runFailure``.
        var runCallers = 0
        /// Whether the container's one shutdown has begun.
        var shutdownClaimed = false
        /// The positions whose `run()` has begun and not ended, oldest first (once per `run()`):
        /// what a shutdown that overran names.
        var runsNotEnded: [Int] = []
        /// The service whose stop hook the shutdown is awaiting now: what a shutdown that overran
        /// names.
        var stopping: ServiceKey?
    }

    let plan: LifecyclePlan
    let state = Locked(State())
    /// Fires when the one shutdown has finished: stop hooks run and everything disposed.
    let shutdownEnded = OneShotSignal()

    init(plan: LifecyclePlan) {
        self.plan = plan
    }

    /// Starts every service of the plan, dependencies first; on a failure, stops what started,
    /// newest first, and throws.
    ///
    /// - Parameters:
    ///   - deadline: The time each step must end by; a step still running then fails the start.
    ///   - instance: The instance of a registration, made if need be.
    ///   - shutDown: Shuts the whole container down, when a running service fails.
    func start(
        within deadline: StartDeadline,
        instance: @escaping @Sendable (Int) async throws(GraftError) -> any Sendable,
        shutDown: @escaping @Sendable () async -> Void
    ) async throws(GraftError) {
        try claimStart()
        for (position, service) in plan.services.enumerated() where service.isStarted {
            let started: Started
            do {
                started = try await start(
                    service,
                    at: position,
                    within: deadline,
                    instance: instance,
                    shutDown: shutDown
                )
            } catch {
                throw await rollBack(after: error)
            }
            switch record(started) {
            case .recorded:
                continue
            case .runFailed(let failure):
                throw await rollBack(after: failure)
            case .shuttingDown:
                // Shutdown took what had started before; this one is stopped here.
                _ = await stop([started])
                throw LifecycleErrors.shutDownWhileStarting(service.key)
            }
        }
        if let failure = finishStart() {
            throw await rollBack(after: failure)
        }
    }

    private func claimStart() throws(GraftError) {
        let phase = state.withLock { state -> Phase in
            defer { if state.phase == .idle { state.phase = .starting } }
            return state.phase
        }
        switch phase {
        case .idle: return
        case .shuttingDown: throw LifecycleErrors.startAfterShutdown()
        case .starting, .started, .startFailed: throw LifecycleErrors.startedTwice(phase)
        }
    }

    private func start(
        _ service: LifecyclePlan.Service,
        at position: Int,
        within deadline: StartDeadline,
        instance: @escaping @Sendable (Int) async throws(GraftError) -> any Sendable,
        shutDown: @escaping @Sendable () async -> Void
    ) async throws(GraftError) -> Started {
        let key = service.key
        let made = try await deadline.bound("making \(key) was still running", of: key) { () async throws(GraftError) in
            do throws(GraftError) {
                return try await instance(service.node)
            } catch {
                throw LifecycleErrors.couldNotMake(key, error)
            }
        }
        for hook in service.starts {
            try await deadline.bound("the start hook of \(key) was still running", of: key) {
                () async throws(GraftError) in
                do {
                    try await hook.body(made)
                } catch {
                    throw LifecycleErrors.startHookFailed(key, error)
                }
            }
        }
        var started = Started(position: position, instance: made)
        for hook in service.runs {
            // Begun before what depends on the service starts: a dependent's start hook may use it.
            do {
                started.runs.append(try await begin(hook, of: made, at: position, within: deadline, shutDown: shutDown))
            } catch {
                // Not started, so not stopped by the roll-back: its runs that had begun end here.
                for run in started.runs { run.cancel() }
                throw error
            }
        }
        return started
    }

    private enum Recording {
        case recorded
        case runFailed(GraftError)
        case shuttingDown
    }

    /// Keeps `started` for shutdown (or for the roll-back, when a running service failed), unless
    /// shutdown has begun.
    private func record(_ started: Started) -> Recording {
        state.withLock { state in
            guard state.phase == .starting else { return .shuttingDown }
            state.started.append(started)
            return state.runFailure.map { .runFailed($0) } ?? .recorded
        }
    }

    /// Marks the start done; returns the failure of a running service that failed meanwhile.
    private func finishStart() -> GraftError? {
        state.withLock { state in
            if let failure = state.runFailure { return failure }
            state.phase = .started
            return nil
        }
    }

    /// Stops what started, newest first, and returns the start's error with any stop failures.
    private func rollBack(after error: GraftError) async -> GraftError {
        let started = state.withLock { state in
            defer { state.started = [] }
            if state.phase == .starting { state.phase = .startFailed }
            return state.started
        }
        let stopFailures = await stop(started)
        return LifecycleErrors.startFailure(
            error,
            stopped: started.map { plan.services[$0.position].key },
            stopFailures
        )
    }
}
