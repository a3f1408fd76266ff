import Graft
import Testing

/// A request's unit of work: disposal reads how the request ended, as a transaction's rollback does.
private final class UnitOfWork: AsyncDisposable {
    let outcome: RequestOutcome
    let log: EventLog

    init(outcome: RequestOutcome, log: EventLog) {
        self.outcome = outcome
        self.log = log
    }

    func dispose() async {
        log.append(outcome.failed ? "rollback" : "keep")
    }
}

private struct Audit: Sendable {
    let outcome: RequestOutcome
}

private struct HandlerFailed: Error {}

private struct RequestID: Sendable {
    let value: String
}

/// A request's outcome is its scope's own state: nobody registers it, each scope has its own.
@Suite(.timeLimit(.minutes(1))) struct RequestOutcomeTests {
    let log = EventLog()

    private func container() throws -> Container {
        var builder = ContainerBuilder()
        builder.register(EventLog.self, instance: log)
        builder.register(UnitOfWork.self, lifetime: .scoped, using: UnitOfWork.init(outcome:log:))
        return try builder.build()
    }

    @Test func aScopedServiceReadsItsRequestFailedWhenTheLeaseFails() async throws {
        let scopes = RequestScopes(try container(), values: RequestID.self)
        let failed = try scopes.open(providing: RequestID(value: "1")) { _ in }
        let succeeded = try scopes.open(providing: RequestID(value: "2")) { _ in }
        _ = try await failed.scope.resolve(UnitOfWork.self)
        _ = try await succeeded.scope.resolve(UnitOfWork.self)

        await failed.fail()
        try await succeeded.complete()
        await succeeded.close()

        #expect(log.entries == ["rollback", "keep"])
    }

    @Test func anAsyncWithScopeWhoseBodyThrowsFailsItsOutcome() async throws {
        let container = try container()

        await #expect(throws: HandlerFailed.self) {
            try await container.withScope { scope in
                _ = try await scope.resolve(UnitOfWork.self)
                throw HandlerFailed()
            }
        }
        try await container.withScope { scope in _ = try await scope.resolve(UnitOfWork.self) }

        #expect(log.entries == ["rollback", "keep"])
    }

    @Test func aHandlerMarksItsRequestFailedWithoutThrowing() async throws {
        let container = try container()

        try await container.withScope { scope in
            _ = try await scope.resolve(UnitOfWork.self)
            try await scope.resolve(RequestOutcome.self).markFailed()
        }

        #expect(log.entries == ["rollback"])
    }

    @Test func eachScopeHasItsOwnOutcome() throws {
        let container = try container()
        let first = container.makeScope()
        let second = container.makeScope()
        defer {
            try? first.close()
            try? second.close()
        }

        try first.resolve(RequestOutcome.self).markFailed()

        #expect(try first.resolve(RequestOutcome.self).failed)
        #expect(try !second.resolve(RequestOutcome.self).failed)
    }

    @Test func aSingletonThatHoldsTheOutcomeIsACaptiveDependency() {
        var builder = ContainerBuilder()
        builder.register(Audit.self, lifetime: .singleton, using: Audit.init(outcome:))

        let problems = builder.validate()

        #expect(problems.map(\.code) == [.captiveDependency])
        #expect(problems.first?.summary == "captive dependency: Audit (.singleton) depends on RequestOutcome (.scoped)")
        #expect(
            problems.first?.hints == [
                "a .singleton outlives each .scoped instance; RequestOutcome is the state of the scope it is made "
                    + "in, so make Audit .scoped or shorter-lived"
            ]
        )
    }

    @Test func theRootContainerHasNoOutcome() throws {
        let container = try ContainerBuilder().build()

        let error = #expect(throws: GraftError.self) { try container.resolve(RequestOutcome.self) }

        #expect(error?.code == .scopedFromRoot)
        #expect(
            error?.description == """
                Graft: RequestOutcome was resolved from the root container, which is no request
                  resolve it from the request's scope: try await context.resolve(RequestOutcome.self) with GraftHummingbird, try await req.resolve(RequestOutcome.self) with GraftVapor
                """
        )
    }
}
