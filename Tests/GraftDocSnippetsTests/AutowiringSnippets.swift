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

    @Test func aMissingDependencyIsFoundByBuild() {
        var incomplete = ContainerBuilder()
        incomplete.register(RaceCar.self, using: RaceCar.init(engine:transmission:telemetry:))
        let problems = incomplete.validate()
        #expect(problems.contains { "\($0)".contains("no registration for Transmission, which RaceCar needs") })
    }
}
