import Dispatch
import Graft
import Synchronization
import Testing

/// The error an armed fault point throws.
private struct InjectedFault: Error, CustomStringConvertible {
    let point: Int
    let site: String

    var description: String { "injected fault at point \(point) (\(site))" }
}

/// One instance a factory made: which part, in what order, and how often it was disposed.
private final class PartRecord: Sendable {
    let part: String
    let serial: Int
    let disposals = Atomic(0)

    init(part: String, serial: Int) {
        self.part = part
        self.serial = serial
    }

    var disposalCount: Int { disposals.load(ordering: .relaxed) }
}

/// The shared fault switch every factory consults, and the ledger of what was made.
///
/// Each factory passes one or more numbered fault points; when armed, the point whose number
/// matches throws, once. `make` passes a point and then records a new instance.
private final class FaultSwitch: Sendable {
    private struct State {
        var pointsPassed = 0
        var armedAt: Int?
        var fired: [InjectedFault] = []
        var records: [PartRecord] = []
    }

    private let state = Guarded(State())

    func arm(at point: Int) {
        state.withLock {
            $0.pointsPassed = 0
            $0.armedAt = point
        }
    }

    func disarm() {
        state.withLock { $0.armedAt = nil }
    }

    /// A point where a fault may strike.
    func point(_ site: String) throws {
        try state.withLock { state in
            state.pointsPassed += 1
            if state.armedAt == state.pointsPassed {
                state.armedAt = nil
                let fault = InjectedFault(point: state.pointsPassed, site: site)
                state.fired.append(fault)
                throw fault
            }
        }
    }

    /// Passes a fault point, then records a new instance of `part`.
    func make(_ part: String) throws -> PartRecord {
        try point(part)
        return state.withLock { state in
            let record = PartRecord(part: part, serial: state.records.count + 1)
            state.records.append(record)
            return record
        }
    }

    var fired: [InjectedFault] { state.withLock { $0.fired } }
    /// Fault points passed since the switch was last armed.
    var pointsPassed: Int { state.withLock { $0.pointsPassed } }
    var records: [PartRecord] { state.withLock { $0.records } }

    func records(of part: String) -> [PartRecord] { records.filter { $0.part == part } }
}

// The graph under test (lifetime, how it is registered, who owns it for disposal):
//
//   Request   transient  autowired  scope   → Session, Parser, Buffer, Journal
//   Parser    transient  closure    (not disposable) → Buffer, Journal
//   Journal   transient  autowired  scope   → Session
//   Buffer    .graph     closure    scope
//   Session   scoped     autowired  scope   → Clock, Store
//   Store     singleton  closure    root    → Clock, Stamp
//   Stamp     transient  autowired  root (made for the singleton Store)
//   Clock     singleton  autowired  root

private final class Clock: Disposable {
    let record: PartRecord

    init(faults: FaultSwitch) throws {
        record = try faults.make("Clock")
    }

    func dispose() { record.disposals.add(1, ordering: .relaxed) }
}

private final class Stamp: Disposable {
    let record: PartRecord

    init(faults: FaultSwitch) throws {
        record = try faults.make("Stamp")
    }

    func dispose() { record.disposals.add(1, ordering: .relaxed) }
}

private final class Store: Disposable {
    let record: PartRecord
    let clock: Clock
    let stamp: Stamp

    init(faults: FaultSwitch, clock: Clock, stamp: Stamp) throws {
        record = try faults.make("Store")
        self.clock = clock
        self.stamp = stamp
    }

    func dispose() { record.disposals.add(1, ordering: .relaxed) }
}

private final class Session: Disposable {
    let record: PartRecord
    let clock: Clock
    let store: Store

    init(faults: FaultSwitch, clock: Clock, store: Store) throws {
        record = try faults.make("Session")
        self.clock = clock
        self.store = store
    }

    func dispose() { record.disposals.add(1, ordering: .relaxed) }
}

private final class Buffer: Disposable {
    let record: PartRecord

    init(faults: FaultSwitch) throws {
        record = try faults.make("Buffer")
    }

    func dispose() { record.disposals.add(1, ordering: .relaxed) }
}

private final class Journal: Disposable {
    let record: PartRecord
    let session: Session

    init(faults: FaultSwitch, session: Session) throws {
        record = try faults.make("Journal")
        self.session = session
    }

    func dispose() { record.disposals.add(1, ordering: .relaxed) }
}

private final class Parser: Sendable {
    let record: PartRecord
    let buffer: Buffer
    let journal: Journal

    init(faults: FaultSwitch, buffer: Buffer, journal: Journal) throws {
        record = try faults.make("Parser")
        self.buffer = buffer
        self.journal = journal
    }
}

private final class Request: Disposable {
    let record: PartRecord
    let session: Session
    let parser: Parser
    let buffer: Buffer
    let journal: Journal

    init(faults: FaultSwitch, session: Session, parser: Parser, buffer: Buffer, journal: Journal) throws {
        record = try faults.make("Request")
        self.session = session
        self.parser = parser
        self.buffer = buffer
        self.journal = journal
    }

    func dispose() { record.disposals.add(1, ordering: .relaxed) }
}

/// Where a fault can strike: every `make` and every factory entry point.
private let allFaultSites: Set<String> = [
    "Clock", "Stamp", "Store", "Session", "Buffer", "Journal", "Parser", "Request",
    "entering Store's factory", "entering Buffer's factory", "entering Parser's factory",
]
/// A disposable singleton for the contention fault test.
private final class Gate: Disposable {
    let onDispose: @Sendable () -> Void

    init(onDispose: @escaping @Sendable () -> Void) {
        self.onDispose = onDispose
    }

    func dispose() { onDispose() }
}

private let scopeOwnedParts: Set<String> = ["Request", "Journal", "Buffer", "Session"]

private func makeContainer(_ faults: FaultSwitch) throws -> Container {
    var builder = ContainerBuilder()
    builder.register(FaultSwitch.self, instance: faults)
    builder.register(Clock.self, lifetime: .singleton, using: Clock.init(faults:))
    builder.register(Stamp.self, using: Stamp.init(faults:))
    builder.register(Store.self, lifetime: .singleton) { r in
        let faults: FaultSwitch = try r.resolve()
        try faults.point("entering Store's factory")
        return try Store(faults: faults, clock: r.resolve(), stamp: r.resolve())
    }
    builder.register(Session.self, lifetime: .scoped, using: Session.init(faults:clock:store:))
    builder.register(Buffer.self, lifetime: .graph) { r in
        let faults: FaultSwitch = try r.resolve()
        try faults.point("entering Buffer's factory")
        return try Buffer(faults: faults)
    }
    builder.register(Journal.self, using: Journal.init(faults:session:))
    builder.register(Parser.self) { r in
        let faults: FaultSwitch = try r.resolve()
        try faults.point("entering Parser's factory")
        return try Parser(faults: faults, buffer: r.resolve(), journal: r.resolve())
    }
    builder.register(Request.self, using: Request.init(faults:session:parser:buffer:journal:))
    return try builder.build()
}

private func warm(_ container: Container, _ scope: Scope, _ parts: (clock: Bool, store: Bool, session: Bool)) throws {
    if parts.clock { _ = try container.resolve(Clock.self) }
    if parts.store { _ = try container.resolve(Store.self) }
    if parts.session { _ = try scope.resolve(Session.self) }
}

/// Whether the graph is resolved by the synchronous or the `async` entry points.
enum ResolveMode: String, CaseIterable, Sendable {
    case synchronous, asynchronous
}

private func resolveSynchronously(from scope: Scope) throws(GraftError) -> Request {
    try scope.resolve(Request.self)
}

private func resolveRequest(from scope: Scope, _ mode: ResolveMode) async throws(GraftError) -> Request {
    switch mode {
    case .synchronous: try resolveSynchronously(from: scope)
    case .asynchronous: try await scope.resolve(Request.self)
    }
}

private func closeSynchronously(_ scope: Scope) throws(GraftError) { try scope.close() }

private func close(_ scope: Scope, _ mode: ResolveMode) async throws(GraftError) {
    switch mode {
    case .synchronous: try closeSynchronously(scope)
    case .asynchronous: try await scope.close()
    }
}

private func shutDownSynchronously(_ container: Container) throws(GraftError) { try container.shutdown() }

private func shutDown(_ container: Container, _ mode: ResolveMode) async throws(GraftError) {
    switch mode {
    case .synchronous: try shutDownSynchronously(container)
    case .asynchronous: try await container.shutdown()
    }
}

/// What one seed did, and what went wrong; `problems` is empty when everything held.
private struct FaultReport {
    var firedAt: String?
    var problems: [String] = []
}

/// Warms up part of the graph, resolves `Request` with one fault armed at a seeded point,
/// then retries without it and checks caching, identity and disposal.
private func checkFaultPlacement(seed: UInt64, _ mode: ResolveMode) async throws -> FaultReport {
    var random = SplitMix64(seed: seed)
    var report = FaultReport()
    let faults = FaultSwitch()
    let container = try makeContainer(faults)
    let scope = container.makeScope()

    // Some shared instances exist before the fault, some do not.
    let warmUp = (clock: random.chance(50), store: random.chance(50), session: random.chance(50))
    try warm(container, scope, warmUp)

    // A twin container warmed up alike counts the fault points the resolve passes; one point
    // past them places no fault, so the unfaulted path is checked too.
    let twinFaults = FaultSwitch()
    let twin = try makeContainer(twinFaults)
    let twinScope = twin.makeScope()
    try warm(twin, twinScope, warmUp)
    twinFaults.arm(at: .max)
    _ = try await resolveRequest(from: twinScope, mode)
    let point = 1 + random.below(twinFaults.pointsPassed + 1)
    faults.arm(at: point)
    do {
        _ = try await resolveRequest(from: scope, mode)
        if !faults.fired.isEmpty { report.problems.append("a fault fired but the resolve succeeded") }
    } catch {
        let fired = faults.fired
        report.firedAt = fired.first?.site
        if fired.count != 1 { report.problems.append("\(fired.count) faults fired, expected 1") }
        if error.code != .factoryFailed { report.problems.append("failed with \(error.code), not factoryFailed") }
        if (error.underlyingError as? InjectedFault)?.point != point {
            report.problems.append("the error does not carry the injected fault: \(error)")
        }
    }
    faults.disarm()
    let madeBeforeRetry = faults.records.count

    let request: Request
    do {
        request = try await resolveRequest(from: scope, mode)
    } catch {
        report.problems.append("the retry failed: \(error)")
        return report
    }

    // Shared instances: exactly one each, whether made before, during or after the failure,
    // and the retry uses that one.
    let shared: [(part: String, serial: Int)] = [
        ("Clock", request.session.clock.record.serial),
        ("Store", request.session.store.record.serial),
        ("Session", request.session.record.serial),
    ]
    for (part, serial) in shared {
        let made = faults.records(of: part).map(\.serial)
        if made != [serial] { report.problems.append("\(part) made as \(made), the retry got #\(serial)") }
    }
    if request.session.store.clock !== request.session.clock { report.problems.append("two Clocks in one graph") }
    if request.parser.buffer !== request.buffer { report.problems.append("the retry's Buffer was not shared") }
    if request.journal === request.parser.journal { report.problems.append("the transient Journal was shared") }
    // Transient and `.graph` instances of the retry are new: none was kept from the failed call.
    let perCallRecords = [
        request.record, request.parser.record, request.buffer.record, request.journal.record,
        request.parser.journal.record,
    ]
    for record in perCallRecords where record.serial <= madeBeforeRetry {
        report.problems.append("the retry reused \(record.part) #\(record.serial) made before it")
    }

    // Closing the scope disposes what it owns, including what the failed call made; the
    // singletons and the Stamp made for them wait for shutdown.
    try await close(scope, mode)
    for record in faults.records where record.part != "Parser" {
        let expected = scopeOwnedParts.contains(record.part) ? 1 : 0
        if record.disposalCount != expected {
            report.problems.append(
                "after close, \(record.part) #\(record.serial) disposed \(record.disposalCount) times, not \(expected)"
            )
        }
    }
    try await shutDown(container, mode)
    for record in faults.records where record.part != "Parser" && record.disposalCount != 1 {
        report.problems.append(
            "after shutdown, \(record.part) #\(record.serial) disposed \(record.disposalCount) times"
        )
    }
    return report
}

@Suite struct FaultTests {
    static let seeds: ClosedRange<UInt64> = 1...400

    @Test(.timeLimit(.minutes(5)), arguments: ResolveMode.allCases)
    func faultAtASeededPointLeavesNothingHalfMadeAndEverythingMadeIsDisposedOnce(_ mode: ResolveMode) async throws {
        var sites: [String: Int] = [:]
        var unfaulted = 0
        for seed in Self.seeds {
            let report = try await checkFaultPlacement(seed: seed, mode)
            #expect(report.problems.isEmpty, "seed \(seed): \(report.problems.joined(separator: "; "))")
            if !report.problems.isEmpty { break }
            if let site = report.firedAt { sites[site, default: 0] += 1 } else { unfaulted += 1 }
        }
        // The seeds strike every fault point of the graph, and most seeds strike one.
        #expect(Set(sites.keys) == allFaultSites, "struck: \(sites)")
        #expect(unfaulted < Self.seeds.count / 5, "\(unfaulted) seeds placed no fault")
    }

    @Test func singletonFailingUnderContentionIsNeverCachedAndIsMadeOnceWhenTheFaultClears() throws {
        let failing = Atomic(true)
        let entries = Atomic(0)
        let made = Atomic(0)
        let disposed = Atomic(0)
        var builder = ContainerBuilder()
        builder.register(Gate.self, lifetime: .singleton) { _ in
            entries.add(1, ordering: .relaxed)
            if failing.load(ordering: .acquiring) { throw InjectedFault(point: 1, site: "Gate") }
            made.add(1, ordering: .relaxed)
            return Gate { disposed.add(1, ordering: .relaxed) }
        }
        let container = try builder.build()
        let threads = 4
        let attemptsPerThread = 50
        let outcomes = Guarded((faults: 0, other: [String](), identities: Set<ObjectIdentifier>()))

        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<attemptsPerThread {
                do {
                    _ = try container.resolve(Gate.self)
                    outcomes.withLock { $0.other.append("resolved while the fault was on") }
                } catch let error as GraftError where error.underlyingError is InjectedFault {
                    outcomes.withLock { $0.faults += 1 }
                } catch {
                    outcomes.withLock { $0.other.append("\(error)") }
                }
            }
        }
        let entriesWhileFailing = entries.load(ordering: .relaxed)
        failing.store(false, ordering: .releasing)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<attemptsPerThread {
                do {
                    let gate = try container.resolve(Gate.self)
                    outcomes.withLock { _ = $0.identities.insert(ObjectIdentifier(gate)) }
                } catch {
                    outcomes.withLock { $0.other.append("after the fault cleared: \(error)") }
                }
            }
        }
        try container.shutdown()

        let seen = outcomes.withLock { $0 }
        #expect(seen.other.isEmpty, "\(seen.other.prefix(3))")
        #expect(seen.faults == threads * attemptsPerThread)
        // A thread's resolves follow each other, so each one ran or joined a creation of its own.
        #expect(entriesWhileFailing >= attemptsPerThread)
        #expect(seen.identities.count == 1)
        #expect(made.load(ordering: .relaxed) == 1)
        #expect(disposed.load(ordering: .relaxed) == 1)
    }
}
