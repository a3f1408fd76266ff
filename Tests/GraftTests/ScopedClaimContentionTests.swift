import Foundation
import Graft
import Testing

private enum Session: ScopeTag {}

/// A scoped service that knows which creation made it.
private final class Ledger: Sendable {
    let serial: Int

    init(serial: Int) {
        self.serial = serial
    }
}

private final class Ping: Sendable {}
private final class Pong: Sendable {}

private struct LedgerUnavailable: Error, CustomStringConvertible {
    let attempt: Int
    var description: String { "attempt \(attempt) failed" }
}

/// Holds the first creation of a round at its factory until the test says go, so that the other
/// callers of the round start their resolves while that creation is under way.
private final class FirstCreationHeld: Sendable {
    let entered = ThreadLatch()
    let go = ThreadLatch()
    private let entries = Counter()

    /// Called by the factory: the round's first creation says it has begun and waits; later ones
    /// go straight on. Returns whether this was the first.
    @discardableResult
    func hold() -> Bool {
        guard entries.increment() == 1 else { return false }
        entered.open()
        go.waitBlocking("the go-ahead for the round's first creation")
        return true
    }
}

/// How a scope's `.scoped` slots are claimed when several threads or tasks want one at once: the
/// scope claims the slot itself, and a caller that finds it claimed waits for that one creation,
/// through the coordinator, which reports a wait that would close a loop as a cycle.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct ScopedClaimContentionTests {
    static let rounds = 40
    static let workers = 4

    /// Stress loop: which of the other threads find the slot claimed and wait, and which come
    /// after the creation, is up to the scheduler (a waiting thread shows nothing a test can see);
    /// the first creation is held until they have all started. Bounded: `rounds` rounds.
    @Test func stressLoopOfThreadsRacingForOneScopedSlotAllGetTheOneInstanceItsOnlyCreationMade() async throws {
        let made = Counter()
        let held = Guarded<FirstCreationHeld?>(nil)
        var builder = ContainerBuilder()
        builder.register(Ledger.self, lifetime: .scoped) { _ in
            let serial = made.increment()
            held.current?.hold()
            return Ledger(serial: serial)
        }
        let container = try await builder.build()

        for round in 1...Self.rounds {
            let scope = container.makeScope()
            let first = FirstCreationHeld()
            held.withLock { $0 = first }
            let creator = OnThread { Result { () throws(GraftError) -> Ledger in try scope.resolve(Ledger.self) } }
            await first.entered.wait()
            let everyoneStarted = Countdown(Self.workers - 1)
            let others = (1..<Self.workers).map { _ in
                OnThread {
                    everyoneStarted.arrive()
                    return Result { () throws(GraftError) -> Ledger in try scope.resolve(Ledger.self) }
                }
            }
            await everyoneStarted.wait()
            first.go.open()
            var ledgers = [try #require(await creator.value()).get()]
            for other in others { ledgers.append(try #require(await other.value()).get()) }
            #expect(ledgers.count == Self.workers)
            #expect(ledgers.distinctCount == 1)
            #expect(made.value == round)
            try await scope.close()
        }
    }

    /// Stress loop, as the threads' version: the tasks start while the creation is held, and
    /// which of them wait for it is up to the scheduler.
    @Test func stressLoopOfTasksRacingForOneScopedSlotAllGetTheOneInstanceItsOnlyCreationMade() async throws {
        let made = Counter()
        let arrivals = Guarded<Countdown?>(nil)
        var builder = ContainerBuilder()
        builder.register(Ledger.self, lifetime: .scoped) { _ async in
            let serial = made.increment()
            await arrivals.current?.wait()
            return Ledger(serial: serial)
        }
        let container = try await builder.build()

        for round in 1...Self.rounds {
            let scope = container.makeScope()
            let everyone = Countdown(Self.workers)
            arrivals.withLock { $0 = everyone }
            let ledgers = await withTaskGroup(of: Ledger?.self) { group in
                for _ in 0..<Self.workers {
                    group.addTask {
                        everyone.arrive()
                        return try? await scope.resolve(Ledger.self)
                    }
                }
                return await group.reduce(into: [Ledger]()) { if let ledger = $1 { $0.append(ledger) } }
            }
            #expect(ledgers.count == Self.workers)
            #expect(ledgers.distinctCount == 1)
            #expect(made.value == round)
            try await scope.close()
        }
    }

    /// A factory that throws leaves nothing behind: the callers that waited for that creation get
    /// its error, a caller that comes after it creates anew, and nobody is left waiting. The
    /// creation that throws is held until every other caller has started: each of them gets its
    /// error, or the one instance a second creation made (whether a caller waited or came after
    /// is up to the scheduler; both are checked).
    @Test func threadsWaitingForAScopedCreationThatThrowsGetItsErrorAndTheNextResolveTriesAgain() async throws {
        let attempts = Counter()
        let held = Guarded<FirstCreationHeld?>(nil)
        var builder = ContainerBuilder()
        builder.register(Ledger.self, lifetime: .scoped) { _ in
            let attempt = attempts.increment()
            if held.current?.hold() == true { throw LedgerUnavailable(attempt: attempt) }
            return Ledger(serial: attempt)
        }
        let container = try await builder.build()

        for _ in 1...Self.rounds {
            let scope = container.makeScope()
            let first = FirstCreationHeld()
            held.withLock { $0 = first }
            let failing = attempts.value + 1
            let creator = OnThread { Result { () throws(GraftError) -> Ledger in try scope.resolve(Ledger.self) } }
            await first.entered.wait()
            let everyoneStarted = Countdown(Self.workers - 1)
            let others = (1..<Self.workers).map { _ in
                OnThread {
                    everyoneStarted.arrive()
                    return Result { () throws(GraftError) -> Ledger in try scope.resolve(Ledger.self) }
                }
            }
            await everyoneStarted.wait()
            first.go.open()

            let expectedError = "factory of Ledger threw: attempt \(failing) failed"
            // The creator gets its own factory's error.
            let creatorOutcome = try #require(await creator.value())
            #expect(throws: GraftError.self) { try creatorOutcome.get() }
            if case .failure(let error) = creatorOutcome { #expect(error.summary == expectedError) }
            var ledgers: [Ledger] = []
            for other in others {
                switch try #require(await other.value()) {
                case .success(let ledger): ledgers.append(ledger)
                case .failure(let error): #expect(error.summary == expectedError)
                }
            }
            // Those that came after the failure share the one instance a second creation made.
            #expect(ledgers.distinctCount <= 1)
            #expect(ledgers.allSatisfy { $0.serial == failing + 1 })
            #expect(attempts.value == failing + (ledgers.isEmpty ? 0 : 1))
            // The slot is free again or filled, never left claimed: the next resolve gets the
            // instance, or tries again and makes it.
            let next = try syncResolve(Ledger.self, from: scope)
            #expect(next.serial == failing + 1)
            if let made = ledgers.first { #expect(next === made) }
            #expect(attempts.value == failing + 1)
            try await scope.close()
        }
    }

    /// Two threads resolving from two different scopes meet in the slots of the session scope both
    /// were made under: each creation waits for the other's, and both get the cycle error.
    @Test func threadsEnteringACycleOfSessionServicesFromTwoScopesBothGetACycleError() async throws {
        // Both factories are under way before either resolves the other: a barrier holds each.
        let bothInside = ThreadBarrier(parties: 2)
        var builder = ContainerBuilder()
        builder.register(Ping.self, lifetime: .scoped(in: Session.self)) { r in
            bothInside.arriveAndWait()
            _ = try r.resolve(Pong.self)
            return Ping()
        }
        builder.register(Pong.self, lifetime: .scoped(in: Session.self)) { r in
            bothInside.arriveAndWait()
            _ = try r.resolve(Ping.self)
            return Pong()
        }
        let container = try await builder.build()
        let session = container.makeScope(tagged: Session.self)
        let requests = [session.makeScope(), session.makeScope()]
        let errors = Guarded([Int: GraftError]())

        await runOnDedicatedThreads(2) { index in
            do {
                if index == 0 {
                    _ = try requests[0].resolve(Ping.self)
                } else {
                    _ = try requests[1].resolve(Pong.self)
                }
                Issue.record("resolved through a cycle")
            } catch let error as GraftError {
                errors.withLock { $0[index] = error }
            } catch {
                Issue.record(error, "not a GraftError")
            }
        }

        expectCycleEnteredFromBothEnds(Array(errors.current.values), "Ping", "Pong")
        // Neither slot was left claimed: alone, a resolve meets the same cycle instead of waiting.
        let alone = #expect(throws: GraftError.self) { try requests[0].resolve(Ping.self) }
        #expect(
            alone?.description == """
                Graft: dependency cycle: Ping → Pong → Ping
                  resolving: Ping → Pong → Ping
                  break it with Lazy<Ping> or Provider<Ping> in Pong
                """
        )
    }

    /// A cycle through scoped services on one thread is found through the creation chain, the
    /// same error every time: the failed claims are given up, not left for the next resolve to
    /// wait on.
    @Test func aCycleThroughScopedServicesIsReportedAgainOnEveryResolve() async throws {
        var builder = ContainerBuilder()
        builder.register(Ping.self, lifetime: .scoped) { r in
            _ = try r.resolve(Pong.self)
            return Ping()
        }
        builder.register(Pong.self, lifetime: .scoped) { r in
            _ = try r.resolve(Ping.self)
            return Pong()
        }
        let container = try await builder.build()
        let scope = container.makeScope()
        let expected = """
            Graft: dependency cycle: Ping → Pong → Ping
              resolving: Ping → Pong → Ping
              break it with Lazy<Ping> or Provider<Ping> in Pong
            """

        for _ in 0..<3 {
            let sync = #expect(throws: GraftError.self) { try syncResolve(Ping.self, from: scope) }
            #expect(sync?.description == expected)
            let async = await #expect(throws: GraftError.self) { try await scope.resolve(Ping.self) }
            #expect(async?.description == expected)
        }
    }
}
