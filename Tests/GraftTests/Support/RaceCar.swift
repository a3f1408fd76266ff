import Graft

// The seeds' race car, shared by the suites.

protocol Engine: Sendable {
    var name: String { get }
}

protocol Diagnosable: Sendable {
    var report: String { get }
}

final class RCEngine: Engine, Diagnosable {
    let name: String

    init(name: String = "rc") {
        self.name = name
    }

    var report: String { "\(name): all good" }
}

final class V12Engine: Engine {
    let name = "v12"
}

final class Transmission: Sendable {
    init() {}
}

final class Wheel: Sendable {
    init() {}
}

final class RaceCar: Sendable {
    let engine: any Engine
    let transmission: Transmission

    init(engine: any Engine, transmission: Transmission) {
        self.engine = engine
        self.transmission = transmission
    }
}
