import Graft
import Testing

private protocol Gearbox: Sendable {
    var description: String { get }
}

private struct ManualGearbox: Gearbox {
    let description = "manual"
}

private struct Logged: Gearbox {
    let inner: any Gearbox
    var description: String { "logged(\(inner.description))" }
}

private struct Timed: Gearbox {
    let inner: any Gearbox
    let clock: LapClock
    var description: String { "timed(\(inner.description)) by \(clock.name)" }
}

private struct LapClock: Sendable {
    let name: String
}

private struct Stripped: Error {}

@Suite struct DecoratorsWrapInstances {
    @Test func decoratorsApplyInTheOrderTheyWereAddedToEveryRegistrationOfTheType() throws {
        var builder = ContainerBuilder()
        builder.register(LapClock.self, instance: LapClock(name: "pit wall"))
        builder.decorate((any Gearbox).self) { gearbox, _ in Logged(inner: gearbox) }
        builder.register((any Gearbox).self) { _ in ManualGearbox() }
        builder.register((any Gearbox).self, name: "spare") { _ in ManualGearbox() }
        builder.decorate((any Gearbox).self) { gearbox, r in Timed(inner: gearbox, clock: try r.resolve(LapClock.self))
        }
        let container = try builder.build()

        let gearbox = try container.resolve((any Gearbox).self)
        let spare = try container.resolve((any Gearbox).self, name: "spare")
        let all = try container.resolveAll((any Gearbox).self)

        #expect(gearbox.description == "timed(logged(manual)) by pit wall")
        #expect(spare.description == "timed(logged(manual)) by pit wall")
        #expect(all.map(\.description) == Array(repeating: "timed(logged(manual)) by pit wall", count: 2))
    }

    @Test func aNamedDecoratorAppliesToThatRegistrationOnly() throws {
        var builder = ContainerBuilder()
        builder.register((any Gearbox).self) { _ in ManualGearbox() }
        builder.register((any Gearbox).self, name: "spare") { _ in ManualGearbox() }
        builder.decorate((any Gearbox).self, name: "spare") { gearbox, _ in Logged(inner: gearbox) }
        let container = try builder.build()

        #expect(try container.resolve((any Gearbox).self).description == "manual")
        #expect(try container.resolve((any Gearbox).self, name: "spare").description == "logged(manual)")
    }

    @Test func aSingletonIsDecoratedOnceAndSharedDecorated() async throws {
        let decorations = Counter()
        var builder = ContainerBuilder()
        builder.register((any Gearbox).self, lifetime: .singleton) { _ in ManualGearbox() }
        builder.decorate((any Gearbox).self) { gearbox, _ in
            decorations.increment()
            return Logged(inner: gearbox)
        }
        let container = try await builder.build()

        let descriptions = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<16 {
                group.addTask { try await container.resolve((any Gearbox).self).description }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }

        #expect(descriptions == ["logged(manual)"])
        #expect(decorations.value == 1)
    }

    @Test func theGraphExportShowsDecoratedServices() throws {
        var builder = ContainerBuilder()
        builder.register((any Gearbox).self, lifetime: .singleton) { _ in ManualGearbox() }
        builder.decorate((any Gearbox).self) { gearbox, _ in Logged(inner: gearbox) }
        builder.decorate((any Gearbox).self) { gearbox, _ in Logged(inner: gearbox) }

        #expect(try builder.build().exportGraph(as: .dot).contains(".singleton, decorated ×2"))
    }

    @Test func aDecoratorThatThrowsNamesItselfAndTheService() throws {
        var builder = ContainerBuilder()
        builder.register((any Gearbox).self, fileID: "Gearbox.swift", line: 3) { _ in ManualGearbox() }
        builder.decorate((any Gearbox).self) { _, _ in throw Stripped() }
        let container = try builder.build()

        let error = #expect(throws: GraftError.self) { try container.resolve((any Gearbox).self) }

        #expect(error?.code == .activationFailed)
        #expect(
            error?.description == """
                Graft: decorator of Gearbox threw: Stripped()
                  the hook was added at Gearbox.swift:3
                """
        )
    }
}

/// A pool from another package: it cannot be made `Disposable`.
private final class ForeignPool: Sendable {
    let id: Int
    init(id: Int) { self.id = id }
}

private final class Ledger: Disposable {
    let log: EventLog
    init(log: EventLog) { self.log = log }
    func dispose() { log.append("ledger") }
}

@Suite struct DisposeClosuresDisposeWithoutConformance {
    @Test func aScopeRunsDisposeClosuresExactlyOnceNewestFirst() throws {
        let log = EventLog()
        var builder = ContainerBuilder()
        builder.register(ForeignPool.self, lifetime: .scoped) { _ in ForeignPool(id: 1) }
        builder.onDispose(ForeignPool.self) { pool in log.append("pool \(pool.id)") }
        builder.register(Ledger.self, lifetime: .scoped) { _ in Ledger(log: log) }
        let container = try builder.build()
        let scope = container.makeScope()

        _ = try scope.resolve(ForeignPool.self)
        _ = try scope.resolve(Ledger.self)
        _ = try scope.resolve(ForeignPool.self)
        try scope.close()
        try scope.close()

        #expect(log.entries == ["ledger", "pool 1"])
    }

    @Test func singletonsAreDisposedAtShutdownAndTransientsByTheirScope() throws {
        let log = EventLog()
        var builder = ContainerBuilder()
        builder.register(ForeignPool.self, lifetime: .singleton) { _ in ForeignPool(id: 0) }
        builder.onDispose(ForeignPool.self) { pool in log.append("singleton \(pool.id)") }
        builder.register(ForeignPool.self, name: "lap") { _ in ForeignPool(id: 7) }
        builder.onDispose(ForeignPool.self, name: "lap") { pool in log.append("transient \(pool.id)") }
        let container = try builder.build()

        try container.withScope { scope in
            _ = try scope.resolve(ForeignPool.self, name: "lap")
            _ = try scope.resolve(ForeignPool.self)
        }
        #expect(log.entries == ["transient 7"])
        try container.shutdown()

        #expect(log.entries == ["transient 7", "singleton 0"])
    }

    @Test func anAsyncDisposeClosureIsAwaitedByAnAsyncClose() async throws {
        let log = EventLog()
        var builder = ContainerBuilder()
        builder.register(ForeignPool.self, lifetime: .singleton) { _ in ForeignPool(id: 3) }
        builder.onDispose(ForeignPool.self) { pool async throws in
            await Task.yield()
            log.append("closed \(pool.id)")
        }
        let container = try await builder.build()

        _ = try await container.resolve(ForeignPool.self)
        try await container.shutdown()

        #expect(log.entries == ["closed 3"])
    }

    @Test func aThrowingDisposeClosureIsReportedAndTheOthersStillRun() throws {
        let log = EventLog()
        var builder = ContainerBuilder()
        builder.register(ForeignPool.self, lifetime: .singleton) { _ in ForeignPool(id: 1) }
        builder.onDispose(ForeignPool.self) { _ in throw Stripped() }
        builder.register(Ledger.self, lifetime: .singleton) { _ in Ledger(log: log) }
        let container = try builder.build()
        _ = try container.resolve(ForeignPool.self)
        _ = try container.resolve(Ledger.self)

        let error = #expect(throws: GraftError.self) { try container.shutdown() }

        #expect(log.entries == ["ledger"])
        #expect(error?.problems.map(\.summary) == ["dispose() of ForeignPool threw: Stripped()"])
    }

    @Test func aDisposeClosureForAnUnregisteredServiceIsABuildProblem() {
        var builder = ContainerBuilder()
        builder.onDispose(ForeignPool.self, fileID: "Pools.swift", line: 8) { _ in }

        let error = #expect(throws: GraftError.self) { try builder.build() }

        #expect(
            error?.problems.first?.description == """
                Graft: onDispose for ForeignPool, which is not registered before it
                  register ForeignPool first, then add the dispose closure (Pools.swift:8)
                """
        )
    }
}
