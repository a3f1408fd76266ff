import GraftMacros

// The README's race car, each part registered from its own declaration: the same graph as
// Examples/RaceCar/PitCrewModule.swift registers by hand.

protocol Engine: Sendable {
    var name: String { get }
}

protocol Diagnosable: Sendable {
    func diagnose() -> String
}

@Injectable(.singleton, as: (any Engine).self, (any Diagnosable).self)
final class RCEngine: Engine, Diagnosable {
    let name = "RC engine"

    init() {}

    func diagnose() -> String { "RC engine: all cylinders firing" }
}

final class V12Engine: Engine {
    let name = "V12 engine"
}

@Injectable(.singleton)
final class Transmission: Sendable {
    let gears: Int

    init() { self.gears = 6 }
}

@Injectable
final class Wheel: Sendable {
    init() {}
}

@Injectable(.singleton)
final class FireExtinguisher: Sendable {
    init() { print("  (a fire extinguisher is made only now, when there is a fire)") }

    func spray() -> String { "fire is out" }
}

struct RadioFrequency: Sendable {
    let megahertz: Double
}

/// Disposed when the container shuts down, as the hand-written registration would.
@Injectable(.singleton)
final class PitRadio: Disposable {
    let frequency: RadioFrequency

    init(frequency: RadioFrequency) { self.frequency = frequency }

    func dispose() { print("  pit radio at \(frequency.megahertz) MHz switched off") }
}

@Injectable(.singleton)
final class RaceCar: Sendable {
    let engine: any Engine
    let spareEngine: any Engine
    let transmission: Transmission
    let wheels: [Wheel]
    let extinguisher: Lazy<FireExtinguisher>
    let radio: PitRadio

    init(
        engine: any Engine,
        @Named("v12") spareEngine: any Engine,
        transmission: Transmission,
        wheels: Provider<Wheel>,
        extinguisher: Lazy<FireExtinguisher>,
        radio: PitRadio
    ) throws {
        self.engine = engine
        self.spareEngine = spareEngine
        self.transmission = transmission
        self.wheels = try (0..<4).map { _ in try wheels.get() }
        self.extinguisher = extinguisher
        self.radio = radio
    }
}

/// A lap number: known only during the race, a runtime argument.
struct Lap: Sendable {
    let number: Int
}

@Injectable
final class PitStop: Sendable {
    let lap: Lap
    let car: RaceCar

    init(@Argument lap: Lap, car: RaceCar) {
        self.lap = lap
        self.car = car
    }
}

/// Calls cars in for stops; it never sees the container.
@Injectable(.singleton)
final class RaceStrategy: Sendable {
    private let pitStops: Factory<PitStop, Lap>

    init(pitStops: Factory<PitStop, Lap>) { self.pitStops = pitStops }

    func boxBox(on lap: Lap) throws -> PitStop { try pitStops.make(lap) }
}
