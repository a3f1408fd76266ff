import GraftMacros
import Synchronization

protocol Engine: Sendable {}
protocol Diagnosable: Sendable {}

enum V12: ServiceName { static let name = "v12" }

/// What was disposed, in order.
final class DisposalLog: Sendable {
    private let names = Mutex<[String]>([])

    var disposed: [String] { names.withLock { $0 } }

    func record(_ name: String) { names.withLock { $0.append(name) } }
}

// The macro's types.

@Injectable(.singleton, as: (any Engine).self, (any Diagnosable).self)
final class MacroEngine: Engine, Diagnosable {
    init() {}
}

@Injectable
final class MacroCar: Sendable {
    let engine: any Engine
    let spare: any Engine
    let radio: Radio

    init(@Named("v12") engine: any Engine, @Named(V12.self) spare: any Engine, radio: Radio) {
        self.engine = engine
        self.spare = spare
        self.radio = radio
    }
}

@Injectable(.scoped)
final class MacroPitWall: Disposable {
    let log: DisposalLog

    init(log: DisposalLog) { self.log = log }

    func dispose() { log.record("MacroPitWall") }
}

@Injectable
final class MacroPitStop: Sendable {
    let lap: Int
    let car: MacroCar

    init(@Argument lap: Int, car: MacroCar) {
        self.lap = lap
        self.car = car
    }
}

@Injectable
struct Radio {
    let log: DisposalLog
}

@Injectable
final class MacroMissingName: Sendable {
    init(@Named("v8") engine: any Engine) {}
}

@Injectable
final class MacroStrategy: Sendable {
    let cars: Provider<MacroCar>
    let engines: All<any Engine>
    let pitStops: Factory<MacroPitStop, Int>

    init(cars: Provider<MacroCar>, engines: All<any Engine>, pitStops: Factory<MacroPitStop, Int>) {
        self.cars = cars
        self.engines = engines
        self.pitStops = pitStops
    }
}

@Injectable(.singleton)
actor MacroTelemetry {
    init(radio: Radio) async throws {}
}

// The same types, registered by hand.

final class HandEngine: Engine, Diagnosable {
    init() {}
}

final class HandCar: Sendable {
    let engine: any Engine
    let spare: any Engine
    let radio: Radio

    init(engine: Graft.Named<any Engine, V12>, spare: Graft.Named<any Engine, V12>, radio: Radio) {
        self.engine = engine.value
        self.spare = spare.value
        self.radio = radio
    }
}

final class HandPitWall: Disposable {
    let log: DisposalLog

    init(log: DisposalLog) { self.log = log }

    func dispose() { log.record("HandPitWall") }
}

final class HandPitStop: Sendable {
    let lap: Int
    let car: HandCar

    init(lap: Int, car: HandCar) {
        self.lap = lap
        self.car = car
    }
}
