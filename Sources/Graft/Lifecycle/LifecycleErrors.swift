/// The messages of starting and stopping, in one place.
enum LifecycleErrors {
    static func couldNotMake(_ key: ServiceKey, _ error: GraftError) -> GraftError {
        GraftError(
            .startFailed,
            "\(key) could not be made to start it: \(error.summary)",
            service: key.description,
            path: error.path,
            hints: error.hints,
            underlyingError: error.underlyingError ?? error
        )
    }

    static func startHookFailed(_ key: ServiceKey, _ error: any Error) -> GraftError {
        GraftError(
            .startFailed,
            "start hook of \(key) threw: \(error)",
            service: key.description,
            underlyingError: error
        )
    }

    static func startTimedOut(_ limit: Duration, _ unfinished: String, _ key: ServiceKey) -> GraftError {
        GraftError(
            .startTimedOut,
            "container.start(timeout: \(limit)) ran out of time: \(unfinished)",
            service: key.description,
            hints: [
                "it was cancelled and is not awaited; make it give up sooner (a connect timeout, say), "
                    + "or give start(timeout:) more time"
            ]
        )
    }

    /// `error` with a hint saying what was stopped because of it, and the stop hooks that threw.
    static func startFailure(_ error: GraftError, stopped: [ServiceKey], _ stopFailures: [GraftError]) -> GraftError {
        let rollBack =
            stopped.isEmpty
            ? "nothing had started before it"
            : "stopped what had started, newest first: \(stopped.reversed().map(\.description).joined(separator: ", "))"
        return GraftError(
            error.code,
            error.summary,
            service: error.service,
            path: error.path,
            hints: error.hints + [
                rollBack, "shut the container down to dispose what was made; build a new one to start again",
            ],
            underlyingError: error.underlyingError,
            problems: stopFailures
        )
    }

    static func startedTwice(_ phase: Lifecycle.Phase) -> GraftError {
        let what = phase == .startFailed ? "after a start that failed" : "twice"
        return GraftError(
            .alreadyStarted,
            "container.start() was called \(what): a container starts once",
            hints: ["shut this container down, and build a new one from the builder to start again"]
        )
    }

    static func startAfterShutdown() -> GraftError {
        GraftError(
            .closed,
            "container.start() was called after shutdown began: a container that shuts down does not start again",
            hints: ["build a new container from the builder to start again"]
        )
    }

    static func shutDownWhileStarting(_ key: ServiceKey) -> GraftError {
        GraftError(
            .closed,
            "the container shut down while start() was starting \(key)",
            service: key.description,
            hints: ["what had started was stopped; wait for start() to return before shutting down"]
        )
    }

    static func stopHookFailed(_ key: ServiceKey, _ error: any Error) -> GraftError {
        GraftError(.stopFailed, "stop hook of \(key) threw: \(error)", service: key.description, underlyingError: error)
    }

    /// A `run()` that ended before it was cancelled: while starting, `start()` rolls back and
    /// throws it; once started, the container shuts down.
    static func runEnded(_ key: ServiceKey, _ end: RunEnd, whileStarting: Bool) -> GraftError {
        let shutDown = whileStarting ? [] : [shutDownHint]
        switch end {
        case .threw(let error):
            return GraftError(
                .runningServiceFailed,
                "run() of \(key) threw: \(error)",
                service: key.description,
                hints: shutDown,
                underlyingError: error
            )
        case .returned:
            return GraftError(
                .runningServiceFailed,
                "run() of \(key) returned while the container was \(whileStarting ? "starting" : "running")",
                service: key.description,
                hints: ["a running service's run() returns only once cancelled at shutdown"] + shutDown
            )
        }
    }

    private static let shutDownHint =
        "so the container shut down: every other running service was cancelled and every started service stopped"

    static func synchronousShutdown(_ keys: [ServiceKey]) -> GraftError {
        GraftError(
            .needsAwait,
            "shutdown() cannot stop \(keys.map(\.description).joined(separator: ", ")) without await",
            service: keys.first?.description,
            hints: [
                "shut the container down with `try await container.shutdown()`: stop hooks and running services are awaited"
            ]
        )
    }

    /// One error for a shutdown in which stop hooks (and maybe disposals) failed.
    static func shutdownFailure(stops: [GraftError], disposals: [GraftError]) -> GraftError? {
        guard !stops.isEmpty else { return Scope.failure(disposals, closing: "the container") }
        let count = stops.count == 1 ? "1 stop hook" : "\(stops.count) stop hooks"
        let andDisposals = disposals.isEmpty ? "" : " (and \(disposals.count) disposals)"
        return GraftError(
            .stopFailed,
            "\(count)\(andDisposals) failed while shutting the container down",
            hints: ["every other service was stopped and every instance disposed"],
            problems: stops + disposals
        )
    }
}
