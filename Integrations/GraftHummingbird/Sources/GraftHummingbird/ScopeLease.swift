import Graft
import Logging
import Synchronization

/// Closes a request's scope exactly once, from whichever path gets there first: the body
/// writer, the error path, or, when the response was dropped unwritten, this object's end.
final class ScopeLease: Sendable {
    private let scope: Scope
    private let logger: Logger
    private let closed = Atomic(false)

    init(_ scope: Scope, reporter logger: Logger) {
        self.scope = scope
        self.logger = logger
    }

    /// Marks the request's ``RequestOutcome`` failed, if one is registered, then closes.
    func fail() async {
        if !closed.load(ordering: .acquiring), let outcome = try? await scope.resolve(RequestOutcome.self) {
            outcome.markFailed()
        }
        await close()
    }

    func close() async {
        guard closed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        await Self.close(scope, logger)
    }

    private static func close(_ scope: Scope, _ logger: Logger) async {
        do {
            try await scope.close()
        } catch {
            // The response is already on its way: the failure can only be reported.
            logger.error("\(error)")
        }
    }

    deinit {
        guard !closed.load(ordering: .acquiring) else { return }
        // Nobody wrote the response, so nothing awaits this close; the scope still ends.
        let (scope, logger) = (scope, logger)
        Task { await Self.close(scope, logger) }
    }
}
