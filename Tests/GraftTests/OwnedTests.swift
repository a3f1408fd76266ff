import Graft
import Testing

/// What every service of these fixtures writes to: one log per test.
private final class Journal: Sendable {
    let log: EventLog
    let numbers = Guarded(0)
    init(log: EventLog) { self.log = log }

    /// A new number for an instance, so the log tells instances apart.
    func next() -> Int {
        numbers.withLock {
            $0 += 1
            return $0
        }
    }
}

/// A database transaction: `.scoped`, committed in the completion step, rolled back in
/// `dispose()` unless it was committed.
private final class Transaction: Completable, AsyncDisposable {
    let number: Int
    let journal: Journal
    let committed = Guarded(false)

    init(journal: Journal) {
        self.journal = journal
        self.number = journal.next()
    }

    func complete() async throws {
        committed.withLock { $0 = true }
        journal.log.append("commit \(number)")
    }

    func dispose() async {
        journal.log.append(committed.current ? "release \(number)" : "rollback \(number)")
    }
}

/// A synchronously disposable connection: `.scoped`.
private final class Connection: Disposable {
    let number: Int
    let journal: Journal

    init(journal: Journal) {
        self.journal = journal
        self.number = journal.next()
    }

    func dispose() { journal.log.append("close connection \(number)") }
}

/// What handles one message: a transient that needs the unit's transaction and connection.
private final class Handler: Disposable {
    let transaction: Transaction
    let connection: Connection
    let journal: Journal

    init(transaction: Transaction, connection: Connection, journal: Journal) {
        self.transaction = transaction
        self.connection = connection
        self.journal = journal
    }

    func handle(_ message: String) throws {
        guard message != "poison" else { throw Poison() }
        journal.log.append("handle \(message) in \(transaction.number)")
    }

    func dispose() { journal.log.append("dispose handler \(transaction.number)") }
}

private struct Poison: Error, CustomStringConvertible {
    var description: String { "the message cannot be parsed" }
}

/// A singleton that makes one unit per message.
private final class Consumer: Sendable {
    let handlers: Provider<Owned<Handler>>
    init(handlers: Provider<Owned<Handler>>) { self.handlers = handlers }
}

/// A singleton that holds one unit for its whole life.
private final class Worker: Sendable {
    let unit: Owned<Handler>
    init(unit: Owned<Handler>) { self.unit = unit }
}

/// `provider.get()` as synchronous code calls it.
private func getSynchronously<Value>(_ provider: Provider<Value>) throws -> Value {
    try provider.get()
}

/// `owned.dispose()` as synchronous code calls it.
private func disposeSynchronously<Value>(_ owned: Owned<Value>) throws {
    try owned.dispose()
}

/// The fixtures' wiring; `Transaction` commits in the completion step.
private func unitBuilder(_ journal: Journal) -> ContainerBuilder {
    var builder = ContainerBuilder()
    builder.register(Journal.self, instance: journal)
    builder.register(Transaction.self, lifetime: .scoped, using: Transaction.init(journal:))
    builder.onComplete(Transaction.self)
    builder.register(Connection.self, lifetime: .scoped, using: Connection.init(journal:))
    builder.register(Handler.self, using: Handler.init(transaction:connection:journal:))
    builder.register(Consumer.self, lifetime: .singleton, using: Consumer.init(handlers:))
    return builder
}

/// Resolving `Owned<T>` opens a scope of its own under the one it is resolved from.
@Suite struct OwnedUnitScopeTests {
    private let journal = Journal(log: EventLog())

    @Test func eachResolveIsAFreshScopeWhoseScopedServicesAreItsOwnAndSingletonsAreShared() async throws {
        let container = try await unitBuilder(journal).build()
        let scope = container.makeScope()
        let first = try await scope.resolve(Owned<Handler>.self)
        let second = try await scope.resolve(Owned<Handler>.self)
        let outside = try await scope.resolve(Transaction.self)

        #expect(first.value.transaction !== second.value.transaction)
        #expect(first.value.transaction !== outside)
        #expect(first.value.connection !== second.value.connection)
        #expect(first.value.journal === second.value.journal)
        #expect(first.value.journal === journal)
        try await first.dispose()
        #expect(journal.log.entries == ["dispose handler 1", "close connection 2", "rollback 1"])
        // The scope it came from keeps its own transaction; the other unit is untouched.
        #expect(try await scope.resolve(Transaction.self) === outside)
        #expect(!second.value.journal.log.entries.contains("rollback 3"))
        try await second.dispose()
        try await scope.close()
        #expect(
            journal.log.entries.suffix(4) == ["dispose handler 3", "close connection 4", "rollback 3", "rollback 5"]
        )
    }

    @Test func aUnitResolvedSynchronouslyFromTheRootContainerIsAChildOfTheRoot() throws {
        let container = try unitBuilder(journal).build()
        let unit = try container.resolve(Owned<Connection>.self)
        #expect(unit.value.number == 1)
        try unit.dispose()
        #expect(journal.log.entries == ["close connection 1"])
        try container.shutdown()
        #expect(journal.log.entries == ["close connection 1"])
    }

    @Test func anAsyncResolveOpensAUnitToo() async throws {
        let container = try await unitBuilder(journal).build()
        let unit = try await container.resolve(Owned<Handler>.self)
        try unit.value.handle("order 7")
        try await unit.complete()
        try await unit.dispose()
        #expect(
            journal.log.entries == [
                "handle order 7 in 1", "commit 1", "dispose handler 1", "close connection 2", "release 1",
            ]
        )
    }

    @Test func aUnitOfAnUnregisteredServiceIsNotRegisteredWithTheServiceNamed() throws {
        let container = try ContainerBuilder().build()
        let error = #expect(throws: GraftError.self) { try container.resolve(Owned<Handler>.self) }
        #expect(error?.code == .notRegistered)
        #expect(error?.summary == "no registration for Handler")
    }

    @Test func aUnitCannotBeOpenedUnderAClosedScope() throws {
        let container = try unitBuilder(journal).build()
        let scope = container.makeScope()
        let consumer = try scope.resolve(Provider<Owned<Handler>>.self)
        try scope.close()
        let error = #expect(throws: GraftError.self) { try consumer.get() }
        #expect(error?.code == .closed)
        #expect(journal.log.entries.isEmpty)
    }
}

/// `complete()` runs the unit's completion steps; disposing without it rolls the work back.
@Suite struct OwnedCompletionTests {
    private let journal = Journal(log: EventLog())
    let reported = EventLog()

    private func container() throws -> Container {
        var builder = unitBuilder(journal)
        builder.unhandledErrorHandler = { [reported] in reported.append("\($0)") }
        return try builder.build()
    }

    @Test func completeRunsTheStepsBeforeDisposeDisposes() async throws {
        let unit = try await container().resolve(Owned<Handler>.self)
        try await unit.complete()
        #expect(journal.log.entries == ["commit 1"])
        try await unit.dispose()
        #expect(journal.log.entries == ["commit 1", "dispose handler 1", "close connection 2", "release 1"])
        #expect(reported.entries.isEmpty)
    }

    @Test func disposingWithoutCompletingRollsBackAndReportsNothing() async throws {
        let unit = try await container().resolve(Owned<Handler>.self)
        try await unit.dispose()
        #expect(journal.log.entries == ["dispose handler 1", "close connection 2", "rollback 1"])
        #expect(reported.entries.isEmpty)
    }

    @Test func completingADisposedUnitIsAnError() async throws {
        let unit = try await container().resolve(Owned<Handler>.self)
        try await unit.dispose()
        let error = await #expect(throws: GraftError.self) { try await unit.complete() }
        #expect(error?.code == .closed)
        #expect(
            error?.description == """
                Graft: the unit of work Owned<Handler> is disposed: its completion step can no longer run
                  run try await owned.complete() before owned.dispose()
                """
        )
        #expect(!journal.log.entries.contains("commit 1"))
    }

    @Test func aUnitNeverDisposedIsClosedWithTheScopeItCameFromAndReportedNotCompleted() async throws {
        let scope = try container().makeScope()
        let unit = try await scope.resolve(Owned<Handler>.self)
        try await scope.close()
        #expect(journal.log.entries == ["dispose handler 1", "close connection 2", "rollback 1"])
        #expect(
            reported.entries == [
                """
                Graft: a scope closed, but the completion step of Transaction never ran: its work was not committed
                  run try await scope.complete() before closing the scope, or use try await container.withScope { … }, which completes when its body returns
                  a scope whose work failed says so first (RequestScopeLease.fail() in a web framework integration) and closes without this report
                """
            ]
        )
        try await unit.dispose()  // closed already: nothing happens
        #expect(journal.log.entries.count == 3)
    }

    @Test func aUnitLetGoWithoutDisposingLeavesItsInstancesToTheScopeItCameFrom() async throws {
        let scope = try container().makeScope()
        _ = try await scope.resolve(Owned<Handler>.self)  // let go here
        #expect(reported.entries.count == 1)
        #expect(reported.entries.first?.contains("the completion step of Transaction never ran") == true)
        #expect(journal.log.entries.isEmpty)
        try await scope.close()
        #expect(journal.log.entries == ["dispose handler 1", "close connection 2", "rollback 1"])
    }
}

/// Disposing a unit disposes what was made for it, newest first, once, and never a singleton.
@Suite struct OwnedDisposalTests {
    private let journal = Journal(log: EventLog())

    private final class Counted: Disposable {
        let journal: Journal
        init(journal: Journal) { self.journal = journal }
        func dispose() { journal.log.append("dispose singleton") }
    }

    private final class UsesSingleton: Disposable {
        let counted: Counted
        let connection: Connection
        init(counted: Counted, connection: Connection) {
            self.counted = counted
            self.connection = connection
        }
        func dispose() { connection.journal.log.append("dispose user \(connection.number)") }
    }

    @Test func disposeDisposesNewestFirstExactlyOnceAndNeverASingleton() throws {
        var builder = unitBuilder(journal)
        builder.register(Counted.self, lifetime: .singleton, using: Counted.init(journal:))
        builder.register(UsesSingleton.self, using: UsesSingleton.init(counted:connection:))
        let container = try builder.build()
        let unit = try container.resolve(Owned<UsesSingleton>.self)
        try unit.dispose()
        try unit.dispose()  // a second call does nothing
        #expect(journal.log.entries == ["dispose user 1", "close connection 1"])
        try container.shutdown()
        #expect(journal.log.entries == ["dispose user 1", "close connection 1", "dispose singleton"])
    }

    @Test func asyncDisposeAwaitsAsyncDisposables() async throws {
        let unit = try await unitBuilder(journal).build().resolve(Owned<Handler>.self)
        try await unit.dispose()
        try await unit.dispose()
        #expect(journal.log.entries == ["dispose handler 1", "close connection 2", "rollback 1"])
    }

    @Test func synchronousDisposeReportsTheAsyncDisposableItCannotAwait() throws {
        let unit = try unitBuilder(journal).build().resolve(Owned<Handler>.self)
        let error = #expect(throws: GraftError.self) { try unit.dispose() }
        #expect(error?.code == .disposalFailed)
        #expect(error?.summary == "1 disposal failed while closing the scope")
        #expect(
            error?.problems.map(\.summary) == [
                "Transaction is AsyncDisposable and was not disposed by a synchronous close"
            ]
        )
        #expect(journal.log.entries == ["dispose handler 1", "close connection 2"])
    }

    @Test func aUnitWhoseServiceFailsIsClosedAndNothingIsLeftBehind() throws {
        var builder = unitBuilder(journal)
        builder.register(Failing.self) { r in
            _ = try r.resolve(Connection.self)
            throw Poison()
        }
        let container = try builder.build()
        let scope = container.makeScope()
        let error = #expect(throws: GraftError.self) { try scope.resolve(Owned<Failing>.self) }
        #expect(error?.summary == "factory of Failing threw: the message cannot be parsed")
        #expect(journal.log.entries == ["close connection 1"])
        try scope.close()
        #expect(journal.log.entries == ["close connection 1"])
    }

    private struct Failing: Sendable {}
}

/// A singleton holding `Provider<Owned<T>>` is no captive, and each `get()` is a new unit.
@Suite struct OwnedInASingletonTests {
    private let journal = Journal(log: EventLog())

    @Test func buildAcceptsItAndEachGetIsANewUnit() async throws {
        let container = try await unitBuilder(journal).build()
        let consumer = try await container.resolve(Consumer.self)
        let first = try getSynchronously(consumer.handlers)
        let second = try await consumer.handlers.get()
        #expect(first.value.transaction !== second.value.transaction)
        #expect(first.value.connection.number == 2)
        #expect(second.value.connection.number == 4)
        try await second.dispose()
        try await first.dispose()
        #expect(
            journal.log.entries == [
                "dispose handler 3", "close connection 4", "rollback 3",
                "dispose handler 1", "close connection 2", "rollback 1",
            ]
        )
    }

    @Test func theSameSingletonHoldingTheScopedServiceItselfIsStillCaptive() {
        var builder = unitBuilder(journal)
        builder.register(Holder.self, lifetime: .singleton, using: Holder.init(transactions:))
        let problems = builder.validate()
        #expect(problems.map(\.summary) == ["captive dependency: Holder (.singleton) depends on Transaction (.scoped)"])
    }

    @Test func aSingletonHoldingOwnedItselfGetsOneUnitUnderTheRootClosedAtShutdown() async throws {
        var builder = unitBuilder(journal)
        builder.register(Worker.self, lifetime: .singleton, using: Worker.init(unit:))
        let container = try await builder.build()
        // Made under the root, not under the scope that first asked for the singleton.
        let scope = container.makeScope()
        let worker = try await scope.resolve(Worker.self)
        #expect(try await container.resolve(Worker.self).unit === worker.unit)
        try await scope.close()
        #expect(journal.log.entries.isEmpty)
        try await worker.unit.complete()
        try await container.shutdown()
        #expect(journal.log.entries == ["commit 1", "dispose handler 1", "close connection 2", "release 1"])
    }

    private final class Holder: Sendable {
        let transactions: Provider<Transaction>
        init(transactions: Provider<Transaction>) { self.transactions = transactions }
    }
}

/// `build()` checks the graph behind `Owned<T>`, with the path through its holder.
@Suite struct OwnedValidationTests {
    private final class Mailer: Sendable {
        init(transport: Transport) {}
    }

    private final class Transport: Sendable {}

    private final class Notifier: Sendable {
        let mailers: Provider<Owned<Mailer>>
        init(mailers: Provider<Owned<Mailer>>) { self.mailers = mailers }
    }

    private final class Loop: Sendable {
        init(unit: Owned<Back>) {}
    }

    private final class Back: Sendable {
        init(loop: Loop) {}
    }

    @Test func aMissingDependencyOfTheServiceIsReportedWithThePathThroughItsHolder() {
        var builder = ContainerBuilder()
        let line = #line + 1
        builder.register(Mailer.self, using: Mailer.init(transport:))
        builder.register(Notifier.self, lifetime: .singleton, using: Notifier.init(mailers:))
        let error = #expect(throws: GraftError.self) { try builder.build() }
        #expect(
            error?.description == """
                Graft: build() found 1 problem
                  1. no registration for Transport, which Mailer needs
                     resolving: Notifier → Owned<Mailer> → Mailer → Transport
                     register it, autowiring its initializer: builder.register(Transport.self, using: Transport.init), or as a value: builder.register(Transport.self, instance: Transport(...))
                     each Owned<Mailer> that Notifier asks for resolves Mailer in a scope of its own
                     Mailer was registered at GraftTests/OwnedTests.swift:\(line)
                """
        )
    }

    @Test func aMissingServiceIsReportedAsItsHoldersProblem() {
        var builder = ContainerBuilder()
        let line = #line + 1
        builder.register(Notifier.self, lifetime: .singleton, using: Notifier.init(mailers:))
        let error = #expect(throws: GraftError.self) { try builder.build() }
        #expect(
            error?.description == """
                Graft: build() found 1 problem
                  1. no registration for Mailer, which Notifier needs
                     resolving: Notifier → Owned<Mailer> → Mailer
                     register it, autowiring its initializer: builder.register(Mailer.self, using: Mailer.init), or as a value: builder.register(Mailer.self, instance: Mailer(...))
                     each Owned<Mailer> that Notifier asks for resolves Mailer in a scope of its own
                     Notifier was registered at GraftTests/OwnedTests.swift:\(line)
                """
        )
    }

    @Test func aServiceThatNeedsItsHolderThroughOwnedIsACycle() {
        var builder = ContainerBuilder()
        builder.register(Loop.self, using: Loop.init(unit:))
        builder.register(Back.self, using: Back.init(loop:))
        let problems = builder.validate()
        #expect(problems.map(\.code) == [.cycle])
        #expect(problems.first?.summary == "dependency cycle: Loop → Owned<Back> → Back → Loop")
    }

    @Test func aServiceThatNeedsAwaitIsOpenedByTheAsyncGetOnly() async throws {
        var builder = ContainerBuilder()
        builder.register(Transport.self) { _ async in Transport() }
        builder.register(Mailer.self, using: Mailer.init(transport:))
        builder.register(Notifier.self, lifetime: .singleton, using: Notifier.init(mailers:))
        let container = try await builder.build()
        let notifier = try await container.resolve(Notifier.self)
        let error = #expect(throws: GraftError.self) { try getSynchronously(notifier.mailers) }
        #expect(error?.code == .needsAwait)
        #expect(
            error?.description == """
                Graft: Owned<Mailer> needs await to be created: it depends on Transport, whose factory is async
                  this runs inside a task, but Swift picked the synchronous get()
                  in an async function, write `try await provider.get()` (a synchronous function or closure must become async first)
                  in top-level code (main.swift) Swift picks the synchronous overload even after `await`: move the code into an async function or an `@main` type's `static func main() async`
                """
        )
        let unit = try await notifier.mailers.get()
        try await unit.dispose()
    }
}

/// The loop a queue consumer writes: one unit per message, committed before the message is
/// acknowledged; a message that fails is rolled back (disposed without completing) and rejected.
@Suite struct OwnedConsumerLoopTests {
    private let journal = Journal(log: EventLog())

    @Test func eachMessageIsAUnitCommittedBeforeItIsAcknowledged() async throws {
        let container = try await unitBuilder(journal).build()
        let consumer = try await container.resolve(Consumer.self)
        for message in ["order 1", "poison", "order 2"] {
            let unit = try await consumer.handlers.get()
            do {
                try unit.value.handle(message)
                try await unit.complete()
            } catch {
                try await unit.dispose()
                journal.log.append("reject \(message): \(error)")
                continue
            }
            journal.log.append("ack \(message)")
            try await unit.dispose()
        }
        try await container.shutdown()
        #expect(
            journal.log.entries == [
                "handle order 1 in 1", "commit 1", "ack order 1",
                "dispose handler 1", "close connection 2", "release 1",
                "dispose handler 3", "close connection 4", "rollback 3",
                "reject poison: the message cannot be parsed",
                "handle order 2 in 5", "commit 5", "ack order 2",
                "dispose handler 5", "close connection 6", "release 5",
            ]
        )
    }
}

/// Many tasks opening units through one provider: each unit its own, each disposed once.
@Suite struct OwnedContentionTests {
    private final class Tally: Sendable {
        let disposals = Guarded([Int: Int]())
        let numbers = Guarded(0)
        func next() -> Int {
            numbers.withLock {
                $0 += 1
                return $0
            }
        }
    }

    private final class Resource: Disposable {
        let number: Int
        let tally: Tally
        init(tally: Tally) {
            self.tally = tally
            self.number = tally.next()
        }
        func dispose() { tally.disposals.withLock { $0[number, default: 0] += 1 } }
    }

    private final class Job: Sendable {
        let first: Resource
        let second: Resource
        init(first: Resource, second: Resource) {
            self.first = first
            self.second = second
        }
    }

    private final class Runner: Sendable {
        let jobs: Provider<Owned<Job>>
        init(jobs: Provider<Owned<Job>>) { self.jobs = jobs }
    }

    @Test(.timeLimit(.minutes(1)))
    func eightTasksOpeningTwoHundredUnitsEachShareNoScopedInstance() async throws {
        let tally = Tally()
        var builder = ContainerBuilder()
        builder.register(Tally.self, instance: tally)
        builder.register(Resource.self, lifetime: .scoped, using: Resource.init(tally:))
        builder.register(Job.self, using: Job.init(first:second:))
        builder.register(Runner.self, lifetime: .singleton, using: Runner.init(jobs:))
        let container = try await builder.build()
        let runner = try await container.resolve(Runner.self)
        let numbers = try await withThrowingTaskGroup(of: [Int].self) { group in
            for task in 0..<8 {
                group.addTask {
                    var numbers: [Int] = []
                    for index in 0..<200 {
                        let unit = try await runner.jobs.get()
                        // Within a unit, its scoped resource is one instance.
                        #expect(unit.value.first === unit.value.second)
                        numbers.append(unit.value.first.number)
                        if (task + index).isMultiple(of: 2) {
                            try disposeSynchronously(unit)
                        } else {
                            try await unit.dispose()
                        }
                    }
                    return numbers
                }
            }
            return try await group.reduce(into: [Int]()) { $0 += $1 }
        }
        #expect(numbers.count == 1_600)
        #expect(Set(numbers).count == 1_600)  // no unit shares a scoped instance with another
        try await container.shutdown()
        let disposals = tally.disposals.current
        #expect(disposals.count == 1_600)
        #expect(disposals.values.allSatisfy { $0 == 1 })
    }
}

/// `Owned<T>` inside the other deferred forms: `Lazy` opens one unit; `Factory` one per call, passing
/// its arguments to `T`.
@Suite struct OwnedInOtherFormsTests {
    private let journal = Journal(log: EventLog())

    private final class OnDemand: Sendable {
        let unit: Lazy<Owned<Connection>>
        init(unit: Lazy<Owned<Connection>>) { self.unit = unit }
    }

    /// A job that takes its lap as a runtime argument, and the unit's connection.
    private final class LapJob: Sendable {
        let lap: Int
        let connection: Connection
        init(lap: Int, connection: Connection) {
            self.lap = lap
            self.connection = connection
        }
    }

    private final class PerLap: Sendable {
        let units: Factory<Owned<LapJob>, Int>
        init(units: Factory<Owned<LapJob>, Int>) { self.units = units }
    }

    private final class ByName: Sendable {
        init(units: Factory<Owned<LapJob>, String>) {}
    }

    private final class Whenever: Sendable {
        init(units: Provider<Owned<LapJob>>) {}
    }

    @Test func lazyOpensOneUnitOnFirstUse() throws {
        var builder = unitBuilder(journal)
        builder.register(OnDemand.self, lifetime: .singleton, using: OnDemand.init(unit:))
        let container = try builder.build()
        let onDemand = try container.resolve(OnDemand.self)
        #expect(!onDemand.unit.isCreated)
        let unit = try onDemand.unit.get()
        #expect(try onDemand.unit.get() === unit)
        try unit.dispose()
        #expect(journal.log.entries == ["close connection 1"])
    }

    @Test func aFactoryOfOwnedOpensAUnitPerCallWithItsArguments() async throws {
        var builder = unitBuilder(journal)
        builder.register(LapJob.self, arguments: Int.self, using: LapJob.init(lap:connection:))
        builder.register(PerLap.self, lifetime: .singleton, using: PerLap.init(units:))
        let container = try await builder.build()
        let perLap = try await container.resolve(PerLap.self)

        let first = try await perLap.units.make(7)
        let second = try await perLap.units.make(8)

        #expect(first.value.lap == 7)
        #expect(second.value.lap == 8)
        #expect(first.value.connection !== second.value.connection)
        try await second.dispose()
        try await first.dispose()
        #expect(journal.log.entries == ["close connection 2", "close connection 1"])
    }

    @Test func aFactoryOfOwnedWithOtherArgumentsIsReportedByBuild() {
        var builder = unitBuilder(journal)
        builder.register(LapJob.self, arguments: Int.self, using: LapJob.init(lap:connection:))
        let line = #line + 1
        builder.register(ByName.self, using: ByName.init(units:))
        let error = #expect(throws: GraftError.self) { try builder.build() }
        #expect(
            error?.description == """
                Graft: build() found 1 problem
                  1. ByName injects Factory<Owned<LapJob>, String>, but Owned<LapJob> takes runtime arguments (Int)
                     resolving: ByName → Owned<LapJob>
                     inject Factory<Owned<LapJob>, Int>
                     ByName was registered at GraftTests/OwnedTests.swift:\(line)
                """
        )
    }

    @Test func aProviderOfOwnedCannotPassTheArgumentsItsServiceTakes() {
        var builder = unitBuilder(journal)
        builder.register(LapJob.self, arguments: Int.self, using: LapJob.init(lap:connection:))
        let line = #line + 1
        builder.register(Whenever.self, using: Whenever.init(units:))
        let error = #expect(throws: GraftError.self) { try builder.build() }
        #expect(
            error?.description == """
                Graft: build() found 1 problem
                  1. Whenever depends on Owned<LapJob>, which takes runtime arguments (Int)
                     resolving: Whenever → Owned<LapJob>
                     inject Factory<Owned<LapJob>, Int> and call make(…) with the arguments
                     Whenever was registered at GraftTests/OwnedTests.swift:\(line)
                """
        )
    }
}
