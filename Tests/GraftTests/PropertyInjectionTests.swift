import Graft
import Synchronization
import Testing

/// An object whose initializer cannot take its dependencies (the seeds' race track).
private final class Track: Sendable {
    let car = Mutex<Car?>(nil)
}

private final class Car: Sendable {
    let track = Mutex<Track?>(nil)
}

private struct Settings: Sendable {
    var laps = 0
}

private final class Timer: Sendable {}

private final class Dashboard {
    @Injected var timer: Timer
    @Injected(name: "backup") var backupTimer: Timer
}

private struct Failure: Error {}

/// A resolver of the app's own: it answers every request for a `Timer` with one instance.
private struct FixedTimerResolver: Resolver {
    let timer: Timer

    private func answer<Service: Sendable>(_ type: Service.Type) throws(GraftError) -> Service {
        guard let timer = timer as? Service else { throw GraftError(.notRegistered, "only timers here") }
        return timer
    }

    func resolve<Service: Sendable>(_ type: Service.Type, name: String?) throws(GraftError) -> Service {
        try answer(type)
    }

    func resolve<Service: Sendable>(_ type: Service.Type, name: String?) async throws(GraftError) -> Service {
        try answer(type)
    }

    func resolveAll<Service: Sendable>(_ type: Service.Type) throws(GraftError) -> [Service] {
        [try answer(type)]
    }

    func resolveAll<Service: Sendable>(_ type: Service.Type) async throws(GraftError) -> [Service] {
        [try answer(type)]
    }
}

@Suite struct ActivationHookTests {
    @Test func hookInjectsPropertiesAfterConstruction() throws {
        var builder = ContainerBuilder()
        builder.register(Car.self, using: Car.init)
        builder.register(Track.self, using: Track.init)
        builder.onActivation(Track.self) { track, r in
            let car = try r.resolve(Car.self)
            track.car.withLock { $0 = car }
        }
        let track = try builder.build().resolve(Track.self)
        #expect(track.car.withLock { $0 } != nil)
    }

    @Test func hookCanChangeValueTypes() throws {
        var builder = ContainerBuilder()
        builder.register(Settings.self) { _ in Settings() }
        builder.onActivation(Settings.self) { settings, _ in settings.laps = 58 }
        #expect(try builder.build().resolve(Settings.self).laps == 58)
    }

    @Test(arguments: [Lifetime.singleton, .graph])
    func servicesInjectingEachOtherSeeEachOther(_ lifetime: Lifetime) throws {
        var builder = ContainerBuilder()
        builder.register(Car.self, lifetime: lifetime, using: Car.init)
        builder.register(Track.self, lifetime: lifetime, using: Track.init)
        builder.onActivation(Track.self) { track, r in
            let car = try r.resolve(Car.self)
            track.car.withLock { $0 = car }
        }
        builder.onActivation(Car.self) { car, r in
            let track = try r.resolve(Track.self)
            car.track.withLock { $0 = track }
        }
        let track = try builder.build().resolve(Track.self)
        let car = try #require(track.car.withLock { $0 })
        #expect(car.track.withLock { $0 } === track)
    }

    @Test func transientsInjectingEachOtherAreACycle() throws {
        var builder = ContainerBuilder()
        builder.register(Car.self, using: Car.init)
        builder.register(Track.self, using: Track.init)
        builder.onActivation(Track.self) { track, r in
            let car = try r.resolve(Car.self)
            track.car.withLock { $0 = car }
        }
        builder.onActivation(Car.self) { car, r in
            let track = try r.resolve(Track.self)
            car.track.withLock { $0 = track }
        }
        let error = #expect(throws: GraftError.self) { try builder.build().resolve(Track.self) }
        #expect(error?.code == .cycle)
        #expect(error?.summary == "dependency cycle: Track → Car → Track")
    }

    @Test func failingHookIsReportedWithTheService() throws {
        var builder = ContainerBuilder()
        // The hint names where the service the hook belongs to was registered, as a decorator's does.
        let registrationLine = #line + 1
        builder.register(Timer.self, using: Timer.init)
        builder.onActivation(Timer.self) { _, _ in throw Failure() }
        let error = #expect(throws: GraftError.self) { try builder.build().resolve(Timer.self) }
        #expect(error?.code == .activationFailed)
        #expect(error?.summary == "activation hook of Timer threw: Failure()")
        #expect(
            error?.description == """
                Graft: activation hook of Timer threw: Failure()
                  the hook was added at GraftTests/PropertyInjectionTests.swift:\(registrationLine)
                """
        )
        #expect(error?.underlyingError is Failure)
    }

    @Test(arguments: [false, true])
    func hookForUnregisteredServiceFailsTheBuild(registeredAfterTheHook: Bool) throws {
        var builder = ContainerBuilder()
        let hookLine = #line + 1
        builder.onActivation(Timer.self) { _, _ in }
        if registeredAfterTheHook { builder.register(Timer.self, using: Timer.init) }
        let error = #expect(throws: GraftError.self) { try builder.build() }
        #expect(error?.problems.map(\.code) == [.notRegistered])
        #expect(
            error?.problems.map(\.description) == [
                """
                Graft: onActivation for Timer, which is not registered before it
                  register Timer first, then add the hook (GraftTests/PropertyInjectionTests.swift:\(hookLine))
                """
            ]
        )
    }
}

@Suite struct InjectedPropertyTests {
    @Test func injectPropertiesBindsEveryInjectedProperty() throws {
        var builder = ContainerBuilder()
        builder.register(Timer.self, lifetime: .singleton, using: Timer.init)
        builder.register(Timer.self, name: "backup", using: Timer.init)
        let container = try builder.build()
        let dashboard = Dashboard()
        #expect(container.injectProperties(into: dashboard) == 2)
        #expect(try dashboard.timer === container.resolve(Timer.self))
        #expect(dashboard.backupTimer !== dashboard.timer)
    }

    @Test func injectedValueResolvesOnceAndAssignmentOverrides() throws {
        var builder = ContainerBuilder()
        builder.register(Timer.self, using: Timer.init)
        let container = try builder.build()
        let dashboard = Dashboard()
        container.injectProperties(into: dashboard)
        #expect(dashboard.timer === dashboard.timer)
        let replacement = Timer()
        dashboard.timer = replacement
        #expect(dashboard.timer === replacement)
    }

    @Test func unboundPropertyThrowsThroughProjectedValue() {
        let dashboard = Dashboard()
        let error = #expect(throws: GraftError.self) { try dashboard.$timer.value }
        #expect(error?.code == .unboundProperty)
        #expect(
            error?.description
                == """
                Graft: @Injected property of type Timer was read before it was bound to a container
                  bind the object first: container.injectProperties(into: object), \
                or bind this property: object.$property.bind(to: container)
                """
        )
    }

    @Test func bindBindsOnePropertyToTheScopeItIsGiven() throws {
        var builder = ContainerBuilder()
        builder.register(Timer.self, lifetime: .scoped, using: Timer.init)
        builder.register(Timer.self, name: "backup", using: Timer.init)
        let container = try builder.build()
        let first = container.makeScope()
        let second = container.makeScope()
        let dashboard = Dashboard()
        #expect(!dashboard.$timer.isBound)

        dashboard.$timer.bind(to: first)
        dashboard.$timer.bind(to: second)

        #expect(dashboard.$timer.isBound)
        #expect(!dashboard.$backupTimer.isBound)
        #expect(try dashboard.timer === second.resolve(Timer.self), "the last binding before the first read wins")
        #expect(try dashboard.timer !== first.resolve(Timer.self))
        let unbound = #expect(throws: GraftError.self) { try dashboard.$backupTimer.value }
        #expect(unbound?.code == .unboundProperty)
        #expect(
            unbound?.description == """
                Graft: @Injected property of type Timer was read before it was bound to a container
                  bind the object first: container.injectProperties(into: object), \
                or bind this property: object.$property.bind(to: container)
                """
        )
        try first.close()
        try second.close()
    }

    @Test func bindToAnAppsOwnResolverResolvesThroughIt() throws {
        let timer = Timer()
        let dashboard = Dashboard()

        dashboard.$timer.bind(to: FixedTimerResolver(timer: timer))

        #expect(dashboard.timer === timer)
    }

    @Test func aPropertyBoundToAScopeThatClosedBeforeItsFirstReadThrowsClosed() throws {
        var builder = ContainerBuilder()
        builder.register(Timer.self, lifetime: .scoped, using: Timer.init)
        let container = try builder.build()
        let scope = container.makeScope()
        let dashboard = Dashboard()
        dashboard.$timer.bind(to: scope)
        try scope.close()

        let error = #expect(throws: GraftError.self) { try dashboard.$timer.value }

        #expect(error?.code == .closed)
        #expect(
            error?.description == """
                Graft: cannot resolve Timer: its scope was closed
                  resolve from an open scope: container.makeScope()
                """
        )
    }

    @Test func readingUnboundPropertyStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            _ = Dashboard().timer
        }
    }
}

/// A dashboard whose superclass has an `@Injected` property too.
private final class PitWall: PitWallBase {
    @Injected var timer: Timer
}

private class PitWallBase {
    @Injected(name: "backup") var backupTimer: Timer
}

@Suite struct ResolvePropertiesTests {
    @Test func resolvesEveryPropertyByTheCallNotOnRead() throws {
        let made = Counter()
        var builder = ContainerBuilder()
        builder.register(Timer.self) { _ in
            made.increment()
            return Timer()
        }
        builder.register(Timer.self, name: "backup") { _ in
            made.increment()
            return Timer()
        }
        let container = try builder.build()
        let dashboard = Dashboard()

        #expect(try container.resolveProperties(of: dashboard) == 2)
        #expect(made.value == 2, "both transients are made by the call, before any read")

        let (timer, backupTimer) = (dashboard.timer, dashboard.backupTimer)
        #expect(dashboard.timer === timer)
        #expect(dashboard.backupTimer === backupTimer)
        #expect(timer !== backupTimer)
        #expect(made.value == 2, "reads return the values resolved by the call")
    }

    @Test func resolvedPropertiesOutliveTheirContainer() throws {
        let dashboard = Dashboard()
        do {
            var builder = ContainerBuilder()
            builder.register(Timer.self, using: Timer.init)
            builder.register(Timer.self, name: "backup", using: Timer.init)
            try builder.build().resolveProperties(of: dashboard)
        }
        // The container is gone: a property resolved by the call reads its value, where one
        // only bound would stop the program.
        #expect(dashboard.timer !== dashboard.backupTimer)
    }

    @Test func resolvesSuperclassPropertiesFromAScope() throws {
        var builder = ContainerBuilder()
        builder.register(Timer.self, lifetime: .scoped, using: Timer.init)
        builder.register(Timer.self, name: "backup", using: Timer.init)
        let container = try builder.build()
        let scope = container.makeScope()
        let wall = PitWall()
        #expect(try scope.resolveProperties(of: wall) == 2)
        #expect(try wall.timer === scope.resolve(Timer.self))
        #expect(wall.backupTimer !== wall.timer)
        try scope.close()
    }

    @Test func anUnregisteredServiceIsThrownNamingTheProperty() throws {
        var builder = ContainerBuilder()
        builder.register(Timer.self, using: Timer.init)
        let container = try builder.build()
        let dashboard = Dashboard()

        let error = #expect(throws: GraftError.self) { try container.resolveProperties(of: dashboard) }

        #expect(error?.code == .notRegistered)
        #expect(
            error?.description == """
                Graft: cannot inject Dashboard.backupTimer (Timer): no registration for Timer (name: "backup")
                  registered for Timer: Timer
                  register it, autowiring its initializer: builder.register(Timer.self, name: "backup", using: Timer.init), or as a value: builder.register(Timer.self, name: "backup", instance: Timer(...))
                """
        )
        #expect(try dashboard.$timer.value === dashboard.timer, "the property before it was resolved")
    }

    @Test func aThrowingFactoryIsThrownWithThePathAndItsError() throws {
        var builder = ContainerBuilder()
        let registrationLine = #line + 1
        builder.register(Settings.self) { _ in throw Failure() }
        builder.register(Timer.self, dependencies: [Requirement(Settings.self)]) { r in
            _ = try r.resolve(Settings.self)
            return Timer()
        }
        builder.register(Timer.self, name: "backup", using: Timer.init)
        let container = try builder.build()

        let error = #expect(throws: GraftError.self) { try container.resolveProperties(of: Dashboard()) }

        #expect(error?.code == .factoryFailed)
        #expect(error?.underlyingError is Failure)
        #expect(
            error?.description == """
                Graft: cannot inject Dashboard.timer (Timer): factory of Settings threw: Failure()
                  resolving: Timer → Settings
                  registered at GraftTests/PropertyInjectionTests.swift:\(registrationLine); \
                the next resolve runs the factory again
                """
        )
    }
}

private struct Livery: KeyValueInjectable, Sendable {
    var colour = ""
    var number = 0

    static let injectableKeys: InjectableKeys<Livery> = [
        .required("colour", \.colour),
        .optional("number", \.number),
    ]
}

@Suite struct ConfiguredRegistrationTests {
    @Test func configureAppliesValuesToEveryNewInstance() throws {
        var builder = ContainerBuilder()
        builder.register(Livery.self) { _ in Livery() }
        builder.configure(Livery.self, with: ["colour": "rosso corsa", "number": 16])
        let livery = try builder.build().resolve(Livery.self)
        #expect(livery.colour == "rosso corsa")
        #expect(livery.number == 16)
    }

    @Test func configureWithBadValuesFailsTheBuild() throws {
        var builder = ContainerBuilder()
        builder.register(Livery.self) { _ in Livery() }
        builder.configure(Livery.self, with: ["number": "16"])
        let error = #expect(throws: GraftError.self) { try builder.build() }
        #expect(error?.code == .invalidGraph)
        let problem = try #require(error?.problems.first)
        #expect(problem.problems.map(\.summary).contains("Livery is missing required key \"colour\" (String)"))
        #expect(problem.problems.map(\.summary).contains("Livery.number expects Int, got String"))
    }
}
