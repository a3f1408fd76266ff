import Graft
import Testing

private final class Engin: Sendable {}

private final class Repository: Sendable {
    let database: Database

    init(database: Database) {
        self.database = database
    }
}

private struct Snapshot: Sendable {}

/// Two services whose closure factories resolve each other: a cycle `build()` cannot see.
private final class Ping: Sendable {}
private final class Pong: Sendable {}

private final class Relay: Sendable {
    init(pong: Pong) {}
}

/// Singletons autowired from each other, the innermost made by a factory that resolves the
/// outermost through the container itself, not through its resolver: only the record of the
/// creations under way on the thread shows that this is a cycle.
private final class Outer: Sendable {
    init(middle: Middle) {}
}

private final class Middle: Sendable {
    init(innermost: Innermost) {}
}

private final class Innermost: Sendable {}

@Suite struct ErrorTests {
    @Test func notRegisteredNamesThePathAndTheRegisteredNames() throws {
        var builder = ContainerBuilder()
        builder.register((any Engine).self) { _ in RCEngine() }
        builder.register((any Engine).self, name: "v12") { _ in V12Engine() }
        builder.register(RaceCar.self) { r in
            RaceCar(engine: try r.resolve((any Engine).self, name: "v10"), transmission: Transmission())
        }
        let container = try builder.build()

        let error = #expect(throws: GraftError.self) { try container.resolve(RaceCar.self) }

        #expect(error?.code == .notRegistered)
        #expect(error?.service == #"Engine["v10"]"#)
        #expect(error?.path == ["RaceCar", #"Engine["v10"]"#])
        #expect(
            error?.description == """
                Graft: no registration for Engine (name: "v10")
                  resolving: RaceCar → Engine["v10"]
                  did you mean Engine["v12"]?
                  register it, made by a type that conforms to Engine: builder.register((any Engine).self, name: "v10", using: <ConformingType>.init)
                  build() could not see this: RaceCar resolves Engine["v10"] without declaring it; add dependencies: [Requirement(Engine.self, name: "v10")] to RaceCar's registration so build() checks it next time
                """
        )
    }

    @Test func notRegisteredAtTopLevelSaysHowToRegister() throws {
        let container = try ContainerBuilder().build()

        let error = #expect(throws: GraftError.self) { try container.resolve(Wheel.self) }

        #expect(
            error?.description == """
                Graft: no registration for Wheel
                  register it, autowiring its initializer: builder.register(Wheel.self, using: Wheel.init), or as a value: builder.register(Wheel.self, instance: Wheel(...))
                """
        )
    }

    @Test func notRegisteredSuggestsATypeWithACloseName() throws {
        var builder = ContainerBuilder()
        builder.register((any Engine).self) { _ in RCEngine() }
        let container = try builder.build()

        let error = #expect(throws: GraftError.self) { try container.resolve(Engin.self) }

        #expect(error?.description.contains("did you mean Engine?") == true)
    }

    @Test func factoryFailureWrapsTheUnderlyingErrorWithThePath() throws {
        var builder = ContainerBuilder()
        builder.register((any Engine).self) { _ -> any Engine in throw Jammed(part: "engine") }
        builder.register(Transmission.self, using: Transmission.init)
        builder.register(RaceCar.self, using: RaceCar.init(engine:transmission:))
        let container = try builder.build()

        let error = #expect(throws: GraftError.self) { try container.resolve(RaceCar.self) }

        #expect(error?.code == .factoryFailed)
        #expect(error?.underlyingError as? Jammed == Jammed(part: "engine"))
        #expect(error?.path == ["RaceCar", "Engine"])
        #expect(
            error?.description.hasPrefix(
                """
                Graft: factory of Engine threw: engine is jammed
                  resolving: RaceCar → Engine
                  registered at GraftTests/ErrorTests.swift:
                """
            ) == true
        )
        #expect(
            error?.description.hasSuffix(
                "; the next resolve runs the factory again"
            ) == true
        )
        #expect(error?.description.ranges(of: "engine is jammed").count == 1, "said once")
    }

    @Test(arguments: [Lifetime.transient, .singleton, .scoped, .graph, .weak])
    func throwingFactoryCachesNothingAndTheNextResolveRetries(_ lifetime: Lifetime) throws {
        let calls = Counter()
        var builder = ContainerBuilder()
        builder.register(Wheel.self, lifetime: lifetime) { _ in
            if calls.increment() == 1 { throw Jammed(part: "wheel") }
            return Wheel()
        }
        let container = try builder.build()
        let scope = container.makeScope()

        let error = #expect(throws: GraftError.self) { try scope.resolve(Wheel.self) }
        #expect(error?.code == .factoryFailed)

        let wheel = try scope.resolve(Wheel.self)
        #expect(calls.value == 2)
        if lifetime != .transient && lifetime != .graph {
            #expect(try scope.resolve(Wheel.self) === wheel)
            #expect(calls.value == 2)
        }
        withExtendedLifetime(wheel) {}
    }

    @Test func failingDependencyOfASingletonCachesNothing() throws {
        let calls = Counter()
        var builder = ContainerBuilder()
        builder.register((any Engine).self) { _ -> any Engine in
            if calls.increment() == 1 { throw Jammed(part: "engine") }
            return RCEngine()
        }
        builder.register(Transmission.self, using: Transmission.init)
        builder.register(RaceCar.self, lifetime: .singleton, using: RaceCar.init(engine:transmission:))
        let container = try builder.build()

        #expect(throws: GraftError.withCode(.factoryFailed)) { try container.resolve(RaceCar.self) }
        let car = try container.resolve(RaceCar.self)

        #expect(try container.resolve(RaceCar.self) === car)
        #expect(calls.value == 2)
    }

    @Test func synchronousResolveOfAnAsyncServiceNeedsAwait() throws {
        var builder = ContainerBuilder()
        builder.register(Database.self, lifetime: .singleton) { _ async in Database() }
        builder.register(Repository.self, using: Repository.init(database:))
        let container = try builder.build()

        let direct = #expect(throws: GraftError.self) { try container.resolve(Database.self) }

        #expect(direct?.code == .needsAwait)
        #expect(
            direct?.description == """
                Graft: Database needs await to be created: its factory is async
                  this runs inside a task, but Swift picked the synchronous resolve
                  in an async function, write `try await resolve(Database.self)` (a synchronous function or closure must become async first)
                  in top-level code (main.swift) Swift picks the synchronous overload even after `await`: move the code into an async function or an `@main` type's `static func main() async`
                """
        )
    }

    @Test(.timeLimit(.minutes(1)))
    func asyncResolveAwaitsAsyncFactoriesAndDependents() async throws {
        var builder = ContainerBuilder()
        builder.register(Database.self, lifetime: .singleton) { _ async in
            await Task.yield()
            return Database()
        }
        builder.register(Repository.self, using: Repository.init(database:))
        let container = try await builder.build()

        let repository = try await container.resolve(Repository.self)

        #expect(try await repository.database === container.resolve(Database.self))
    }

    @Test(.timeLimit(.minutes(1)))
    func synchronousFactoryReceivesAnAsyncSingletonCreatedEarlier() async throws {
        var builder = ContainerBuilder()
        builder.register(Database.self, lifetime: .singleton) { _ async in Database() }
        builder.register(Repository.self) { r in Repository(database: try r.resolve(Database.self, name: nil)) }
        let container = try await builder.build()
        let database = try await container.resolve(Database.self)

        let repository = try syncResolve(Repository.self, from: container)

        #expect(repository.database === database)
    }

    @Test func weakLifetimeNeedsAClass() throws {
        var builder = ContainerBuilder()
        builder.register(Snapshot.self, lifetime: .weak) { _ in Snapshot() }
        let container = try builder.build()

        let error = #expect(throws: GraftError.self) { try container.resolve(Snapshot.self) }

        #expect(error?.code == .weakNeedsClass)
        #expect(error?.summary == "Snapshot is .weak but its factory made a Snapshot, which is not a class")
    }

    @Test(arguments: [Lifetime.transient, .singleton, .scoped, .graph, .weak])
    func runtimeCycleThroughClosureFactoriesIsAGraftError(_ lifetime: Lifetime) throws {
        var builder = ContainerBuilder()
        builder.register(Ping.self, lifetime: lifetime) { r in
            _ = try r.resolve(Pong.self)
            return Ping()
        }
        builder.register(Pong.self, lifetime: lifetime) { r in
            _ = try r.resolve(Ping.self)
            return Pong()
        }
        let container = try builder.build()

        let error = #expect(throws: GraftError.self) { try container.makeScope().resolve(Ping.self) }

        #expect(error?.code == .cycle)
        #expect(
            error?.description == """
                Graft: dependency cycle: Ping → Pong → Ping
                  resolving: Ping → Pong → Ping
                  break it with Lazy<Ping> or Provider<Ping> in Pong
                """
        )
    }

    @Test(arguments: [Lifetime.transient, .singleton, .scoped, .weak])
    func runtimeCyclePathNamesEveryServiceOnIt(_ lifetime: Lifetime) throws {
        var builder = ContainerBuilder()
        builder.register(Ping.self, lifetime: lifetime) { r in
            _ = try r.resolve(Relay.self)
            return Ping()
        }
        builder.register(Relay.self, using: Relay.init(pong:))
        builder.register(Pong.self) { r in
            _ = try r.resolve(Ping.self)
            return Pong()
        }
        let container = try builder.build()

        let error = #expect(throws: GraftError.self) { try container.makeScope().resolve(Ping.self) }

        #expect(
            error?.description == """
                Graft: dependency cycle: Ping → Relay → Pong → Ping
                  resolving: Ping → Relay → Pong → Ping
                  break it with Lazy<Ping> or Provider<Ping> in Pong
                """
        )
    }

    @Test func runtimeCycleEnteredFromOutsideNamesTheCycleAndThePath() throws {
        var builder = ContainerBuilder()
        builder.register(Ping.self, lifetime: .singleton) { r in
            _ = try r.resolve(Pong.self)
            return Ping()
        }
        builder.register(Pong.self) { r in
            _ = try r.resolve(Ping.self)
            return Pong()
        }
        builder.register(Relay.self) { r in Relay(pong: try r.resolve()) }
        let container = try builder.build()

        let error = #expect(throws: GraftError.self) { try container.resolve(Relay.self) }

        #expect(error?.summary == "dependency cycle: Pong → Ping → Pong")
        #expect(error?.path == ["Relay", "Pong", "Ping", "Pong"])
    }

    @Test func cycleThroughTheContainerItselfInsideNestedSingletonsIsReportedOnEveryResolve() throws {
        let holder = Guarded<Container?>(nil)
        defer { holder.withLock { $0 = nil } }
        var builder = ContainerBuilder()
        builder.register(Outer.self, lifetime: .singleton, using: Outer.init(middle:))
        builder.register(Middle.self, lifetime: .singleton, using: Middle.init(innermost:))
        builder.register(Innermost.self, lifetime: .singleton) { _ in
            _ = try holder.withLock { $0 }?.resolve(Outer.self)
            return Innermost()
        }
        let container = try builder.build()
        holder.withLock { $0 = container }

        let first = #expect(throws: GraftError.self) { try container.resolve(Outer.self) }
        // Each creation put back what the thread recorded before it: the next resolve starts
        // from nothing under way and finds the same cycle, not a stale record.
        let second = #expect(throws: GraftError.self) { try container.resolve(Outer.self) }

        #expect(first?.summary == "dependency cycle: Outer → Middle → Innermost → Outer")
        #expect(first?.path == ["Outer", "Middle", "Innermost", "Outer"])
        #expect(second?.description == first?.description)
    }

    @Test func eagerSingletonInARuntimeCycleFailsTheBuild() {
        var builder = ContainerBuilder()
        builder.register(Ping.self, lifetime: .eagerSingleton) { r in
            _ = try r.resolve(Pong.self)
            return Ping()
        }
        builder.register(Pong.self) { r in
            _ = try r.resolve(Ping.self)
            return Pong()
        }

        let error = #expect(throws: GraftError.self) { try builder.build() }

        #expect(error?.problems.map(\.code) == [.eagerSingletonFailed])
        #expect(error?.problems.first?.summary.contains("dependency cycle: Ping → Pong → Ping") == true)
    }

    @Test func errorsHashByCodeAsTheyCompare() {
        let closed = GraftError(.closed, "one")
        let closedElsewhere = GraftError(.closed, "two", service: "Wheel", path: ["Car", "Wheel"], hints: ["a hint"])
        let cycle = GraftError(.cycle, "one")

        #expect(closed.hashValue == closedElsewhere.hashValue)
        #expect(Set([closed, closedElsewhere, cycle]).map(\.code).sorted { "\($0)" < "\($1)" } == [.closed, .cycle])
        var seen: [GraftError: Int] = [:]
        for error in [closed, cycle, closedElsewhere] { seen[error, default: 0] += 1 }
        #expect(seen[GraftError.withCode(.closed)] == 2)
        #expect(seen[GraftError.withCode(.cycle)] == 1)
        #expect(seen[GraftError.withCode(.notRegistered)] == nil)
    }

    @Test func errorsCompareByCode() {
        #expect(GraftError(.closed, "one") == GraftError(.closed, "two"))
        #expect(GraftError(.closed, "one") != GraftError(.cycle, "one"))
        #expect(GraftError.Code.scopedFromRoot.description == "scoped service resolved from the root container")
    }
}
