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

/// Counts the callers that have started a resolve, so a factory can keep its slot claimed until
/// they all have, and most of them find the slot claimed and must wait for it.
private final class Arrivals: Sendable {
    private let count = Counter()

    func arrive() {
        count.increment()
    }

    /// Waits, blocking the thread, until `parties` have arrived (or about two seconds passed), then
    /// gives the others a few more turns of the processor to reach the claimed slot.
    func awaitAll(_ parties: Int) {
        var waited = 0
        while count.value < parties && waited < 20_000 {
            pause(microseconds: 100)
            waited += 1
        }
        for _ in 0..<200 { sched_yield() }
    }
}

/// How a scope's `.scoped` slots are claimed when several threads or tasks want one at once: the
/// scope claims the slot itself, and a caller that finds it claimed waits for that one creation,
/// through the coordinator, which reports a wait that would close a loop as a cycle.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ScopedClaimContentionTests {
    static let rounds = 150
    static let workers = 4

    @Test func threadsRacingForOneScopedSlotAllGetTheOneInstanceItsOnlyCreationMade() async throws {
        let made = Counter()
        let arrivals = Guarded<Arrivals?>(nil)
        var builder = ContainerBuilder()
        builder.register(Ledger.self, lifetime: .scoped) { _ in
            let serial = made.increment()
            arrivals.current?.awaitAll(Self.workers)
            return Ledger(serial: serial)
        }
        let container = try await builder.build()

        for round in 1...Self.rounds {
            let scope = container.makeScope()
            let gate = Arrivals()
            arrivals.withLock { $0 = gate }
            let seen = Guarded([Int: Ledger]())
            await runOnDedicatedThreads(Self.workers) { worker in
                gate.arrive()
                if let ledger = try? scope.resolve(Ledger.self) { seen.withLock { $0[worker] = ledger } }
            }
            let ledgers = Array(seen.current.values)
            #expect(ledgers.count == Self.workers)
            #expect(ledgers.distinctCount == 1)
            #expect(made.value == round)
            try await scope.close()
        }
    }

    @Test func tasksRacingForOneScopedSlotAllGetTheOneInstanceItsOnlyCreationMade() async throws {
        let made = Counter()
        let arrivals = Guarded<Countdown?>(nil)
        var builder = ContainerBuilder()
        builder.register(Ledger.self, lifetime: .scoped) { _ async in
            let serial = made.increment()
            await arrivals.current?.wait()
            for _ in 0..<20 { await Task.yield() }
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
    /// its error, a caller that comes after it creates anew, and nobody is left waiting.
    @Test func threadsWaitingForAScopedCreationThatThrowsGetItsErrorAndTheNextResolveTriesAgain() async throws {
        let attempts = Counter()
        let arrivals = Guarded<Arrivals?>(nil)
        var builder = ContainerBuilder()
        builder.register(Ledger.self, lifetime: .scoped) { _ in
            let attempt = attempts.increment()
            arrivals.current?.awaitAll(Self.workers)
            if attempt % 2 == 1 { throw LedgerUnavailable(attempt: attempt) }
            return Ledger(serial: attempt)
        }
        let container = try await builder.build()

        for _ in 1...Self.rounds {
            let scope = container.makeScope()
            let gate = Arrivals()
            arrivals.withLock { $0 = gate }
            let first = attempts.value + 1
            let outcomes = Guarded([Int: Result<Ledger, GraftError>]())
            await runOnDedicatedThreads(Self.workers) { worker in
                gate.arrive()
                let outcome = Result { () throws(GraftError) -> Ledger in try scope.resolve(Ledger.self) }
                outcomes.withLock { $0[worker] = outcome }
            }
            let results = Array(outcomes.current.values)
            #expect(results.count == Self.workers)
            var ledgers: [Ledger] = []
            for result in results {
                switch result {
                case .success(let ledger): ledgers.append(ledger)
                case .failure(let error): #expect(error.summary == "factory of Ledger threw: attempt \(first) failed")
                }
            }
            // The first creation failed for whoever waited for it; at most one more ran.
            #expect(ledgers.distinctCount <= 1)
            #expect(ledgers.allSatisfy { $0.serial == first + 1 })
            #expect(attempts.value <= first + 1)
            // Whatever the race, the slot is free again or filled, never left claimed.
            arrivals.withLock { $0 = nil }
            #expect(try syncResolve(Ledger.self, from: scope).serial == attempts.value)
            try await scope.close()
        }
    }

    /// Two threads resolving from two different scopes meet in the slots of the session scope both
    /// were made under: each creation waits for the other's, and both get the cycle error.
    @Test func threadsEnteringACycleOfSessionServicesFromTwoScopesBothGetACycleError() async throws {
        let arrivals = Arrivals()
        var builder = ContainerBuilder()
        builder.register(Ping.self, lifetime: .scoped(in: Session.self)) { r in
            arrivals.arrive()
            arrivals.awaitAll(2)
            _ = try r.resolve(Pong.self)
            return Ping()
        }
        builder.register(Pong.self, lifetime: .scoped(in: Session.self)) { r in
            arrivals.arrive()
            arrivals.awaitAll(2)
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
