import Graft
import Testing

private struct Lap: Sendable, Equatable {
    let number: Int
}

private final class PitCrew: Sendable {}

private struct Tyres: Sendable {
    let compound: String
}

private final class PitStop: Sendable {
    let lap: Lap
    let crew: PitCrew
    let tyres: Tyres

    init(lap: Lap, crew: PitCrew, tyres: Tyres) {
        self.lap = lap
        self.crew = crew
        self.tyres = tyres
    }

    /// The same, with the argument after a dependency.
    convenience init(crew: PitCrew, lap: Lap) {
        self.init(lap: lap, crew: crew, tyres: Tyres(compound: "medium"))
    }
}

/// Two arguments of one type: a stint from one lap to another.
private struct Stint: Sendable {
    let from: Lap
    let to: Lap
    let crew: PitCrew
}

/// Needs pit stops for laps only known during the race, without seeing the container.
private final class RaceStrategy: Sendable {
    let pitStops: Factory<PitStop, Lap>

    init(pitStops: Factory<PitStop, Lap>) {
        self.pitStops = pitStops
    }
}

private final class WrongStrategy: Sendable {
    init(pitStops: Factory<PitStop, String>) {}
}

private final class PlainStrategy: Sendable {
    init(pitStop: PitStop) {}
}

private final class CrewFactoryUser: Sendable {
    init(crews: Factory<PitCrew, Lap>) {}
}

private final class Debrief: Disposable {
    let disposals = Counter()
    init(lap: Lap) {}
    func dispose() { disposals.increment() }
}

private func pitBuilder() -> ContainerBuilder {
    var builder = ContainerBuilder()
    builder.register(PitCrew.self, lifetime: .singleton, fileID: "Pit.swift", line: 1, using: PitCrew.init)
    builder.register(Tyres.self) { _ in Tyres(compound: "soft") }
    builder.register(PitStop.self, arguments: Lap.self, using: PitStop.init(lap:crew:tyres:))
    return builder
}

@Suite struct RuntimeArgumentsReachTheService {
    @Test func anAutowiredServiceGetsTheCallersArgumentsAndTheGraphsDependencies() throws {
        let container = try pitBuilder().build()

        let first = try container.resolve(PitStop.self, arguments: Lap(number: 12))
        let second = try container.resolve(PitStop.self, arguments: Lap(number: 31))

        #expect(first.lap == Lap(number: 12))
        #expect(second.lap == Lap(number: 31))
        #expect(first.tyres.compound == "soft")
        #expect(first !== second)
        #expect(first.crew === second.crew)
    }

    @Test func anArgumentMayBeAnyParameterAndArgumentsOfOneTypeKeepTheirOrder() throws {
        var builder = ContainerBuilder()
        builder.register(PitCrew.self, lifetime: .singleton, using: PitCrew.init)
        builder.register(PitStop.self, arguments: Lap.self, using: PitStop.init(crew:lap:))
        builder.register(Stint.self, arguments: Lap.self, Lap.self, using: Stint.init(from:to:crew:))
        let container = try builder.build()

        let stop = try container.resolve(PitStop.self, arguments: Lap(number: 7))
        let stint = try container.resolve(Stint.self, arguments: Lap(number: 1), Lap(number: 18))

        #expect(stop.lap == Lap(number: 7))
        #expect(stop.tyres.compound == "medium")
        #expect(stint.from == Lap(number: 1))
        #expect(stint.to == Lap(number: 18))
    }

    @Test func aClosureFactoryReceivesTheArgumentsAfterItsResolver() async throws {
        var builder = ContainerBuilder()
        builder.register(PitCrew.self, lifetime: .singleton, using: PitCrew.init)
        builder.register(PitStop.self, arguments: Lap.self, String.self) { r, lap, compound in
            PitStop(lap: lap, crew: try r.resolve(PitCrew.self), tyres: Tyres(compound: compound))
        }
        builder.register(Stint.self, arguments: Lap.self) { r, lap async throws in
            Stint(from: lap, to: Lap(number: lap.number + 20), crew: try await r.resolve(PitCrew.self))
        }
        let container = try await builder.build()

        let stop = try await container.resolve(PitStop.self, arguments: Lap(number: 40), "hard")
        let stint = try await container.resolve(Stint.self, arguments: Lap(number: 3))

        #expect(stop.lap == Lap(number: 40))
        #expect(stop.tyres.compound == "hard")
        #expect(stint.to == Lap(number: 23))
    }

    @Test func anAsyncInitializerTakesArgumentsToo() async throws {
        var builder = pitBuilder()
        builder.register(Stint.self, arguments: Lap.self, Lap.self) { (from: Lap, to: Lap, crew: PitCrew) async in
            Stint(from: from, to: to, crew: crew)
        }
        let container = try await builder.build()

        let stint = try await container.resolve(Stint.self, arguments: Lap(number: 5), Lap(number: 9))

        #expect(stint.from == Lap(number: 5))
        #expect(stint.to == Lap(number: 9))
    }

    @Test func anInjectedFactoryMakesTheServiceFromArgumentsWithoutTheContainer() async throws {
        var builder = pitBuilder()
        builder.register(RaceStrategy.self, lifetime: .singleton, using: RaceStrategy.init(pitStops:))
        let container = try await builder.build()
        let strategy = try await container.resolve(RaceStrategy.self)
        let makeSynchronously = { () throws -> PitStop in try strategy.pitStops.make(Lap(number: 14)) }

        let early = try makeSynchronously()
        let late = try await strategy.pitStops.make(Lap(number: 44))

        #expect(early.lap == Lap(number: 14))
        #expect(late.lap == Lap(number: 44))
        #expect(early.crew === late.crew)
    }

    @Test func aScopeOwnsTheDisposableInstancesItMakesWithArguments() throws {
        var builder = ContainerBuilder()
        builder.register(Debrief.self, arguments: Lap.self, using: Debrief.init(lap:))
        let container = try builder.build()
        let scope = container.makeScope()

        let debrief = try scope.resolve(Debrief.self, arguments: Lap(number: 2))
        #expect(debrief.disposals.value == 0)
        try scope.close()

        #expect(debrief.disposals.value == 1)
    }

    @Test func concurrentCallersEachGetTheirOwnArguments() async throws {
        var builder = pitBuilder()
        builder.register(RaceStrategy.self, lifetime: .singleton, using: RaceStrategy.init(pitStops:))
        let container = try await builder.build()

        let mismatches = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var mismatches = 0
                    for lap in 0..<300 {
                        let number = task * 1000 + lap
                        let made = try? await container.resolve(RaceStrategy.self).pitStops.make(Lap(number: number))
                        if made?.lap.number != number { mismatches += 1 }
                    }
                    return mismatches
                }
            }
            return await group.reduce(0, +)
        }

        #expect(mismatches == 0)
    }

    @Test func theGraphExportShowsTheArgumentTypes() throws {
        let dot = try pitBuilder().build().exportGraph(as: .dot)

        #expect(dot.contains("arguments (Lap)"))
    }
}

@Suite struct RuntimeArgumentMistakes {
    @Test func resolvingWithoutTheArgumentsSaysHowToPassThem() throws {
        let container = try pitBuilder().build()

        let error = #expect(throws: GraftError.self) { try container.resolve(PitStop.self) }

        #expect(error?.code == .runtimeArguments)
        #expect(
            error?.description == """
                Graft: PitStop takes runtime arguments (Lap), and this resolve passed none
                  pass them: resolve(PitStop.self, arguments: …), or inject Factory<PitStop, Lap> and call make(…)
                """
        )
    }

    @Test func argumentsOfOtherTypesAreRefusedBeforeAnythingIsMade() throws {
        var builder = pitBuilder()
        builder.register(Stint.self, arguments: Lap.self, Lap.self, using: Stint.init(from:to:crew:))
        let container = try builder.build()

        let wrongType = #expect(throws: GraftError.self) { try container.resolve(PitStop.self, arguments: 12) }
        let tooFew = #expect(throws: GraftError.self) {
            try container.resolve(Stint.self, arguments: Lap(number: 1))
        }
        let unexpected = #expect(throws: GraftError.self) {
            try container.resolve(PitCrew.self, arguments: Lap(number: 1))
        }

        #expect(
            wrongType?.description == """
                Graft: PitStop takes runtime arguments (Lap), but was given (Int)
                  pass exactly these types, in this order: resolve(PitStop.self, arguments: …) with (Lap)
                """
        )
        #expect(
            tooFew?.description == """
                Graft: Stint takes runtime arguments (Lap, Lap), but was given (Lap)
                  pass exactly these types, in this order: resolve(Stint.self, arguments: …) with (Lap, Lap)
                """
        )
        #expect(
            unexpected?.description == """
                Graft: PitCrew takes no runtime arguments, but was given (Lap)
                  resolve it without arguments: resolve(PitCrew.self), or declare them where it is registered (Pit.swift:1): register(PitCrew.self, arguments: …)
                """
        )
    }

    @Test func aSharedLifetimeWithArgumentsIsABuildProblem() {
        var builder = ContainerBuilder()
        builder.register(PitCrew.self, lifetime: .singleton, using: PitCrew.init)
        builder.register(
            Debrief.self,
            lifetime: .scoped,
            arguments: Lap.self,
            fileID: "Debrief.swift",
            line: 4,
            using: Debrief.init(lap:)
        )

        let error = #expect(throws: GraftError.self) { try builder.build() }

        #expect(error?.problems.map(\.code) == [.runtimeArguments])
        #expect(
            error?.problems.first?.description == """
                Graft: Debrief takes runtime arguments (Lap) but is .scoped: one shared instance cannot be made from each caller's arguments
                  make it .transient (the default); to share one instance per argument, keep them in a .singleton cache keyed by it
                  Debrief was registered at Debrief.swift:4
                """
        )
    }

    @Test func dependingOnAServiceWithArgumentsWithoutAFactoryIsABuildProblem() {
        var builder = pitBuilder()
        builder.register(PlainStrategy.self, fileID: "Strategy.swift", line: 9, using: PlainStrategy.init(pitStop:))

        let error = #expect(throws: GraftError.self) { try builder.build() }

        #expect(error?.problems.count == 1)
        #expect(
            error?.problems.first?.description == """
                Graft: PlainStrategy depends on PitStop, which takes runtime arguments (Lap)
                  resolving: PlainStrategy → PitStop
                  inject Factory<PitStop, Lap> and call make(…) with the arguments
                  PlainStrategy was registered at Strategy.swift:9
                """
        )
    }

    @Test func aFactoryWhoseArgumentTypesDoNotMatchIsABuildProblem() {
        var builder = pitBuilder()
        builder.register(WrongStrategy.self, fileID: "Strategy.swift", line: 12, using: WrongStrategy.init(pitStops:))
        builder.register(CrewFactoryUser.self, fileID: "Crew.swift", line: 3, using: CrewFactoryUser.init(crews:))

        let error = #expect(throws: GraftError.self) { try builder.build() }

        #expect(error?.problems.map(\.code) == [.runtimeArguments, .runtimeArguments])
        #expect(
            error?.problems.map(\.description) == [
                """
                Graft: WrongStrategy injects Factory<PitStop, String>, but PitStop takes runtime arguments (Lap)
                  resolving: WrongStrategy → PitStop
                  inject Factory<PitStop, Lap>
                  WrongStrategy was registered at Strategy.swift:12
                """,
                """
                Graft: CrewFactoryUser injects Factory<PitCrew, Lap>, but PitCrew takes no runtime arguments
                  resolving: CrewFactoryUser → PitCrew
                  inject Provider<PitCrew>, or declare the arguments where PitCrew is registered (Pit.swift:1)
                  CrewFactoryUser was registered at Crew.swift:3
                """,
            ]
        )
    }

    @Test func declaringAnArgumentTheInitializerDoesNotTakeIsABuildProblem() {
        var builder = ContainerBuilder()
        builder.register(PitCrew.self, lifetime: .singleton, using: PitCrew.init)
        builder.register(
            PitStop.self,
            arguments: Lap.self,
            String.self,
            fileID: "Pit.swift",
            line: 20,
            using: PitStop.init(crew:lap:)
        )

        let error = #expect(throws: GraftError.self) { try builder.build() }

        #expect(
            error?.problems.first?.description == """
                Graft: PitStop declares runtime argument String, which its initializer does not take
                  declare only the types of the initializer's parameters that callers pass (Pit.swift:20)
                """
        )
        // validate() reports the same.
        #expect(builder.validate().map(\.description) == error?.problems.map(\.description))
    }
}
