import Graft
import Testing

/// A unit of work: commits in the completion step, releases in `dispose()`.
private final class Ledger: Completable, AsyncDisposable {
    let name: String
    let log: EventLog
    let failsToCommit: Bool

    init(_ name: String, log: EventLog, failsToCommit: Bool = false) {
        self.name = name
        self.log = log
        self.failsToCommit = failsToCommit
    }

    func complete() async throws {
        guard !failsToCommit else { throw CommitRefused() }
        log.append("commit \(name)")
    }

    func dispose() async { log.append("dispose \(name)") }
}

private struct CommitRefused: Error, CustomStringConvertible {
    var description: String { "duplicate key value violates unique constraint \"orders_pkey\"" }
}

private struct Journal: Sendable {
    let log: EventLog
}

/// A scope's completion step: commit before answering, dispose after.
@Suite struct ScopeCompletionStepTests {
    let log = EventLog()

    private func container(failing: String? = nil) throws -> Container {
        var builder = ContainerBuilder()
        builder.register(Ledger.self, name: "orders", lifetime: .scoped) { [log] _ in
            Ledger("orders", log: log, failsToCommit: failing == "orders")
        }
        builder.onComplete(Ledger.self, name: "orders")
        builder.register(Ledger.self, name: "stock", lifetime: .scoped) { [log] _ in
            Ledger("stock", log: log, failsToCommit: failing == "stock")
        }
        builder.onComplete(Ledger.self, name: "stock")
        builder.register(Journal.self, lifetime: .transient) { [log] _ in Journal(log: log) }
        builder.onComplete(Journal.self) { journal in journal.log.append("flush journal") }
        return try builder.build()
    }

    @Test func completeRunsTheStepOfEachInstanceTheScopeMadeNewestFirstOnceBeforeDisposal() async throws {
        let scope = try container().makeScope()
        _ = try await scope.resolve(Ledger.self, name: "orders")
        _ = try await scope.resolve(Ledger.self, name: "stock")
        _ = try await scope.resolve(Ledger.self, name: "orders")  // the same instance: completed once
        _ = try await scope.resolve(Journal.self)
        try await scope.complete()
        try await scope.complete()  // nothing new was made: nothing runs again
        try await scope.close()
        #expect(
            log.entries == [
                "flush journal", "commit stock", "commit orders", "dispose stock", "dispose orders",
            ]
        )
    }

    @Test func aStepThatThrowsStopsTheStepWithAnErrorNamingTheService() async throws {
        let scope = try container(failing: "stock").makeScope()
        _ = try await scope.resolve(Ledger.self, name: "orders")
        _ = try await scope.resolve(Ledger.self, name: "stock")
        let error = await #expect(throws: GraftError.self) { try await scope.complete() }
        #expect(error?.code == .completionFailed)
        #expect(error?.service == "Ledger[\"stock\"]")
        #expect(error?.underlyingError is CommitRefused)
        #expect(
            error?.description == """
                Graft: complete() of Ledger["stock"] threw: duplicate key value violates unique constraint "orders_pkey"
                  1 older completion step did not run; every dispose() still runs when the scope closes
                """
        )
        try await scope.close()
        #expect(log.entries == ["dispose stock", "dispose orders"])  // nothing committed
    }

    @Test func aScopeClosedWithoutItsCompletionStepCommitsNothing() async throws {
        let scope = try container().makeScope()
        _ = try await scope.resolve(Ledger.self, name: "orders")
        try await scope.close()
        #expect(log.entries == ["dispose orders"])
    }

    @Test func aScopeThatMadeNothingWithAStepMakesNothingToCompleteIt() async throws {
        let made = CreationNames()
        var builder = ContainerBuilder()
        builder.addObserver(made)
        builder.register(Ledger.self, lifetime: .scoped) { [log] _ in Ledger("orders", log: log) }
        builder.onComplete(Ledger.self)
        builder.register(Journal.self, lifetime: .scoped) { [log] _ in Journal(log: log) }
        let scope = try await builder.build().makeScope()
        _ = try await scope.resolve(Journal.self)
        try await scope.complete()
        #expect(made.names.withLock { $0 } == ["Journal"])  // no list of steps made for nothing
        _ = try await scope.resolve(Ledger.self)
        try await scope.complete()
        try await scope.close()
        #expect(log.entries == ["commit orders", "dispose orders"])
    }

    @Test func aContainerWithoutCompletionStepsCompletesNothingAndThrowsNothing() async throws {
        var builder = ContainerBuilder()
        builder.register(Journal.self, lifetime: .scoped) { [log] _ in Journal(log: log) }
        let scope = try await builder.build().makeScope()
        _ = try await scope.resolve(Journal.self)
        try await scope.complete()
        #expect(log.entries.isEmpty)
    }

    @Test func aServiceWithACompletionStepMadeOutsideAScopeSaysWhereToMakeIt() async throws {
        let container = try container()
        let error = await #expect(throws: GraftError.self) { try await container.resolve(Journal.self) }
        #expect(error?.code == .scopedFromRoot)
        #expect(
            error?.description == """
                Graft: Journal has a completion step and can only be made in a scope
                  resolve it from a scope (a request's scope, or container.makeScope()), then run the step with try await scope.complete()
                  the completion step was added at GraftTests/ScopeCompletionStepTests.swift:47
                """
        )
    }

    @Test func aCompletionStepForAnUnregisteredServiceIsABuildProblem() {
        var builder = ContainerBuilder()
        builder.onComplete(Journal.self) { _ in }
        let error = #expect(throws: GraftError.self) { try builder.build() }
        #expect(error?.problems.first?.summary == "onComplete for Journal, which is not registered before it")
    }
}

/// `withScope` runs the completion step itself: no documented path drops the work it commits.
@Suite struct WithScopeCompletesTests {
    let log = EventLog()

    private func container() throws -> Container {
        var builder = ContainerBuilder()
        builder.register(Ledger.self, lifetime: .scoped) { [log] _ in Ledger("orders", log: log) }
        builder.onComplete(Ledger.self)
        return try builder.build()
    }

    @Test func theAsyncFormCompletesWhenItsBodyReturnsThenDisposes() async throws {
        try await container().withScope { scope in _ = try await scope.resolve(Ledger.self) }
        #expect(log.entries == ["commit orders", "dispose orders"])
    }

    @Test func theAsyncFormCompletesNothingWhenItsBodyThrows() async throws {
        let container = try container()
        await #expect(throws: CommitRefused.self) {
            try await container.withScope { scope in
                _ = try await scope.resolve(Ledger.self)
                throw CommitRefused()
            }
        }
        #expect(log.entries == ["dispose orders"])
    }

    @Test func theSynchronousFormRefusesWorkItCannotCompleteAndSaysWhichFormCan() throws {
        let container = try container()
        let error = #expect(throws: GraftError.self) {
            try container.withScope { scope in _ = try scope.resolve(Ledger.self) }
        }
        #expect(error?.code == .completionFailed)
        #expect(
            error?.description == """
                Graft: withScope made Ledger, whose completion step a synchronous withScope cannot run
                  use the async form, which completes when the body returns: try await container.withScope { scope in … }
                  nothing was completed, and the scope is closed
                """
        )
    }

    @Test func completingAClosedScopeSaysWhenTheStepRuns() async throws {
        let scope = try container().makeScope()
        try await scope.close()
        let error = await #expect(throws: GraftError.self) { try await scope.complete() }
        #expect(error?.code == .closed)
        #expect(
            error?.description == """
                Graft: the scope is closed: its completion step can no longer run
                  run try await scope.complete() before try await scope.close()
                """
        )
    }
}

/// Records the name of each service a container makes.
private final class CreationNames: ContainerObserver {
    let names = Guarded([String]())

    func didCreate(_ event: CreationEvent) { names.withLock { $0.append(event.service) } }
}

/// Work whose completion step never ran is not dropped silently: the close reports it.
@Suite struct ScopeClosedWithoutCompletingTests {
    let log = EventLog()
    let reported = EventLog()

    private func container() throws -> Container {
        var builder = ContainerBuilder()
        builder.unhandledErrorHandler = { [reported] in reported.append("\($0)") }
        builder.register(Ledger.self, lifetime: .scoped) { [log] _ in Ledger("orders", log: log) }
        builder.onComplete(Ledger.self)
        return try builder.build()
    }

    @Test func closingAScopeWhoseStepNeverRanReportsTheWorkNotCommitted() async throws {
        let scope = try container().makeScope()
        _ = try await scope.resolve(Ledger.self)
        try await scope.close()
        #expect(log.entries == ["dispose orders"])
        #expect(
            reported.entries == [
                """
                Graft: a scope closed, but the completion step of Ledger never ran: its work was not committed
                  run try await scope.complete() before closing the scope, or use try await container.withScope { … }, which completes when its body returns
                  a scope whose work failed says so first (RequestScopeLease.fail() in a web framework integration) and closes without this report
                """
            ]
        )
    }

    @Test func aChildScopeClosedByItsParentReportsItsOwnWorkToo() async throws {
        let parent = try container().makeScope()
        let child = parent.makeScope()
        _ = try await child.resolve(Ledger.self)
        try await parent.close()
        #expect(child.isClosed)
        #expect(reported.entries.count == 1)
        #expect(reported.entries.first?.contains("the completion step of Ledger never ran") == true)
    }

    @Test func aChildScopeLetGoWithoutClosingReportsItsWorkWhenItGoes() async throws {
        let parent = try container().makeScope()
        _ = try await parent.makeScope().resolve(Ledger.self)  // the child is let go here
        #expect(reported.entries.count == 1)
        #expect(reported.entries.first?.contains("the completion step of Ledger never ran") == true)
        try await parent.close()
        #expect(log.entries == ["dispose orders"])  // the parent disposes what the child made
        #expect(reported.entries.count == 1)
    }

    @Test func aCompletedScopeAndAFailedOneCloseWithoutAReport() async throws {
        let container = try container()
        let completed = container.makeScope()
        _ = try await completed.resolve(Ledger.self)
        try await completed.complete()
        try await completed.close()
        let failed = try RequestScopes(container, values: Int.self).open(providing: 1) { _ in }
        _ = try await failed.scope.resolve(Ledger.self)
        await failed.fail()
        await #expect(throws: CommitRefused.self) {
            try await container.withScope { scope in
                _ = try await scope.resolve(Ledger.self)
                throw CommitRefused()
            }
        }
        #expect(reported.entries.isEmpty)
        #expect(log.entries == ["commit orders", "dispose orders", "dispose orders", "dispose orders"])
    }
}

/// Records what it is told of work left uncommitted: the services, the scope, the message.
private struct UncommittedWorkRecorder: ContainerObserver {
    let log: EventLog

    func scopeDidCloseWithoutCompleting(_ event: NotCompletedEvent) {
        log.append("\(event.services) in \(event.scope)")
        log.append(event.error.description)
    }
}

/// A scope closed holding work whose completion step never ran is told to observers too, after
/// the unhandled-error handler, with the same message.
@Suite struct UncommittedWorkIsReportedToObservers {
    let log = EventLog()

    private func container() throws -> Container {
        var builder = ContainerBuilder()
        builder.unhandledErrorHandler = { [log] in log.append("handler: \($0.code)") }
        builder.addObserver(UncommittedWorkRecorder(log: log))
        builder.register(Ledger.self, lifetime: .scoped) { [log] _ in Ledger("orders", log: log) }
        builder.register(Ledger.self, name: "audit", lifetime: .scoped) { [log] _ in Ledger("audit", log: log) }
        builder.onComplete(Ledger.self)
        builder.onComplete(Ledger.self, name: "audit")
        return try builder.build()
    }

    @Test func observersAreToldTheServicesTheScopeAndTheMessage() async throws {
        let scope = try container().makeScope()
        _ = try await scope.resolve(Ledger.self)
        _ = try await scope.resolve(Ledger.self, name: "audit")
        try await scope.close()
        #expect(
            log.entries == [
                "handler: not completed",
                #"["Ledger", "Ledger[\"audit\"]"] in \#(ObjectIdentifier(scope))"#,
                """
                Graft: a scope closed, but the completion steps of Ledger, Ledger["audit"] never ran: its work was not committed
                  run try await scope.complete() before closing the scope, or use try await container.withScope { … }, which completes when its body returns
                  a scope whose work failed says so first (RequestScopeLease.fail() in a web framework integration) and closes without this report
                """,
                "dispose audit",
                "dispose orders",
            ]
        )
    }

    @Test func aCompletedScopeTellsNoObserver() async throws {
        try await container().withScope { scope in _ = try await scope.resolve(Ledger.self) }
        #expect(log.entries == ["commit orders", "dispose orders"])
    }

    @Test func anObserverCanBeTestedWithAnEventOfItsOwn() {
        let error = GraftError(.notCompleted, "a scope closed, but the completion step of Ledger never ran")
        UncommittedWorkRecorder(log: log).scopeDidCloseWithoutCompleting(
            NotCompletedEvent(scope: ObjectIdentifier(log), services: ["Ledger"], error: error)
        )
        #expect(log.entries == [#"["Ledger"] in \#(ObjectIdentifier(log))"#, "Graft: \(error.summary)"])
    }
}

/// A `Completable` needs no second line: its registration implies its completion step.
@Suite struct CompletableRegistrationTests {
    let log = EventLog()

    /// Commits in `complete()`; has nothing to release, so keeps the default `dispose()`.
    private final class Journal: Completable {
        let log: EventLog
        init(log: EventLog) { self.log = log }
        func complete() async throws { log.append("flush") }
    }

    @Test func aCompletableCompletesInItsScopeWithNoOnComplete() async throws {
        var builder = ContainerBuilder()
        builder.register(Ledger.self, lifetime: .scoped) { [log] _ in Ledger("orders", log: log) }
        builder.register(Journal.self, lifetime: .scoped) { [log] _ in Journal(log: log) }
        try await builder.build().withScope { scope in
            _ = try await scope.resolve(Ledger.self)
            _ = try await scope.resolve(Journal.self)
        }
        #expect(log.entries == ["flush", "commit orders", "dispose orders"])
    }

    @Test func anExplicitStepReplacesTheImpliedOneAndRunsOnce() async throws {
        var builder = ContainerBuilder()
        builder.register(Ledger.self, lifetime: .scoped) { [log] _ in Ledger("orders", log: log) }
        builder.onComplete(Ledger.self) { [log] _ in log.append("custom commit") }
        builder.onComplete(Ledger.self)  // the Completable form, written out as before: once
        try await builder.build().withScope { scope in _ = try await scope.resolve(Ledger.self) }
        #expect(log.entries == ["custom commit", "commit orders", "dispose orders"])
    }

    @Test func aCompletableSingletonIsNotCompletedAndMakesNoError() async throws {
        var builder = ContainerBuilder()
        builder.register(Ledger.self, lifetime: .singleton) { [log] _ in Ledger("settings", log: log) }
        let container = try await builder.build()
        _ = try await container.resolve(Ledger.self)
        try await container.withScope { scope in _ = try await scope.resolve(Ledger.self) }
        try await container.shutdown()
        #expect(log.entries == ["dispose settings"])
    }
}

/// What a scope would end if it closed now: for the message of a request that overran.
@Suite struct ScopeHoldingsTests {
    @Test func aScopeNamesWhatItWouldDisposeNewestFirstThenWhatItHasNotCompleted() async throws {
        let log = EventLog()
        var builder = ContainerBuilder()
        builder.register(Ledger.self, name: "orders", lifetime: .scoped) { _ in Ledger("orders", log: log) }
        builder.onComplete(Ledger.self, name: "orders")
        builder.register(Ledger.self, name: "stock", lifetime: .scoped) { _ in Ledger("stock", log: log) }
        let scope = try await builder.build().makeScope()
        #expect(scope.servicesHeld.isEmpty)
        _ = try await scope.resolve(Ledger.self, name: "orders")
        _ = try await scope.resolve(Ledger.self, name: "stock")
        #expect(
            scope.servicesHeld == [
                #"Ledger["stock"]"#, #"Ledger["orders"]"#,
                #"Ledger["stock"] (not completed)"#, #"Ledger["orders"] (not completed)"#,
            ]
        )
        try await scope.complete()
        #expect(scope.servicesHeld == [#"Ledger["stock"]"#, #"Ledger["orders"]"#])
        try await scope.close()
        #expect(scope.servicesHeld.isEmpty)
    }
}
