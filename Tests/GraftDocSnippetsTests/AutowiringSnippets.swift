import Graft
import Testing

// The code of the article "Autowiring" (Autowiring.md), compiled and run.

protocol Engine: Sendable {}

final class V12Engine: Engine {
    init() {}
}

final class Transmission: Sendable {
    init() {}
}

final class Telemetry: Sendable {
    init() {}
}

final class RaceCar: Sendable {
    let engine: any Engine
    let telemetry: Telemetry?

    init(engine: any Engine, transmission: Transmission, telemetry: Telemetry?) {
        self.engine = engine
        self.telemetry = telemetry
    }
}

@Suite struct AutowiringSnippets {
    @Test func theInitializersParametersAreTheDependencies() throws {
        var builder = ContainerBuilder()
        builder.register((any Engine).self, lifetime: .singleton) { _ in V12Engine() }
        builder.register(Transmission.self, using: Transmission.init)
        builder.register(RaceCar.self, using: RaceCar.init(engine:transmission:telemetry:))
        let car = try builder.build().resolve(RaceCar.self)
        #expect(car.telemetry == nil)  // Telemetry is not registered: the optional is nil
        #expect(car.engine is V12Engine)
    }

    /// The article quotes what `build()` says when `Transmission` is left out; this is it, word
    /// for word.
    @Test func aMissingDependencyIsFoundByBuild() throws {
        let article = try DocumentedCodeTests.document(DocumentedCodeTests.articles + "Autowiring.md")
        let quoted = try #require(DocumentedCodeTests.plainBlocks(of: article).first)
        var incomplete = ContainerBuilder()
        incomplete.register((any Engine).self, lifetime: .singleton) { _ in V12Engine() }
        // Where the article's app registered it.
        incomplete.register(
            RaceCar.self,
            fileID: "RaceCar/Wiring.swift",
            line: 12,
            using: RaceCar.init(engine:transmission:telemetry:)
        )

        let error = #expect(throws: GraftError.self) { try incomplete.build() }

        #expect(error.map { "\($0)" } == quoted)
    }
}

// Runtime arguments.

struct Lap: Sendable {
    let number: Int
}

final class PitStop: Sendable {
    let lap: Lap
    let car: RaceCar

    init(lap: Lap, car: RaceCar, radio: PitRadio) {
        self.lap = lap
        self.car = car
    }
}

final class RaceStrategy: Sendable {
    private let pitStops: Factory<PitStop, Lap>
    init(pitStops: Factory<PitStop, Lap>) { self.pitStops = pitStops }

    func boxBox(on lap: Lap) throws -> PitStop { try pitStops.make(lap) }
}

@Suite struct RuntimeArgumentSnippets {
    @Test func aCallerPassesTheLapAndTheGraphSuppliesTheRest() throws {
        var builder = ContainerBuilder()
        builder.register((any Engine).self, lifetime: .singleton) { _ in V12Engine() }
        builder.register(Transmission.self, using: Transmission.init)
        builder.register(RaceCar.self, lifetime: .singleton, using: RaceCar.init(engine:transmission:telemetry:))
        builder.register(PitRadio.self, instance: PitRadio(frequency: RadioFrequency(megahertz: 433)))
        builder.register(PitStop.self, arguments: Lap.self, using: PitStop.init(lap:car:radio:))
        builder.register(RaceStrategy.self, using: RaceStrategy.init(pitStops:))
        let container = try builder.build()

        let stop = try container.resolve(PitStop.self, arguments: Lap(number: 18))
        let strategy = try container.resolve(RaceStrategy.self)

        #expect(stop.lap.number == 18)
        #expect(try strategy.boxBox(on: Lap(number: 41)).lap.number == 41)
    }
}
