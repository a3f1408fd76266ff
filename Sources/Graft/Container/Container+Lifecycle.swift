/// Starting a container, running it, and the one shutdown that stops what started.
extension Container {
    /// Starts the container: runs each start hook once, dependencies first, and begins each
    /// running service's `run()`.
    ///
    /// `build()` starts nothing; call this once the container is built. A service is started
    /// after everything it depends on, directly or not, and after the `run()` of each running
    /// service it depends on has begun (see ``ContainerBuilder/runs(_:name:fileID:line:_:)``). If
    /// a start hook throws (or a service cannot be made), the services already started are
    /// stopped, newest first, and `start()` throws; shut the container down afterwards to
    /// dispose what was made.
    ///
    /// With a `timeout`, a start that has not ended when it passes fails the same way, naming the
    /// service whose start hook (or making, or `run()` that has not begun) was still running. That
    /// step is cancelled and not awaited: a hook that ignores cancellation goes on in the
    /// background, and its service is not stopped, as it never started.
    ///
    /// ```swift
    /// let container = try await builder.build()
    /// try await container.start(timeout: .seconds(15))
    /// // … serve …
    /// try await container.shutdown()   // stops in reverse, then disposes
    /// ```
    ///
    /// - Parameter timeout: How long starting may take, from this call; `nil` (the default)
    ///   waits as long as the start hooks take.
    /// - Throws: ``GraftError`` with code ``GraftError/Code/startFailed`` naming the service and
    ///   carrying its error in ``GraftError/underlyingError``; ``GraftError/Code/startTimedOut``
    ///   naming the service still starting when `timeout` passed;
    ///   ``GraftError/Code/alreadyStarted`` on a second call; ``GraftError/Code/closed`` once
    ///   shutdown has begun.
    public func start(timeout: Duration? = nil) async throws(GraftError) {
        if isShuttingDown { throw LifecycleErrors.startAfterShutdown() }
        try await lifecycle.start(
            within: StartDeadline(timeout),
            instance: { [core] node throws(GraftError) in try await core.instance(of: node) },
            shutDown: { [self] in await shutDownAfterRunFailure() }
        )
    }

    /// Starts the container, then returns once it has shut down: after `shutdown()` (or
    /// `shutdown(gracePeriod:)`) from elsewhere, or after a running service failed.
    ///
    /// Cancelling the calling task shuts the container down. This is the loop of a process whose
    /// work is its running services (consumers, clients).
    ///
    /// ```swift
    /// try await container.run()   // until SIGTERM's handler calls container.shutdown(gracePeriod:)
    /// ```
    ///
    /// - Parameter startTimeout: How long starting may take (see ``start(timeout:)``); `nil` (the
    ///   default) sets no limit.
    /// - Throws: ``GraftError`` with code ``GraftError/Code/runningServiceFailed`` naming the
    ///   service that failed, or `start(timeout:)`'s error (the container is then shut down);
    ///   ``GraftError/Code/closed`` when a shutdown from elsewhere began before `start()` ended,
    ///   once that shutdown has ended (a graceful one drains as it would have).
    public func run(startTimeout: Duration? = nil) async throws(GraftError) {
        lifecycle.state.withLock { $0.runCallers += 1 }
        defer { lifecycle.state.withLock { $0.runCallers -= 1 } }
        do {
            try await start(timeout: startTimeout)
        } catch  where error.code == .closed {
            // A shutdown began before start() ended (a graceful one may still be draining): it
            // is its caller's to finish, so this run ends with it rather than cutting it short.
            await lifecycle.shutdownEnded.wait()
            throw error
        } catch {
            try? await shutdown()
            throw error
        }
        await lifecycle.shutdownEnded.wait()
        if !lifecycle.shutdownEnded.hasFired { try await shutdown() }
        if let failure = lifecycle.state.withLock({ $0.runFailure }) { throw failure }
    }

    /// The shutdown every caller shares: stops what started, then closes the scopes and disposes.
    /// A caller that comes while it runs waits for it to end.
    func shutDownOnce() async throws(GraftError) {
        guard lifecycle.claimShutdown() else {
            await lifecycle.shutdownEnded.wait()
            return
        }
        defer { lifecycle.shutdownEnded.fire() }
        // Children first: their services may use the parent's.
        let children = await shutDownChildren()
        let stops = await lifecycle.stopForShutdown { [core] node in core.existingInstance(of: node) }
        let disposals = children + (await core.root.closeAwaitingDisposals(recordingIn: core.disposing))
        if let failure = LifecycleErrors.shutdownFailure(stops: stops, disposals: disposals) { throw failure }
    }

    /// The synchronous shutdown: only when nothing needs stopping with `await`.
    func shutDownSynchronously() throws(GraftError) {
        let toStop = lifecycle.servicesToStopWithAwait { [core] node in core.existingInstance(of: node) }
        guard toStop.isEmpty else { throw LifecycleErrors.synchronousShutdown(toStop) }
        guard lifecycle.claimShutdown(enteringShutdownPhase: true) else { return }
        defer { lifecycle.shutdownEnded.fire() }
        let children = shutDownChildren()
        try Scope.throwIfFailed(children + core.root.closeCollectingFailures(by: .container), closing: "the container")
    }

    /// A running service failed while the container ran: shut down, and report the failure to
    /// the unhandled-error handler unless `run()` will throw it.
    private func shutDownAfterRunFailure() async {
        let report = core.table.problemReporter
        do {
            try await shutDownOnce()
        } catch {
            report(error)
        }
        let (failure, runCallers) = lifecycle.state.withLock { ($0.runFailure, $0.runCallers) }
        if runCallers == 0, let failure { report(failure) }
    }
}
