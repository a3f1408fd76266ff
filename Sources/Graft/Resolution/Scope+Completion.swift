/// One instance's completion step, waiting in the scope that made the instance until the scope's
/// owner runs the step (see ``Scope/complete()``).
struct PendingCompletion: Sendable {
    let service: ServiceKey
    let run: @Sendable () async throws -> Void
}

extension Scope {
    /// Runs the scope's completion step: the ``Completable/complete()`` (or `onComplete` closure)
    /// of each instance this scope made whose registration has one, newest first.
    ///
    /// Call it when the scope's work succeeded and before you report success: after a request's
    /// handler returns and before its response is sent. GraftHummingbird and GraftVapor call it
    /// for you, and so does the async ``Container/withScope(_:)-5pa5h`` when its body returns; call it
    /// yourself for a scope you run by hand:
    ///
    /// ```swift
    /// let scope = container.makeScope()
    /// try await scope.resolve(UnitOfWork.self).insert(order)
    /// try await scope.complete()     // COMMIT; a failure is thrown here, before the answer
    /// try await scope.close()        // dispose: release the connection
    /// ```
    ///
    /// Each instance completes at most once: a second call runs only the steps of instances made
    /// since the first. The step stops at the first instance that throws; the scope stays open,
    /// and closing it disposes every instance as usual.
    ///
    /// - Throws: ``GraftError`` with code ``GraftError/Code/completionFailed``, naming the
    ///   service whose step threw, with the error it threw as its `underlyingError`; or
    ///   ``GraftError/Code/closed`` when the scope is closed.
    public func complete() async throws(GraftError) {
        // Taken out of the list before any runs, so two calls never run one step twice; a step
        // enlisted meanwhile is run by a later call.
        let taken = try withState { state throws(GraftError) -> [PendingCompletion] in
            guard !isClosed else { throw Self.closedBeforeCompleting }
            defer { state.completions = [] }
            return state.completions
        }
        for (index, step) in taken.enumerated().reversed() {
            do {
                try await step.run()
            } catch {
                throw GraftError(
                    .completionFailed,
                    "complete() of \(step.service) threw: \(error)",
                    service: step.service.description,
                    hints: [Self.notRun(index)],
                    underlyingError: error
                )
            }
        }
    }

    /// Marks the scope's work failed: its completion step will not run, and closing it with the
    /// step not run is what was meant, not a mistake to report.
    func markFailed() {
        withState { $0.failed = true }
    }

    /// Whether the scope's work failed (``markFailed()``).
    var hasFailed: Bool {
        withState { $0.failed }
    }

    /// Keeps the completion step of `instance`, just made here, until the scope's owner runs it.
    ///
    /// - Throws: ``GraftError`` with code ``GraftError/Code/scopedFromRoot`` when the instance
    ///   was made outside any scope, where no completion step could complete it; with code
    ///   ``GraftError/Code/closed`` when the scope closed meanwhile.
    func enlist(_ step: CompletionStep, of instance: any Sendable, key: ServiceKey) throws(GraftError) {
        guard !isRoot else {
            // A `Completable` made outside any scope (a singleton) was not asked to complete.
            if step.isImplied { return }
            throw Self.madeOutsideAScope(key, step)
        }
        let pending = PendingCompletion(service: key) { try await step.complete(instance) }
        try withState { state throws(GraftError) in
            guard !isClosed else { throw Self.closedBeforeCompleting }
            state.completions.append(pending)
        }
    }

    /// The services whose completion step has not run: what closing the scope now would leave
    /// uncommitted.
    var servicesNotCompleted: [ServiceKey] {
        withState { state in state.completions.map(\.service) }
    }

    /// What the scope holds that closing it would end, newest first: each service it would
    /// dispose (a leased connection among them), then each whose completion step has not run.
    /// For messages about a scope that overran, such as a request past its deadline.
    public var servicesHeld: [String] {
        withState { state in
            state.disposables.reversed().map(\.key.description)
                + state.completions.reversed().map { "\($0.service) (not completed)" }
        }
    }

    private static func madeOutsideAScope(_ key: ServiceKey, _ step: CompletionStep) -> GraftError {
        GraftError(
            .scopedFromRoot,
            "\(key) has a completion step and can only be made in a scope",
            service: key.description,
            hints: [
                "resolve it from a scope (a request's scope, or container.makeScope()), "
                    + "then run the step with try await scope.complete()",
                "the completion step was added at \(step.source)",
            ]
        )
    }

    private static let closedBeforeCompleting = GraftError(
        .closed,
        "the scope is closed: its completion step can no longer run",
        hints: ["run try await scope.complete() before try await scope.close()"]
    )

    /// What was left undone when a step failed with `older` steps still to run.
    private static func notRun(_ older: Int) -> String {
        let steps =
            switch older {
            case 0: "the scope's work was not completed; its dispose() still runs"
            case 1: "1 older completion step did not run; every dispose() still runs"
            default: "\(older) older completion steps did not run; every dispose() still runs"
            }
        return steps + " when the scope closes"
    }
}
