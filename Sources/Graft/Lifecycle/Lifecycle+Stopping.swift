/// Stopping: running services cancelled and stop hooks run, newest first, before any disposal.
extension Lifecycle {
    /// Claims the container's one shutdown for the caller: `false` when another caller has.
    ///
    /// - Parameter enteringShutdownPhase: Whether the phase becomes `.shuttingDown` now (a
    ///   shutdown that stops nothing) rather than when ``stopForShutdown(existingInstance:)`` runs.
    func claimShutdown(enteringShutdownPhase: Bool = false) -> Bool {
        state.withLock { state in
            defer {
                state.shutdownClaimed = true
                if enteringShutdownPhase { state.phase = .shuttingDown }
            }
            return !state.shutdownClaimed
        }
    }

    /// Stops everything that started, and each service without a start hook whose instance
    /// exists; newest first. Called once, by the container's shutdown.
    ///
    /// - Parameter existingInstance: A registration's instance if it was made, without making it.
    /// - Returns: What each stop hook that threw threw.
    func stopForShutdown(existingInstance: (Int) -> (any Sendable)?) async -> [GraftError] {
        let started = state.withLock { state in
            defer { state.started = [] }
            state.phase = .shuttingDown
            return state.started
        }
        return await stop(started, existingInstance: existingInstance)
    }

    /// The services whose stopping needs `await` (stop hooks to run, `run()`s to cancel and wait
    /// for), which the synchronous `shutdown()` cannot do.
    func servicesToStopWithAwait(existingInstance: (Int) -> (any Sendable)?) -> [ServiceKey] {
        let started = state.withLock { Set($0.started.map(\.position)) }
        return plan.services.indices.filter { position in
            let service = plan.services[position]
            if started.contains(position) { return !service.stops.isEmpty || !service.runs.isEmpty }
            return !service.isStarted && !service.stops.isEmpty && existingInstance(service.node) != nil
        }.map { plan.services[$0].key }
    }

    /// Stops `started`, newest first, and, given `existingInstance`, the made services that had
    /// nothing to start: cancels each `run()` and waits for it to end, then runs the stop hooks.
    func stop(_ started: [Started], existingInstance: (Int) -> (any Sendable)? = { _ in nil }) async -> [GraftError] {
        let byPosition = Dictionary(started.map { ($0.position, $0) }) { first, _ in first }
        var failures: [GraftError] = []
        for position in plan.services.indices.reversed() {
            let service = plan.services[position]
            let instance: any Sendable
            if let started = byPosition[position] {
                await cancelRuns(of: started, service)
                instance = started.instance
            } else if !service.isStarted, !service.stops.isEmpty, let made = existingInstance(service.node) {
                instance = made
            } else {
                continue
            }
            for hook in service.stops {
                setStopping(service.key)
                do {
                    try await hook.body(instance)
                } catch {
                    failures.append(LifecycleErrors.stopHookFailed(service.key, error))
                }
            }
        }
        setStopping(nil)
        return failures
    }

    private func cancelRuns(of started: Started, _ service: LifecyclePlan.Service) async {
        guard !started.runs.isEmpty else { return }
        let hasEnded = state.withLock { $0.endedRuns.contains(started.position) }
        for run in started.runs { run.cancel() }
        // A run that failed is the one shutting the container down: it is not waited for.
        guard !hasEnded else { return }
        for run in started.runs { await run.value }
    }

    private func setStopping(_ key: ServiceKey?) {
        state.withLock { $0.stopping = key }
    }
}

extension Lifecycle {
    /// The stop hook being awaited, then each `run()` that has not returned, newest first (the
    /// order they are stopped in).
    var openWork: [String] {
        let (stopping, runs) = state.withLock { ($0.stopping, $0.runsNotEnded) }
        let stop = stopping.map { ["stop hook of \($0)"] } ?? []
        return stop + runs.reversed().map { "run() of \(plan.services[$0].key)" }
    }
}
