import Dispatch
import Foundation
import Graft
import Synchronization
import Testing

/// A service that knows the order in which it was made: serial numbers stay unique even when
/// an address is reused after an instance is gone.
private final class Probe: Sendable {
    let serial: Int

    init(serial: Int) {
        self.serial = serial
    }
}

/// Depends twice on the `.graph` probe, so one call can be checked for sharing.
private final class ProbePair: Sendable {
    let left: Probe
    let right: Probe

    init(left: Probe, right: Probe) {
        self.left = left
        self.right = right
    }
}

/// Counts creations and disposals of tracked instances, and disposals beyond the first.
private final class DisposalTally: Sendable {
    let created = Atomic(0)
    let disposed = Atomic(0)
    let disposedTwice = Atomic(0)

    func recordCreation() {
        created.add(1, ordering: .relaxed)
    }

    func recordDisposal(_ disposals: borrowing Atomic<Int>) {
        disposed.add(1, ordering: .relaxed)
        if disposals.add(1, ordering: .relaxed).newValue > 1 {
            disposedTwice.add(1, ordering: .relaxed)
        }
    }
}

/// A transient disposable.
private final class Tracked: Disposable {
    let tally: DisposalTally
    let disposals = Atomic(0)

    init(tally: DisposalTally) {
        self.tally = tally
        tally.recordCreation()
    }

    func dispose() {
        tally.recordDisposal(disposals)
    }
}

/// A scoped disposable that depends on a transient disposable.
private final class TrackedSession: Disposable {
    let tracked: Tracked
    let disposals = Atomic(0)

    init(tracked: Tracked) {
        self.tracked = tracked
        tracked.tally.recordCreation()
    }

    func dispose() {
        tracked.tally.recordDisposal(disposals)
    }
}

/// The lifetimes (and `Lazy`) whose identity rules the contention test checks.
enum ContendedForm: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case singleton, scoped, graph, transient, lazy, weak

    var testDescription: String { rawValue }
}

/// How the resolves are spread: over a few threads calling the synchronous API, or over many
/// tasks calling the async one.
enum ContentionDriver: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case fourThreads, thousandTasks

    var testDescription: String { rawValue }

    /// How many workers share the resolves.
    var workers: Int {
        switch self {
        case .fourThreads: 4
        case .thousandTasks: 1_000
        }
    }
}

/// One resolve under test, through the synchronous and the async API; `iteration` lets a
/// test spread resolves over several scopes.
private struct Fetch<Value: Sendable>: Sendable {
    let sync: @Sendable (_ iteration: Int) throws -> Value
    let async: @Sendable (_ iteration: Int) async throws -> Value
}

/// What one worker saw while hammering the container.
private struct Sightings: Sendable {
    /// Distinct serials seen, per scope index (one bucket when there are no scopes).
    var serials: [Set<Int>]
    /// Resolves whose result broke the rule under test.
    var violations = 0
    var resolves = 0

    init(buckets: Int) {
        serials = Array(repeating: [], count: buckets)
    }

    /// Notes `serial` as this worker's newest instance. Serials come from one atomic counter, so
    /// within one worker they only grow; one that does not was kept from an earlier call.
    mutating func expectNew(_ serial: Int) {
        if let last = serials[0].first, serial <= last { violations += 1 }
        serials[0] = [serial]
    }

    mutating func merge(_ other: Sightings) {
        for index in serials.indices { serials[index].formUnion(other.serials[index]) }
        violations += other.violations
        resolves += other.resolves
    }
}

/// One case at a time: each saturates both cores for seconds (minutes under ThreadSanitizer),
/// and several at once would starve the other suites' time-limited tests.
@Suite(.serialized) struct ContentionTests {
    /// Resolves in total per lifetime and driver: 10^6.
    static let totalResolves = 1_000_000
    static let scopeCount = 8

    /// Makes `totalResolves` resolves through `fetch`, split evenly over the driver's workers,
    /// all running at once; `record` notes each result. Returns what the workers saw, merged,
    /// and the errors that stopped any of them.
    private func hammer<Value>(
        _ driver: ContentionDriver,
        buckets: Int = 1,
        fetch: Fetch<Value>,
        record: @escaping @Sendable (_ iteration: Int, _ value: Value, _ sightings: inout Sightings) -> Void
    ) async -> (sightings: Sightings, errors: [String]) {
        let share = Self.totalResolves / driver.workers
        switch driver {
        case .fourThreads:
            let merged = Guarded((Sightings(buckets: buckets), [String]()))
            await runOnDedicatedThreads(driver.workers) { worker in
                var local = Sightings(buckets: buckets)
                var error: String?
                do {
                    for iteration in (worker * share)..<((worker + 1) * share) {
                        record(iteration, try fetch.sync(iteration), &local)
                        local.resolves += 1
                    }
                } catch let caught {
                    error = "thread \(worker): \(caught)"
                }
                merged.withLock { merged in
                    merged.0.merge(local)
                    if let error { merged.1.append(error) }
                }
            }
            return merged.withLock { $0 }
        case .thousandTasks:
            return await withTaskGroup(of: (Sightings, String?).self) { group in
                for worker in 0..<driver.workers {
                    group.addTask {
                        var local = Sightings(buckets: buckets)
                        do {
                            for iteration in (worker * share)..<((worker + 1) * share) {
                                record(iteration, try await fetch.async(iteration), &local)
                                local.resolves += 1
                                // A resolve of an existing instance does not suspend: yield now
                                // and then, so the tasks interleave, as an app's would, and the
                                // pool's two threads keep serving other tests too.
                                if local.resolves.isMultiple(of: 100) { await Task.yield() }
                            }
                        } catch {
                            return (local, "task \(worker): \(error)")
                        }
                        return (local, nil)
                    }
                }
                var merged = (sightings: Sightings(buckets: buckets), errors: [String]())
                for await (local, error) in group {
                    merged.sightings.merge(local)
                    if let error { merged.errors.append(error) }
                }
                return merged
            }
        }
    }

    /// Hammers `fetch` and expects every resolve to return the first probe made (serial 1).
    private func expectTheFirstInstanceEveryTime(_ driver: ContentionDriver, _ fetch: Fetch<Probe>) async {
        let (seen, errors) = await hammer(driver, fetch: fetch) { _, probe, seen in
            seen.serials[0].insert(probe.serial)
        }

        #expect(errors.isEmpty, "\(errors.prefix(5))")
        #expect(seen.resolves == Self.totalResolves)
        #expect(seen.serials[0] == [1])
    }

    private func counting(_ created: borrowing Atomic<Int>) -> Probe {
        Probe(serial: created.add(1, ordering: .relaxed).newValue)
    }

    @Test(arguments: ContendedForm.allCases, ContentionDriver.allCases)
    func aMillionResolvesObeyTheLifetimesIdentityRule(
        _ form: ContendedForm,
        _ driver: ContentionDriver
    ) async throws {
        switch form {
        case .singleton: try await singletonIsMadeOnce(driver)
        case .scoped: try await scopedIsMadeOncePerScope(driver)
        case .graph: try await graphIsMadeOncePerTopLevelCall(driver)
        case .transient: try await transientIsMadeForEveryResolve(driver)
        case .lazy: try await sharedLazyIsMadeOnce(driver)
        case .weak: try await heldWeakInstanceIsAlwaysReturned(driver)
        }
    }

    private func singletonIsMadeOnce(_ driver: ContentionDriver) async throws {
        let created = Atomic(0)
        var builder = ContainerBuilder()
        builder.register(Probe.self, lifetime: .singleton) { _ in counting(created) }
        let container = try await builder.build()

        await expectTheFirstInstanceEveryTime(
            driver,
            Fetch(
                sync: { _ in try container.resolve(Probe.self) },
                async: { _ in try await container.resolve(Probe.self) }
            )
        )
        #expect(created.load(ordering: .relaxed) == 1)
    }

    private func scopedIsMadeOncePerScope(_ driver: ContentionDriver) async throws {
        let created = Atomic(0)
        var builder = ContainerBuilder()
        builder.register(Probe.self, lifetime: .scoped) { _ in counting(created) }
        let container = try await builder.build()
        let scopes = (0..<Self.scopeCount).map { _ in container.makeScope() }

        // Every worker cycles through every scope, so each scope is hit by all workers at once.
        let fetch = Fetch(
            sync: { iteration in try scopes[iteration % Self.scopeCount].resolve(Probe.self) },
            async: { iteration in try await scopes[iteration % Self.scopeCount].resolve(Probe.self) }
        )
        let (seen, errors) = await hammer(driver, buckets: Self.scopeCount, fetch: fetch) {
            iteration,
            probe,
            seen in
            seen.serials[iteration % Self.scopeCount].insert(probe.serial)
        }

        #expect(errors.isEmpty, "\(errors.prefix(5))")
        #expect(seen.resolves == Self.totalResolves)
        #expect(seen.serials.map(\.count) == Array(repeating: 1, count: Self.scopeCount))
        #expect(seen.serials.reduce(into: Set<Int>()) { $0.formUnion($1) }.count == Self.scopeCount)
        #expect(created.load(ordering: .relaxed) == Self.scopeCount)
        for scope in scopes { try await scope.close() }
    }

    private func graphIsMadeOncePerTopLevelCall(_ driver: ContentionDriver) async throws {
        let created = Atomic(0)
        var builder = ContainerBuilder()
        builder.register(Probe.self, lifetime: .graph) { _ in counting(created) }
        builder.register(ProbePair.self, using: ProbePair.init(left:right:))
        let container = try await builder.build()

        let fetch = Fetch(
            sync: { _ in try container.resolve(ProbePair.self) },
            async: { _ in try await container.resolve(ProbePair.self) }
        )
        let (seen, errors) = await hammer(driver, fetch: fetch) { _, pair, seen in
            if pair.left !== pair.right { seen.violations += 1 }
            seen.expectNew(pair.left.serial)
        }

        #expect(errors.isEmpty, "\(errors.prefix(5))")
        #expect(seen.resolves == Self.totalResolves)
        #expect(seen.violations == 0)
        #expect(created.load(ordering: .relaxed) == Self.totalResolves)
    }

    private func transientIsMadeForEveryResolve(_ driver: ContentionDriver) async throws {
        let created = Atomic(0)
        var builder = ContainerBuilder()
        builder.register(Probe.self) { _ in counting(created) }
        let container = try await builder.build()

        let fetch = Fetch(
            sync: { _ in try container.resolve(Probe.self) },
            async: { _ in try await container.resolve(Probe.self) }
        )
        let (seen, errors) = await hammer(driver, fetch: fetch) { _, probe, seen in
            seen.expectNew(probe.serial)
        }

        #expect(errors.isEmpty, "\(errors.prefix(5))")
        #expect(seen.resolves == Self.totalResolves)
        #expect(seen.violations == 0)
        #expect(created.load(ordering: .relaxed) == Self.totalResolves)
    }

    private func sharedLazyIsMadeOnce(_ driver: ContentionDriver) async throws {
        let created = Atomic(0)
        var builder = ContainerBuilder()
        // Transient behind the `Lazy`: only the `Lazy` itself makes the value shared.
        builder.register(Probe.self) { _ in counting(created) }
        let container = try await builder.build()
        let lazy = try await container.resolve(Lazy<Probe>.self)
        #expect(!lazy.isCreated)

        await expectTheFirstInstanceEveryTime(
            driver,
            Fetch(
                sync: { _ in try lazy.value },
                async: { _ in try await lazy.get() }
            )
        )
        #expect(created.load(ordering: .relaxed) == 1)
    }

    private func heldWeakInstanceIsAlwaysReturned(_ driver: ContentionDriver) async throws {
        let created = Atomic(0)
        var builder = ContainerBuilder()
        builder.register(Probe.self, lifetime: .weak) { _ in counting(created) }
        let container = try await builder.build()
        let holder = try await container.resolve(Probe.self)

        let fetch = Fetch(
            sync: { _ in try container.resolve(Probe.self) },
            async: { _ in try await container.resolve(Probe.self) }
        )
        let (seen, errors) = await hammer(driver, fetch: fetch) { _, probe, seen in
            if probe !== holder { seen.violations += 1 }
        }

        #expect(errors.isEmpty, "\(errors.prefix(5))")
        #expect(seen.resolves == Self.totalResolves)
        #expect(seen.violations == 0)
        #expect(created.load(ordering: .relaxed) == 1)
        withExtendedLifetime(holder) {}
    }

    @Test func scopesCreatedAndClosedWhileOtherThreadsResolveFromThemDisposeEverythingExactlyOnce() async throws {
        let tally = DisposalTally()
        var builder = ContainerBuilder()
        builder.register(DisposalTally.self, instance: tally)
        builder.register(Tracked.self, using: Tracked.init(tally:))
        builder.register(TrackedSession.self, lifetime: .scoped, using: TrackedSession.init(tracked:))
        let container = try await builder.build()

        let slotCount = 8
        let resolvesPerThread = 25_000
        let churnWhileResolving = 200
        let slots = Guarded((0..<slotCount).map { _ in container.makeScope() })
        let resolversLeft = Atomic(2)
        let attempted = Atomic(0)
        let succeeded = Atomic(0)
        let closed = Atomic(0)
        let roundsWhileResolving = Atomic(0)
        let unexpected = EventLog()
        let closedSummaries: Set<String> = [
            "cannot resolve TrackedSession: its scope was closed", "cannot resolve Tracked: its scope was closed",
        ]

        // Threads 0 and 1 replace scopes and close the replaced ones (some new scopes are
        // children of another slot's scope, so closing a parent closes them early); threads 2
        // and 3 resolve from whatever scope a slot holds at that moment, and keep resolving until
        // at least `churnWhileResolving` rounds of churn began while they were at work, so the
        // two overlap however the threads are scheduled. Dedicated threads, so the churners (who
        // wait for the resolvers) cannot starve them on a two-core machine.
        await runOnDedicatedThreads(4) { thread in
            if thread < 2 {
                var round = 0
                while resolversLeft.load(ordering: .acquiring) > 0 || round < 100 {
                    let resolving = resolversLeft.load(ordering: .acquiring) > 0
                    round += 1
                    let index = (round &* 7 &+ thread &* 3) % slotCount
                    let replaced = slots.withLock { slots -> Scope in
                        let fresh =
                            round.isMultiple(of: 4)
                            ? slots[(index + 1) % slotCount].makeScope() : container.makeScope()
                        defer { slots[index] = fresh }
                        return slots[index]
                    }
                    do {
                        try replaced.close()
                    } catch {
                        unexpected.append("close: \(error)")
                    }
                    if resolving { roundsWhileResolving.add(1, ordering: .releasing) }
                }
                return
            }
            var iteration = 0
            while iteration < resolvesPerThread
                || roundsWhileResolving.load(ordering: .acquiring) < churnWhileResolving
            {
                let scope = slots.withLock { $0[(iteration &* 5 &+ thread) % slotCount] }
                iteration += 1
                attempted.add(1, ordering: .relaxed)
                do {
                    let session = try scope.resolve(TrackedSession.self)
                    let tracked = try scope.resolve(Tracked.self)
                    if session.tracked === tracked {
                        unexpected.append("a transient was shared with the scoped instance")
                    }
                    succeeded.add(1, ordering: .relaxed)
                } catch let error as GraftError where error.code == .closed {
                    closed.add(1, ordering: .relaxed)
                    if !closedSummaries.contains(error.summary) { unexpected.append("closed: \(error)") }
                } catch {
                    unexpected.append("resolve: \(error)")
                }
            }
            resolversLeft.subtract(1, ordering: .releasing)
        }
        for scope in slots.withLock({ $0 }) { try await scope.close() }
        try await container.shutdown()

        let created = tally.created.load(ordering: .relaxed)
        #expect(unexpected.entries.isEmpty, "\(unexpected.entries.prefix(5))")
        #expect(
            succeeded.load(ordering: .relaxed) + closed.load(ordering: .relaxed)
                == attempted.load(ordering: .relaxed)
        )
        #expect(succeeded.load(ordering: .relaxed) > 0)
        #expect(created > 0)
        #expect(tally.disposed.load(ordering: .relaxed) == created)
        #expect(tally.disposedTwice.load(ordering: .relaxed) == 0)
    }
}
