import Graft
import Testing

private final class Radio: Sendable {
    let megahertz: Int

    init(megahertz: Int) {
        self.megahertz = megahertz
    }
}

private final class Bolt: Sendable {
    init() {}
}

/// Built from however many dependencies an autowired function takes.
private final class Assembly: Sendable {
    let parts: [any Sendable]

    init(parts: [any Sendable]) {
        self.parts = parts
    }
}

private final class PitRadio: Sendable {
    let radio: Radio?

    init(radio: Radio?) {
        self.radio = radio
    }
}

private final class FireExtinguisher: Sendable {
    init() {}
}

private final class SafeCar: Sendable {
    let extinguisher: Lazy<FireExtinguisher>
    let wheels: [Wheel]
    let spares: Provider<Wheel>

    init(extinguisher: Lazy<FireExtinguisher>, wheels: Provider<Wheel>) throws {
        self.extinguisher = extinguisher
        self.wheels = try (0..<4).map { _ in try wheels.get() }
        self.spares = wheels
    }
}

/// Property injection through an activation hook: pilot and navigator refer to each other.
private final class Pilot: Sendable {
    let navigator = Guarded<Navigator?>(nil)
}

private final class Navigator: Sendable {
    let pilot: Pilot

    init(pilot: Pilot) {
        self.pilot = pilot
    }
}

private struct EngineModule: Module {
    var requirements: [Requirement] { [Requirement(Radio.self)] }

    func register(in builder: inout ContainerBuilder) {
        builder.register((any Engine).self, lifetime: .singleton) { _ in RCEngine() }
        builder.register(Transmission.self, using: Transmission.init)
        builder.register(RaceCar.self, using: RaceCar.init(engine:transmission:))
    }
}

/// A registration helper generic over the service type, as apps write them: `register` runs
/// without knowing the type at compile time.
private func registerGenerically<Service: Sendable>(
    _ type: Service.Type,
    lifetime: Lifetime,
    in builder: inout ContainerBuilder,
    _ make: @escaping @Sendable () -> Service
) {
    builder.register(type, lifetime: lifetime) { _ in make() }
}

/// A value larger than the 64 bytes an instance is handed over in on the stack.
private struct PitBoard: Sendable, Equatable {
    var lane = 7
    var crew = ["Ana", "Ben"]
    var laps: (Int, Int, Int, Int) = (1, 2, 3, 4)
    var sectors: (Int, Int, Int, Int) = (5, 6, 7, 8)

    static func == (lhs: PitBoard, rhs: PitBoard) -> Bool {
        lhs.lane == rhs.lane && lhs.crew == rhs.crew && lhs.laps == rhs.laps && lhs.sectors == rhs.sectors
    }
}

@Suite struct RegistrationTests {
    @Test(arguments: [Lifetime.transient, .singleton, .graph])
    func closureRegisteredFromGenericCodeResolvesItsInstance(_ lifetime: Lifetime) throws {
        var builder = ContainerBuilder()
        registerGenerically(Int.self, lifetime: lifetime, in: &builder) { 42 }
        registerGenerically(String.self, lifetime: lifetime, in: &builder) { "pit lane" }
        registerGenerically(PitBoard.self, lifetime: lifetime, in: &builder) { PitBoard(lane: 3) }
        registerGenerically((any Engine).self, lifetime: lifetime, in: &builder) { V12Engine() }
        let container = try builder.build()
        #expect(try container.resolve(Int.self) == 42)
        #expect(try container.resolve(String.self) == "pit lane")
        #expect(try container.resolve(PitBoard.self) == PitBoard(lane: 3))
        #expect(try container.resolve((any Engine).self) is V12Engine)
    }

    @Test(arguments: Lifetime.allCases)
    func lastRegistrationWinsForSingleResolve(_ lifetime: Lifetime) throws {
        var builder = ContainerBuilder()
        builder.register((any Engine).self, lifetime: lifetime) { _ in RCEngine() }
        builder.register((any Engine).self, lifetime: lifetime) { _ in V12Engine() }
        builder.register((any Engine).self, name: "spare", lifetime: lifetime) { _ in RCEngine(name: "first") }
        builder.register((any Engine).self, name: "spare", lifetime: lifetime) { _ in RCEngine(name: "second") }
        let container = try builder.build()

        let scope = container.makeScope()
        #expect(try scope.resolve((any Engine).self).name == "v12")
        #expect(try scope.resolve((any Engine).self, name: "spare").name == "second")
    }

    @Test func resolveAllReturnsEveryRegistrationNamedOrNotInRegistrationOrder() throws {
        var builder = ContainerBuilder()
        builder.register((any Engine).self) { _ in RCEngine(name: "one") }
        builder.register((any Engine).self, name: "v12") { _ in V12Engine() }
        builder.register((any Engine).self, lifetime: .singleton) { _ in RCEngine(name: "three") }
        builder.register(Wheel.self) { _ in Wheel() }
        builder.register((any Engine).self, name: "v12") { _ in RCEngine(name: "four") }
        let container = try builder.build()

        #expect(try container.resolveAll((any Engine).self).map(\.name) == ["one", "v12", "three", "four"])
        #expect(try container.makeScope().resolveAll((any Engine).self).count == 4)
    }

    @Test func resolveAllIsEmptyWhenNothingIsRegistered() throws {
        var builder = ContainerBuilder()
        builder.register(Wheel.self) { _ in Wheel() }
        let container = try builder.build()

        #expect(try container.resolveAll((any Engine).self).isEmpty)
        #expect(try container.makeScope().resolveAll(Transmission.self).isEmpty)
    }

    @Test func namedRegistrationsAreResolvedByName() throws {
        var builder = ContainerBuilder()
        builder.register((any Engine).self) { _ in RCEngine() }
        builder.register((any Engine).self, name: "v12") { _ in V12Engine() }
        let container = try builder.build()

        #expect(try container.resolve((any Engine).self).name == "rc")
        #expect(try container.resolve((any Engine).self, name: "v12").name == "v12")
        let error = #expect(throws: GraftError.self) { try container.resolve((any Engine).self, name: "v10") }
        #expect(error?.code == .notRegistered)
    }

    @Test func namedOnlyRegistrationDoesNotAnswerAnUnnamedResolve() throws {
        var builder = ContainerBuilder()
        builder.register((any Engine).self, name: "v12") { _ in V12Engine() }
        let container = try builder.build()

        let error = #expect(throws: GraftError.self) { try container.resolve((any Engine).self) }
        #expect(error?.code == .notRegistered)
    }

    @Test func instanceRegistrationIsReturnedAsIsAndNeverDisposed() throws {
        let log = EventLog()
        let radio = Resource("radio", log: log)
        var builder = ContainerBuilder()
        builder.register(Resource.self, instance: radio)
        let container = try builder.build()

        let scope = container.makeScope()
        #expect(try container.resolve(Resource.self) === radio)
        #expect(try scope.resolve(Resource.self) === radio)
        try scope.close()
        try container.shutdown()

        #expect(log.entries.isEmpty)
    }

    @Test func aliasServesOneSingletonAsSeveralProtocols() throws {
        let calls = Counter()
        var builder = ContainerBuilder()
        builder.register(RCEngine.self, lifetime: .singleton) { _ in
            calls.increment()
            return RCEngine()
        }
        builder.alias((any Engine).self, to: RCEngine.self)
        builder.alias((any Diagnosable).self, to: RCEngine.self)
        let container = try builder.build()

        let engine = try container.resolve((any Engine).self)
        let diagnosable = try container.resolve((any Diagnosable).self)
        let concrete = try container.resolve(RCEngine.self)

        #expect(engine as AnyObject === diagnosable as AnyObject)
        #expect(engine as AnyObject === concrete)
        #expect(try container.makeScope().resolve((any Diagnosable).self) as AnyObject === concrete)
        #expect(calls.value == 1)
    }

    @Test func aliasToANamedTargetUnderItsOwnName() throws {
        var builder = ContainerBuilder()
        builder.register(RCEngine.self, name: "race", lifetime: .singleton) { _ in RCEngine(name: "race") }
        builder.alias((any Engine).self, name: "fast", to: RCEngine.self, targetName: "race")
        let container = try builder.build()

        #expect(
            try container.resolve((any Engine).self, name: "fast") as AnyObject
                === container.resolve(RCEngine.self, name: "race")
        )
    }

    @Test func aliasFollowsTheTargetsLifetime() throws {
        var builder = ContainerBuilder()
        builder.register(RCEngine.self) { _ in RCEngine() }
        builder.alias((any Engine).self, to: RCEngine.self)
        let container = try builder.build()

        #expect(
            try container.resolve((any Engine).self) as AnyObject !== container.resolve((any Engine).self) as AnyObject
        )
    }

    @Test func aliasToATypeTheInstanceIsNotThrowsInvalidAlias() throws {
        var builder = ContainerBuilder()
        builder.register(V12Engine.self, lifetime: .singleton) { _ in V12Engine() }
        builder.alias((any Diagnosable).self, to: V12Engine.self)
        let container = try builder.build()

        let error = #expect(throws: GraftError.self) { try container.resolve((any Diagnosable).self) }

        #expect(error?.code == .invalidAlias)
        #expect(
            error?.description == """
                Graft: Diagnosable answers with V12Engine, but its instance, a V12Engine, is not a Diagnosable
                  alias only types the target's instances conform to
                """
        )
    }

    @Test func aliasToAnUnregisteredTargetIsReportedByBuild() {
        var builder = ContainerBuilder()
        builder.alias((any Engine).self, to: RCEngine.self)

        let error = #expect(throws: GraftError.self) { try builder.build() }

        #expect(error?.code == .invalidGraph)
        #expect(error?.problems.map(\.code) == [.missingDependency])
        #expect(error?.description.contains("no registration for RCEngine, which Engine needs") == true)
    }

    @Test(arguments: 0...5)
    func autowiringPassesEveryParameter(arity: Int) throws {
        var builder = ContainerBuilder()
        builder.register((any Engine).self) { _ in RCEngine() }
        builder.register(Transmission.self, using: Transmission.init)
        builder.register(Wheel.self, using: Wheel.init)
        builder.register(Bolt.self, using: Bolt.init)
        builder.register(Radio.self, instance: Radio(megahertz: 433))
        switch arity {
        case 0:
            builder.register(Assembly.self, using: { () in Assembly(parts: []) })
        case 1:
            builder.register(Assembly.self, using: { (a: any Engine) in Assembly(parts: [a]) })
        case 2:
            builder.register(Assembly.self, using: { (a: any Engine, b: Transmission) in Assembly(parts: [a, b]) })
        case 3:
            builder.register(
                Assembly.self,
                using: { (a: any Engine, b: Transmission, c: Wheel) in Assembly(parts: [a, b, c]) }
            )
        case 4:
            builder.register(
                Assembly.self,
                using: { (a: any Engine, b: Transmission, c: Wheel, d: Bolt) in Assembly(parts: [a, b, c, d]) }
            )
        default:
            builder.register(
                Assembly.self,
                using: { (a: any Engine, b: Transmission, c: Wheel, d: Bolt, e: Radio) in
                    Assembly(parts: [a, b, c, d, e])
                }
            )
        }
        let container = try builder.build()

        let assembly = try container.resolve(Assembly.self)

        #expect(assembly.parts.count == arity)
        let expected: [String] = ["RCEngine", "Transmission", "Wheel", "Bolt", "Radio"]
        #expect(assembly.parts.map { String(describing: type(of: $0)) } == Array(expected.prefix(arity)))
    }

    @Test func autowiredInitializerReceivesRegisteredServices() throws {
        var builder = ContainerBuilder()
        builder.register((any Engine).self, lifetime: .singleton) { _ in V12Engine() }
        builder.register(Transmission.self, lifetime: .singleton, using: Transmission.init)
        builder.register(RaceCar.self, using: RaceCar.init(engine:transmission:))
        let container = try builder.build()

        let car = try container.resolve(RaceCar.self)

        #expect(try car.engine as AnyObject === container.resolve((any Engine).self) as AnyObject)
        #expect(try car.transmission === container.resolve(Transmission.self))
    }

    @Test func optionalParameterIsNilWhenUnregistered() throws {
        var builder = ContainerBuilder()
        builder.register(PitRadio.self, using: PitRadio.init(radio:))
        let container = try builder.build()

        #expect(try container.resolve(PitRadio.self).radio == nil)
        #expect(try container.resolve(Radio?.self) == nil)
    }

    @Test func optionalParameterReceivesTheRegisteredService() throws {
        let radio = Radio(megahertz: 433)
        var builder = ContainerBuilder()
        builder.register(Radio.self, instance: radio)
        builder.register(PitRadio.self, using: PitRadio.init(radio:))
        let container = try builder.build()

        #expect(try container.resolve(PitRadio.self).radio === radio)
        #expect(try container.resolve(Radio?.self) === radio)
    }

    @Test func lazyParameterCreatesItsValueOnFirstAccessOnce() throws {
        let extinguishers = Counter()
        var builder = ContainerBuilder()
        builder.register(FireExtinguisher.self) { _ in
            extinguishers.increment()
            return FireExtinguisher()
        }
        builder.register(Wheel.self) { _ in Wheel() }
        builder.register(SafeCar.self, using: SafeCar.init(extinguisher:wheels:))
        let container = try builder.build()

        let car = try container.resolve(SafeCar.self)
        #expect(extinguishers.value == 0)
        #expect(!car.extinguisher.isCreated)

        let first = try car.extinguisher.value
        let second = try car.extinguisher.value

        #expect(first === second)
        #expect(extinguishers.value == 1)
    }

    @Test func providerParameterResolvesAnewOnEveryGet() throws {
        let wheels = Counter()
        var builder = ContainerBuilder()
        builder.register(FireExtinguisher.self) { _ in FireExtinguisher() }
        builder.register(Wheel.self) { _ in
            wheels.increment()
            return Wheel()
        }
        builder.register(SafeCar.self, using: SafeCar.init(extinguisher:wheels:))
        let container = try builder.build()

        let car = try container.resolve(SafeCar.self)
        let spare = try car.spares.get()

        #expect((car.wheels + [spare]).distinctCount == 5)
        #expect(wheels.value == 5)
    }

    @Test func lazyAndProviderNeedNoRegistrationOfTheirOwn() throws {
        var builder = ContainerBuilder()
        builder.register(Wheel.self, lifetime: .singleton) { _ in Wheel() }
        let container = try builder.build()

        let lazy = try container.resolve(Lazy<Wheel>.self)
        let provider = try container.resolve(Provider<Wheel>.self)

        #expect(try lazy.value === container.resolve(Wheel.self))
        #expect(try provider.get() === container.resolve(Wheel.self))
    }

    @Test func activationHookRunsOnEveryNewInstance() throws {
        let activations = Counter()
        var builder = ContainerBuilder()
        builder.register(Wheel.self) { _ in Wheel() }
        builder.onActivation(Wheel.self) { _, _ in activations.increment() }
        let container = try builder.build()

        _ = try container.resolve(Wheel.self)
        _ = try container.resolve(Wheel.self)

        #expect(activations.value == 2)
    }

    @Test func servicesInjectedThroughPropertiesSeeEachOther() throws {
        var builder = ContainerBuilder()
        builder.register(Pilot.self, lifetime: .singleton) { _ in Pilot() }
        builder.onActivation(Pilot.self) { pilot, r in
            let navigator = try r.resolve(Navigator.self)
            pilot.navigator.withLock { $0 = navigator }
        }
        builder.register(Navigator.self, lifetime: .singleton, using: Navigator.init(pilot:))
        let container = try builder.build()

        let pilot = try container.resolve(Pilot.self)

        #expect(pilot.navigator.current?.pilot === pilot)
        #expect(try container.resolve(Navigator.self).pilot === pilot)
    }

    @Test func moduleInstallsItsRegistrations() throws {
        var builder = ContainerBuilder()
        builder.register(Radio.self, instance: Radio(megahertz: 433))
        builder.install(EngineModule())
        let container = try builder.build()

        #expect(builder.count == 4)
        #expect(try container.resolve(RaceCar.self).engine.name == "rc")
    }

    @Test func moduleRequirementIsMetByTheApp() throws {
        var builder = ContainerBuilder()
        builder.install(EngineModule())
        #expect(builder.validate().map(\.code) == [.unmetRequirement])

        builder.register(Radio.self, instance: Radio(megahertz: 433))
        #expect(builder.validate().isEmpty)
    }

    @Test func requirementDescribesTypeAndName() {
        #expect(Requirement(Radio.self).description == "Radio")
        #expect(Requirement((any Engine).self, name: "v12").description == #"Engine["v12"]"#)
    }

    @Test func registeringThirtyThousandServicesCreatesNothing() throws {
        let calls = Counter()
        var builder = ContainerBuilder()
        for index in 0..<30_000 {
            builder.register(Wheel.self, name: "\(index)", lifetime: .singleton) { _ in
                calls.increment()
                return Wheel()
            }
        }
        let container = try builder.build()

        #expect(calls.value == 0)
        _ = try container.resolve(Wheel.self, name: "29999")
        #expect(calls.value == 1)
    }
}
