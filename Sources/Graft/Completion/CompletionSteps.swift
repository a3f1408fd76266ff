/// The completion steps of the instances one scope made, kept as a scoped service of its own.
///
/// ``ContainerBuilder/onComplete(_:name:fileID:line:_:)`` registers it and, through an activation
/// hook, enlists each new instance of the service it names in its scope's list;
/// ``Scope/complete()`` takes the list and runs it, newest first.
final class CompletionSteps: Sendable {
    /// One instance's step, with the service it completes, for messages.
    private struct Step: Sendable {
        let service: String
        let run: @Sendable () async throws -> Void
    }

    private let steps = Locked<[Step]>([])

    /// The list of the scope `resolver` resolves in, for an instance of `service` just made.
    ///
    /// - Throws: ``GraftError`` with code ``GraftError/Code/scopedFromRoot`` when the instance
    ///   was made outside any scope, where no completion step could complete it.
    static func of(
        _ resolver: any Resolver,
        for service: String,
        addedAt source: String
    ) throws(GraftError)
        -> CompletionSteps
    {
        do {
            return try resolver.resolve(CompletionSteps.self, name: nil)
        } catch  where error.code == .scopedFromRoot {
            throw GraftError(
                .scopedFromRoot,
                "\(service) has a completion step and can only be made in a scope",
                service: service,
                hints: [
                    "resolve it from a scope (a request's scope, or container.makeScope()), "
                        + "then run the step with try await scope.complete()",
                    "the completion step was added at \(source)",
                ]
            )
        }
    }

    /// Adds the step of an instance just made.
    func enlist(_ service: String, _ run: @escaping @Sendable () async throws -> Void) {
        steps.withLock { $0.append(Step(service: service, run: run)) }
    }

    /// Runs the steps enlisted so far, newest first, each once; stops at the first that throws.
    ///
    /// The steps are taken out of the list before any runs, so two calls never run one step
    /// twice; a step enlisted later is run by a later call.
    func run() async throws(GraftError) {
        let taken = steps.withLock { steps in
            defer { steps = [] }
            return steps
        }
        for (index, step) in taken.enumerated().reversed() {
            do {
                try await step.run()
            } catch {
                throw GraftError(
                    .completionFailed,
                    "complete() of \(step.service) threw: \(error)",
                    service: step.service,
                    hints: [Self.notRun(index)],
                    underlyingError: error
                )
            }
        }
    }

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
