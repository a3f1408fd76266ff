import Graft

// The seeds' race car: an engine, a transmission, four wheels and a spare from a wheel
// factory, a fire extinguisher made only when there is a fire, and the pit radio frequency
// passed in rather than reached for.

protocol Engine: Sendable {
    var name: String { get }
}

protocol Diagnosable: Sendable {
    func diagnose() -> String
}

final class RCEngine: Engine, Diagnosable {
    let name = "RC engine"
    func diagnose() -> String { "RC engine: all cylinders firing" }
}

final class V12Engine: Engine {
    let name = "V12 engine"
}

final class Transmission: Sendable {
    let gears: Int

    init(gears: Int) {
        self.gears = gears
    }
}

final class Wheel: Sendable {
    init() {}
}

final class FireExtinguisher: Sendable {
    init() {
        print("  (a fire extinguisher is made only now, when there is a fire)")
    }

    func spray() -> String { "fire is out" }
}

struct RadioFrequency: Sendable {
    let megahertz: Double
}

final class PitRadio: Disposable {
    let frequency: RadioFrequency

    init(frequency: RadioFrequency) {
        self.frequency = frequency
    }

    func dispose() {
        print("  pit radio at \(frequency.megahertz) MHz switched off")
    }
}

final class RaceCar: Sendable {
    let engine: any Engine
    let transmission: Transmission
    let wheels: [Wheel]
    let spareWheels: Provider<Wheel>
    let extinguisher: Lazy<FireExtinguisher>
    let radio: PitRadio

    init(
        engine: any Engine,
        transmission: Transmission,
        wheels: Provider<Wheel>,
        extinguisher: Lazy<FireExtinguisher>,
        radio: PitRadio
    ) throws {
        self.engine = engine
        self.transmission = transmission
        self.wheels = try (0..<4).map { _ in try wheels.get() }
        self.spareWheels = wheels
        self.extinguisher = extinguisher
        self.radio = radio
    }
}

final class PitStopOrder: Sendable {
    let car: RaceCar

    init(car: RaceCar) {
        self.car = car
    }
}

/// A lap number: known only during the race, so it is a runtime argument, not a registration.
struct Lap: Sendable, CustomStringConvertible {
    let number: Int

    var description: String { "lap \(number)" }
}

/// A pit stop made for one lap: the lap comes from the caller, the car and radio from the graph
/// (the seeds' `raceCarWithPitRadioFrequency:`, a value from the call site plus dependencies).
final class PitStop: Sendable {
    let lap: Lap
    let car: RaceCar
    let radio: PitRadio

    init(lap: Lap, car: RaceCar, radio: PitRadio) {
        self.lap = lap
        self.car = car
        self.radio = radio
    }
}

/// Calls cars in for stops on laps it decides during the race; it never sees the container.
final class RaceStrategy: Sendable {
    private let pitStops: Factory<PitStop, Lap>

    init(pitStops: Factory<PitStop, Lap>) {
        self.pitStops = pitStops
    }

    func boxBox(on lap: Lap) throws -> PitStop {
        try pitStops.make(lap)
    }
}
