import Graft
import Testing

private final class Garage: Sendable {
    init(car: RaceCar) {}
}

/// Holds the garage directly, lazily or through a provider.
private final class PitCrew: Sendable {
    let lazyGarage: Lazy<Garage>?
    let garageProvider: Provider<Garage>?

    init(garage: Garage) {
        self.lazyGarage = nil
        self.garageProvider = nil
    }

    init(lazyGarage: Lazy<Garage>) {
        self.lazyGarage = lazyGarage
        self.garageProvider = nil
    }

    init(garageProvider: Provider<Garage>) {
        self.lazyGarage = nil
        self.garageProvider = garageProvider
    }
}

private final class Engin: Sendable {}

private final class Dyno: Sendable {
    init(engine: Engin) {}
}

private final class Holder: Sendable {}
private final class Middle: Sendable {}
private final class Leaf: Sendable {}
private final class Order: Sendable {}

private final class Radio: Sendable {}
private final class Headset: Sendable {}

private struct PitModule: Module {
    var requirements: [Requirement] { [Requirement(Radio.self), Requirement(Transmission.self)] }

    func register(in builder: inout ContainerBuilder) {
        builder.register(Wheel.self) { _ in Wheel() }
    }
}

/// One link of a long chain: `Link<Link<…<Start>>>`, each needing the one inside it.
private protocol Chained: Sendable {
    var depth: Int { get }
}

private final class Start: Chained {
    let depth = 0
}

private final class Link<Inner: Chained>: Chained {
    let depth: Int

    init(inner: Inner) {
        self.depth = inner.depth + 1
    }
}

private func registerLink<Inner: Chained>(
    after inner: Inner.Type,
    in builder: inout ContainerBuilder
) -> any Chained.Type {
    builder.register(Link<Inner>.self, using: Link<Inner>.init(inner:))
    return Link<Inner>.self
}

private func resolveDepth<Top: Chained>(of top: Top.Type, from container: Container) throws -> Int {
    try container.resolve(Top.self).depth
}

/// A builder with `count` services: a chain from `Start` to the returned top type.
private func chainBuilder(count: Int) -> (ContainerBuilder, any Chained.Type) {
    var builder = ContainerBuilder()
    builder.register(Start.self, using: Start.init)
    var top: any Chained.Type = Start.self
    for _ in 1..<count {
        top = registerLink(after: top, in: &builder)
    }
    return (builder, top)
}

@Suite struct ValidationTests {
    /// The cycle `Garage → RaceCar → PitCrew → Garage`, with `crew` registering `PitCrew`.
    private func garageCycle(
        lifetime: Lifetime = .transient,
        crew: (inout ContainerBuilder) -> Void = { $0.register(PitCrew.self, using: PitCrew.init(garage:)) }
    ) -> ContainerBuilder {
        var builder = ContainerBuilder()
        builder.register(Garage.self, lifetime: lifetime, using: Garage.init(car:))
        builder.register(
            RaceCar.self,
            lifetime: lifetime,
            using: { (_: PitCrew) in RaceCar(engine: RCEngine(), transmission: Transmission()) }
        )
        crew(&builder)
        return builder
    }

    @Test func validGraphBuildsAndValidatesEmpty() throws {
        var builder = ContainerBuilder()
        builder.register((any Engine).self, lifetime: .singleton) { _ in RCEngine() }
        builder.register(Transmission.self, using: Transmission.init)
        builder.register(RaceCar.self, lifetime: .scoped, using: RaceCar.init(engine:transmission:))

        #expect(builder.validate().isEmpty)
        _ = try builder.build()
    }

    @Test func missingDependencyNamesWhoNeedsWhatAndWhatIsRegistered() {
        var builder = ContainerBuilder()
        builder.register((any Engine).self, name: "v12") { _ in V12Engine() }
        builder.register(Transmission.self, using: Transmission.init)
        builder.register(RaceCar.self, using: RaceCar.init(engine:transmission:))

        let error = #expect(throws: GraftError.self) { try builder.build() }

        #expect(error?.code == .invalidGraph)
        let problem = error?.problems.first
        #expect(error?.problems.count == 1)
        #expect(problem?.code == .missingDependency)
        #expect(problem?.summary == "no registration for Engine, which RaceCar needs")
        #expect(problem?.path == ["RaceCar", "Engine"])
        #expect(problem?.hints.first == #"registered for Engine: Engine["v12"]"#)
        #expect(
            error?.description.hasPrefix(
                """
                Graft: build() found 1 problem
                  1. no registration for Engine, which RaceCar needs
                     resolving: RaceCar → Engine
                     registered for Engine: Engine["v12"]
                     register it, made by a type that conforms to Engine: builder.register((any Engine).self, using: <ConformingType>.init)
                     RaceCar was registered at GraftTests/ValidationTests.swift:
                """
            ) == true
        )
    }

    @Test func missingDependencySuggestsATypeWithACloseName() {
        var builder = ContainerBuilder()
        builder.register((any Engine).self) { _ in RCEngine() }
        builder.register(Dyno.self, using: Dyno.init(engine:))

        let problems = builder.validate()

        #expect(problems.map(\.summary) == ["no registration for Engin, which Dyno needs"])
        #expect(problems.first?.hints.first == "did you mean Engine?")
    }

    @Test func cycleIsReportedOnceWithItsFullPathAndAHint() {
        var builder = garageCycle()
        builder.register(Holder.self, using: { (_: PitCrew, _: RaceCar, _: Garage) in Holder() })

        let error = #expect(throws: GraftError.self) { try builder.build() }

        #expect(error?.problems.count == 1)
        #expect(error?.problems.first?.code == .cycle)
        #expect(
            error?.description == """
                Graft: build() found 1 problem
                  1. dependency cycle: Garage → RaceCar → PitCrew → Garage
                     break it with Lazy<Garage> or Provider<Garage> in PitCrew
                     PitCrew was registered at GraftTests/ValidationTests.swift:95
                """
        )
    }

    @Test func selfDependencyIsACycle() {
        var builder = ContainerBuilder()
        builder.register(Holder.self, using: { (_: Holder) in Holder() })

        #expect(builder.validate().map(\.summary) == ["dependency cycle: Holder → Holder"])
    }

    @Test func twoSeparateCyclesAreEachReported() {
        var builder = garageCycle()
        builder.register(Middle.self, using: { (_: Leaf) in Middle() })
        builder.register(Leaf.self, using: { (_: Middle) in Leaf() })

        #expect(
            builder.validate().map(\.summary) == [
                "dependency cycle: Garage → RaceCar → PitCrew → Garage",
                "dependency cycle: Middle → Leaf → Middle",
            ]
        )
    }

    @Test(arguments: [false, true])
    func lazyOrProviderEdgeBreaksACycle(useProvider: Bool) throws {
        let builder = garageCycle(lifetime: .singleton) { builder in
            if useProvider {
                builder.register(PitCrew.self, lifetime: .singleton, using: PitCrew.init(garageProvider:))
            } else {
                builder.register(PitCrew.self, lifetime: .singleton, using: PitCrew.init(lazyGarage:))
            }
        }
        #expect(builder.validate().isEmpty)
        let container = try builder.build()

        let garage = try container.resolve(Garage.self)
        let crew = try container.resolve(PitCrew.self)

        let reached = try useProvider ? crew.garageProvider?.get() : crew.lazyGarage?.value
        #expect(reached === garage)
    }

    @Test(
        arguments: [
            (Lifetime.singleton, Lifetime.scoped), (.singleton, .graph), (.eagerSingleton, .scoped),
            (.eagerSingleton, .graph), (.scoped, .graph),
        ]
    )
    func longerLivedServiceHoldingAShorterLivedOneIsCaptive(holder: Lifetime, captive: Lifetime) {
        var builder = ContainerBuilder()
        builder.register(Order.self, lifetime: captive, using: Order.init)
        builder.register(Holder.self, lifetime: holder, using: { (_: Order) in Holder() })

        let problems = builder.validate()

        #expect(problems.map(\.code) == [.captiveDependency])
        #expect(problems.first?.summary == "captive dependency: Holder (\(holder)) depends on Order (\(captive))")
        #expect(problems.first?.path == ["Holder", "Order"])
        #expect(
            problems.first?.hints == [
                "a \(holder) outlives each \(captive) instance; make Holder \(captive) or shorter-lived, "
                    + "or make Order live as long"
            ]
        )
    }

    @Test(
        arguments: [
            (Lifetime.scoped, Lifetime.singleton), (.scoped, .scoped), (.scoped, .transient), (.transient, .scoped),
            (.graph, .scoped), (.singleton, .transient), (.singleton, .weak), (.singleton, .eagerSingleton),
            (.weak, .singleton), (.weak, .transient), (.weak, .weak), (.scoped, .weak), (.graph, .weak),
        ]
    )
    func dependencyThatLivesAtLeastAsLongIsNotCaptive(holder: Lifetime, dependency: Lifetime) {
        var builder = ContainerBuilder()
        builder.register(Order.self, lifetime: dependency, using: Order.init)
        builder.register(Holder.self, lifetime: holder, using: { (_: Order) in Holder() })

        #expect(builder.validate().isEmpty)
    }

    /// A `.weak` instance is handed to every scope and call while anything holds it, so what it
    /// holds must live as long as a singleton.
    @Test(arguments: [Lifetime.scoped, .graph])
    func weakServiceHoldingAScopedOrGraphOneIsCaptive(captive: Lifetime) {
        var builder = ContainerBuilder()
        builder.register(Order.self, lifetime: captive, using: Order.init)
        builder.register(Holder.self, lifetime: .weak, using: { (_: Order) in Holder() })

        let problems = builder.validate()

        #expect(problems.map(\.code) == [.captiveDependency])
        #expect(problems.first?.summary == "captive dependency: Holder (.weak) depends on Order (\(captive))")
        #expect(
            problems.first?.hints == [
                "a .weak instance is shared by every scope and call while anything holds it, so it outlives "
                    + "each \(captive) instance; make Holder \(captive) or shorter-lived, or make Order live as long"
            ]
        )
    }

    @Test func captiveDependencyIsFoundThroughATransientChain() {
        var builder = ContainerBuilder()
        builder.register(Holder.self, lifetime: .singleton, using: { (_: Middle) in Holder() })
        builder.register(Middle.self, using: { (_: Leaf) in Middle() })
        builder.register(Leaf.self, using: { (_: Wheel, _: Order) in Leaf() })
        builder.register(Wheel.self, using: Wheel.init)
        builder.register(Order.self, lifetime: .scoped, using: Order.init)

        let error = #expect(throws: GraftError.self) { try builder.build() }

        #expect(
            error?.description == """
                Graft: build() found 1 problem
                  1. captive dependency: Holder (.singleton) depends on Order (.scoped)
                     resolving: Holder → Middle → Leaf → Order
                     a .singleton outlives each .scoped instance; make Holder .scoped or shorter-lived, or make Order live as long
                """
        )
    }

    @Test(arguments: [
        (
            Lifetime.singleton,
            "captive dependency: Holder (.singleton) resolved Order (.scoped) while being created",
            "a .singleton outlives each .scoped instance; make Holder .scoped, or make Order live as long"
        ),
        (
            .weak,
            "captive dependency: Holder (.weak) resolved Order (.scoped) while being created",
            "a .weak instance is shared by every scope and call while anything holds it, so it outlives each "
                + ".scoped instance; make Holder .scoped, or make Order live as long"
        ),
    ])
    func captiveDependencyThroughAClosureIsFoundWhenResolving(holder: Lifetime, summary: String, hint: String) throws {
        var builder = ContainerBuilder()
        builder.register(Order.self, lifetime: .scoped, using: Order.init)
        builder.register(Holder.self, lifetime: holder) { r in
            _ = try r.resolve(Order.self)
            return Holder()
        }
        let container = try builder.build()

        let error = #expect(throws: GraftError.self) { try container.makeScope().resolve(Holder.self) }

        #expect(error?.code == .captiveDependency)
        #expect(error?.description == "Graft: \(summary)\n  resolving: Holder → Order\n  \(hint)")
    }

    @Test func unmetModuleRequirementNamesTheModule() {
        var builder = ContainerBuilder()
        builder.register(Transmission.self, using: Transmission.init)
        builder.install(PitModule())

        let error = #expect(throws: GraftError.self) { try builder.build() }

        #expect(error?.problems.map(\.code) == [.unmetRequirement])
        #expect(
            error?.description == """
                Graft: build() found 1 problem
                  1. PitModule requires Radio, which nothing registers
                     resolving: PitModule → Radio
                     the app provides it: register Radio before build(), or install a module that does
                """
        )
    }

    @Test func aDependencyOnAnUnmetRequirementIsReportedOnceWithTheRequirement() {
        var builder = ContainerBuilder()
        builder.register(Transmission.self, using: Transmission.init)
        builder.install(PitModule())
        let headsetLine = #line + 1
        builder.register(Headset.self, using: { (_: Radio) in Headset() })

        let error = #expect(throws: GraftError.self) { try builder.build() }

        #expect(error?.problems.map(\.code) == [.unmetRequirement])
        #expect(
            error?.description == """
                Graft: build() found 1 problem
                  1. PitModule requires Radio, which nothing registers
                     resolving: PitModule → Radio
                     the app provides it: register Radio before build(), or install a module that does
                     Headset needs it too (registered at GraftTests/ValidationTests.swift:\(headsetLine))
                """
        )
    }

    @Test func eagerSingletonWhoseFactoryThrowsFailsTheBuildAndDisposesTheOthers() {
        let log = EventLog()
        var builder = ContainerBuilder()
        builder.register(Resource.self, lifetime: .eagerSingleton) { _ in Resource("first", log: log) }
        builder.register((any Engine).self, lifetime: .eagerSingleton) { _ -> any Engine in
            throw Jammed(part: "engine")
        }

        let error = #expect(throws: GraftError.self) { try builder.build() }

        #expect(error?.code == .invalidGraph)
        #expect(error?.problems.map(\.code) == [.eagerSingletonFailed])
        #expect(
            error?.problems.first?.summary
                == "eager singleton Engine could not be created during build(): factory of Engine threw: engine is jammed"
        )
        #expect(error?.problems.first?.underlyingError as? Jammed == Jammed(part: "engine"))
        #expect(log.entries == ["first"])
        #expect(builder.validate().isEmpty)
    }

    @Test func eagerSingletonThatNeedsAwaitIsReportedBySynchronousBuild() {
        var builder = ContainerBuilder()
        builder.register(Database.self) { _ async in Database() }
        builder.register(Holder.self, lifetime: .eagerSingleton, using: { (_: Database) in Holder() })

        let error = #expect(throws: GraftError.self) { try builder.build() }

        #expect(
            error?.description == """
                Graft: build() found 1 problem
                  1. eager singleton Holder needs await to be created: it depends on Database, whose factory is async
                     this runs inside a task, but Swift picked the synchronous build() (or validate())
                     in an async function, write `try await builder.build()` (a synchronous function or closure must become async first)
                     in top-level code (main.swift) Swift picks the synchronous overload even after `await`: move the code into an async function or an `@main` type's `static func main() async`
                """
        )
    }

    @Test func severalProblemsAreReportedAtOnceInADeterministicOrder() {
        var builder = garageCycle()
        builder.register(Holder.self, lifetime: .singleton, using: { (_: Order) in Holder() })
        builder.register(Order.self, lifetime: .scoped, using: Order.init)
        builder.register(Transmission.self, using: Transmission.init)
        builder.register(Middle.self, using: { (_: any Engine, _: Transmission) in Middle() })
        builder.install(PitModule())
        builder.register(Dyno.self, using: Dyno.init(engine:))
        builder.register(Database.self) { _ async in Database() }
        builder.register(Leaf.self, lifetime: .eagerSingleton, using: { (_: Database) in Leaf() })

        let error = #expect(throws: GraftError.self) { try builder.build() }
        let again = #expect(throws: GraftError.self) { try builder.build() }

        #expect(
            error?.problems.map(\.code) == [
                .missingDependency, .missingDependency, .unmetRequirement, .cycle, .captiveDependency, .needsAwait,
            ]
        )
        #expect(
            error?.problems.map(\.summary) == [
                "no registration for Engine, which Middle needs",
                "no registration for Engin, which Dyno needs",
                "PitModule requires Radio, which nothing registers",
                "dependency cycle: Garage → RaceCar → PitCrew → Garage",
                "captive dependency: Holder (.singleton) depends on Order (.scoped)",
                "eager singleton Leaf needs await to be created: it depends on Database, whose factory is async",
            ]
        )
        #expect(error?.summary == "build() found 6 problems")
        #expect(error?.description == again?.description)
    }

    @Test func validateReturnsTheProblemsWithoutThrowingOrCreatingAnything() {
        let calls = Counter()
        var builder = garageCycle()
        builder.register(Resource.self, lifetime: .eagerSingleton) { _ in
            calls.increment()
            return Resource("eager", log: EventLog())
        }

        let problems = builder.validate()
        let error = #expect(throws: GraftError.self) { try builder.build() }

        #expect(problems.map(\.description) == error?.problems.map(\.description))
        #expect(calls.value == 0)
    }

    @Test func fiftyProblemsStayReadable() {
        var builder = ContainerBuilder()
        for index in 0..<50 {
            builder.register(Wheel.self, name: "\(index)", using: { (_: Engin) in Wheel() })
        }

        let error = #expect(throws: GraftError.self) { try builder.build() }

        #expect(error?.problems.count == 50)
        let lines = error?.description.split(separator: "\n") ?? []
        #expect(lines.first == "Graft: build() found 50 problems")
        #expect(lines.contains(#"  50. no registration for Engin, which Wheel["49"] needs"#))
        #expect(lines.allSatisfy { $0.count < 200 })
    }

    @Test func tenThousandServicesInADeepChainValidate() throws {
        let (builder, _) = chainBuilder(count: 10_000)

        #expect(builder.count == 10_000)
        #expect(builder.validate().isEmpty)
        _ = try builder.build()
    }

    @Test func tenThousandServicesInADeepChainResolve() throws {
        let (builder, top) = chainBuilder(count: 10_000)
        let container = try builder.build()

        #expect(try resolveDepth(of: top, from: container) == 9_999)
    }
}

@Suite struct DeclaredClosureDependencyTests {
    private final class Pump: Sendable {}
    private final class Boiler: Sendable {
        let pump: Pump

        init(pump: Pump) {
            self.pump = pump
        }
    }

    @Test func closureWithDeclaredDependenciesIsCheckedByBuild() throws {
        var builder = ContainerBuilder()
        builder.register(Boiler.self, dependencies: [Requirement(Pump.self, name: "main")]) { r in
            Boiler(pump: try r.resolve(Pump.self, name: "main"))
        }
        let error = #expect(throws: GraftError.self) { try builder.build() }
        #expect(error?.problems.map(\.code) == [.missingDependency])
        #expect(error?.problems.first?.summary == #"no registration for Pump (name: "main"), which Boiler needs"#)
    }

    @Test func closureWithDeclaredDependenciesResolves() throws {
        var builder = ContainerBuilder()
        builder.register(Pump.self, lifetime: .singleton) { _ in Pump() }
        builder.register(Pump.self, name: "main", lifetime: .singleton) { _ in Pump() }
        builder.register(Boiler.self, dependencies: [Requirement(Pump.self, name: "main")]) { r in
            Boiler(pump: try r.resolve(Pump.self, name: "main"))
        }
        #expect(builder.validate().isEmpty)
        let container = try builder.build()

        let boiler = try container.resolve(Boiler.self)

        #expect(try boiler.pump === container.resolve(Pump.self, name: "main"))
        #expect(try boiler.pump !== container.resolve(Pump.self))
    }

    @Test func declaredCycleThroughClosuresIsFoundByBuild() throws {
        var builder = ContainerBuilder()
        builder.register(Pump.self, dependencies: [Requirement(Boiler.self)]) { r in
            _ = try r.resolve(Boiler.self)
            return Pump()
        }
        builder.register(Boiler.self, using: Boiler.init(pump:))
        let error = #expect(throws: GraftError.self) { try builder.build() }
        #expect(error?.problems.first?.summary == "dependency cycle: Pump → Boiler → Pump")
    }
}
