import Graft
import Synchronization

/// The seeds' `createRaceTrack`: its initializer cannot take the car, so the car is set
/// through a property after construction (an activation hook).
final class RaceTrack: Sendable {
    let name: String
    private let currentCar = Mutex<RaceCar?>(nil)

    init(name: String) {
        self.name = name
    }

    var car: RaceCar? {
        get { currentCar.withLock { $0 } }
        set { currentCar.withLock { $0 = newValue } }
    }
}

/// Built by "a framework" we do not control: its dependencies arrive through `@Injected`.
final class LapTimer {
    @Injected var track: RaceTrack
    @Injected var radio: PitRadio

    func announce(lap: Int) -> String {
        "lap \(lap) at \(track.name), radioed on \(radio.frequency.megahertz) MHz"
    }
}

/// Configured by key, as the seeds' `initWithParams:` did, from values or a JSON file.
struct Livery: KeyValueInitializable, Sendable {
    var colour = "white"
    var number = 0
    var sponsor: String?
    var stripes = Stripes()

    static let injectableKeys: InjectableKeys<Livery> = [
        .required("colour", \.colour),
        .required("number", \.number),
        .optional("sponsor", \.sponsor),
        .nested("stripes", \.stripes, required: false),
    ]
}

struct Stripes: KeyValueInjectable, Sendable {
    var count = 0
    var colour = "none"

    static let injectableKeys: InjectableKeys<Stripes> = [
        .required("count", \.count),
        .optional("colour", \.colour),
    ]
}
