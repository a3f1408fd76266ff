import Graft

/// Configuration lives here, not in the parts: the seeds' convenience constructor, as a module.
struct PitCrewModule: Module {
    /// The app must hand in the radio frequency: the module does not reach for a global.
    var requirements: [Requirement] { [Requirement(RadioFrequency.self)] }

    func register(in builder: inout ContainerBuilder) {
        builder.register(RCEngine.self, lifetime: .singleton) { _ in RCEngine() }
        builder.alias((any Engine).self, to: RCEngine.self)
        builder.alias((any Diagnosable).self, to: RCEngine.self)
        builder.register((any Engine).self, name: "v12", lifetime: .singleton) { _ in V12Engine() }
        builder.register(Transmission.self, lifetime: .singleton) { _ in Transmission(gears: 6) }

        builder.register(Wheel.self, using: Wheel.init)
        builder.register(FireExtinguisher.self, lifetime: .singleton, using: FireExtinguisher.init)
        builder.register(PitRadio.self, lifetime: .singleton, using: PitRadio.init(frequency:))
        builder.register(
            RaceCar.self,
            lifetime: .singleton,
            using: RaceCar.init(engine:transmission:wheels:extinguisher:radio:)
        )
        builder.register(PitStopOrder.self, lifetime: .scoped, using: PitStopOrder.init(car:))
        builder.register(PitStop.self, arguments: Lap.self, using: PitStop.init(lap:car:radio:))
        builder.register(RaceStrategy.self, lifetime: .singleton, using: RaceStrategy.init(pitStops:))

        builder.register(RaceTrack.self, lifetime: .singleton) { _ in RaceTrack(name: "Monza") }
        builder.onActivation(RaceTrack.self) { track, r in track.car = try r.resolve(RaceCar.self) }

        builder.register(Livery.self, lifetime: .singleton, using: Livery.init)
        builder.configure(Livery.self, with: ["colour": "rosso corsa", "number": 16, "stripes.count": 2])
    }
}
