import Foundation
import Graft
import Testing

// The code of the article "The seeds' tour" (SeedsTour.md), compiled and run. Its types live in
// an enum so they do not collide with other articles' race cars.

enum SeedsTourArticle {
    struct Fire: Sendable {}

    protocol Engine: Sendable {}
    protocol Diagnosable: Sendable {
        func diagnose() -> String
    }
    final class RCEngine: Engine, Diagnosable {
        func diagnose() -> String { "all cylinders firing" }
    }

    final class Transmission: Sendable {}
    final class Wheel: Sendable {}

    final class FireExtinguisher: Sendable {
        let uses = Counter()
        func extinguish(_ fire: Fire) { uses.add() }
    }

    struct RadioFrequency: Sendable {
        let megahertz: Double
    }

    final class RaceCar: Sendable {
        let engine: any Engine  // given, never made here: a test can give another
        let transmission: Transmission
        let wheels: [Wheel]
        let wheelFactory: Provider<Wheel>
        let extinguisher: Lazy<FireExtinguisher>
        let radio: RadioFrequency

        init(
            engine: any Engine,
            transmission: Transmission,
            wheels: Provider<Wheel>,
            extinguisher: Lazy<FireExtinguisher>,
            radio: RadioFrequency
        ) throws {
            self.engine = engine
            self.transmission = transmission
            self.wheels = try (0..<4).map { _ in try wheels.get() }  // four wheels now
            self.wheelFactory = wheels  // and the factory kept, for a spare later
            self.extinguisher = extinguisher
            self.radio = radio
        }

        func recoverFromCrash(_ fire: Fire) throws {
            try extinguisher.value.extinguish(fire)  // made on the first crash, if there is one
        }

        func spareWheel() throws -> Wheel {
            try wheelFactory.get()
        }
    }

    /// The seeds' convenience constructor, `raceCarWithPitRadioFrequency:`, as a module.
    struct RaceCarModule: Module {
        var requirements: [Requirement] { [Requirement(RadioFrequency.self)] }  // the app gives it

        func register(in builder: inout ContainerBuilder) {
            builder.register((any Engine).self) { _ in RCEngine() }  // made fresh for each car
            builder.register(Transmission.self, using: Transmission.init)
            builder.register(Wheel.self, using: Wheel.init)
            builder.register(FireExtinguisher.self, using: FireExtinguisher.init)
            builder.register(RaceCar.self, using: RaceCar.init(engine:transmission:wheels:extinguisher:radio:))
        }
    }

    struct Lap: Sendable {
        let number: Int
    }

    final class PitStop: Sendable {
        let lap: Lap
        let car: RaceCar

        init(lap: Lap, car: RaceCar) {
            self.lap = lap
            self.car = car
        }
    }

    final class Garage: Sendable {
        let files: FileManager

        init(files: FileManager) {
            self.files = files  // not FileManager.default, reached for from in here
        }
    }

    final class TrackMarshal: Sendable {}

    /// Made by code we cannot change, so its initializer cannot take the marshal.
    final class RaceTrack {
        @Injected var marshal: TrackMarshal
        var width = 0
    }

    enum TrackFactory {
        static func createRaceTrack() -> RaceTrack { RaceTrack() }
    }

    protocol RaceCarModel: Sendable {
        var topSpeed: Int { get }
    }
    final class FastRaceCar: RaceCarModel {
        let topSpeed: Int
        init(topSpeed: Int) { self.topSpeed = topSpeed }
    }
    final class SlowRaceCar: RaceCarModel {
        let leatherPlushiness: Int
        var topSpeed: Int { 90 }
        init(leatherPlushiness: Int) { self.leatherPlushiness = leatherPlushiness }
    }

    struct ViewStyle: Sendable {
        var backgroundColor = "white"
    }

    struct ScreenSettings: KeyValueInitializable, Sendable {
        var title = ""
        var laps = 0
        var view = ViewStyle()

        init() {}

        static let injectableKeys: InjectableKeys<ScreenSettings> = [
            .required("title", \.title),  // a required key: its absence is reported by name
            .optional("laps", \.laps),  // a value that is not an object
            .optional("view.backgroundColor", \.view.backgroundColor),  // a dotted key path
        ]
    }

    protocol Greeting: AnyObject, Sendable {
        var text: String { get }
    }
    final class Hello: Greeting {
        let text = "hello"
    }
    final class Hola: Greeting {
        let text = "hola"
    }
    final class Telemetry: Sendable {}
    final class Session: Sendable {}
}

extension SeedsTourArticle {
    @Suite struct Snippets {
        /// The app's side of the race car: the module, and the one thing it requires.
        static func raceCarBuilder() -> ContainerBuilder {
            var builder = ContainerBuilder()
            builder.install(RaceCarModule())
            builder.register(RadioFrequency.self, instance: RadioFrequency(megahertz: 433.5))
            return builder
        }

        @Test func initializerInjectionLazyAndProvider() throws {
            let container = try Self.raceCarBuilder().build()
            let car = try container.resolve(RaceCar.self)
            #expect(car.engine is RCEngine)
            #expect(car.radio.megahertz == 433.5)
            #expect(Set(car.wheels.map(ObjectIdentifier.init)).count == 4)
            #expect(try car.spareWheel() !== car.wheels[0])

            #expect(car.extinguisher.isCreated == false)  // no fire yet, so no extinguisher
            try car.recoverFromCrash(Fire())
            try car.recoverFromCrash(Fire())
            #expect(car.extinguisher.isCreated)
            #expect(try car.extinguisher.value.uses.value == 2)  // one extinguisher, used twice
        }

        @Test func aValueWithNoDefaultIsARuntimeArgument() throws {
            var builder = Self.raceCarBuilder()
            builder.register(PitStop.self, arguments: Lap.self, using: PitStop.init(lap:car:))
            let container = try builder.build()

            let stop = try container.resolve(PitStop.self, arguments: Lap(number: 18))

            #expect(stop.lap.number == 18)
        }

        @Test func systemSingletonsArePassedIn() throws {
            var builder = ContainerBuilder()
            builder.register(FileManager.self, instance: FileManager.default)  // the process's one, passed in
            builder.register(Garage.self, using: Garage.init(files:))
            let container = try builder.build()

            #expect(try container.resolve(Garage.self).files === FileManager.default)
        }

        @Test func theRaceTrackGetsItsDependenciesThroughProperties() throws {
            var builder = ContainerBuilder()
            builder.register(TrackMarshal.self, lifetime: .singleton, using: TrackMarshal.init)
            let container = try builder.build()

            let track = TrackFactory.createRaceTrack()  // made by code we cannot change
            track.width = 10
            container.injectProperties(into: track)  // binds every @Injected property

            #expect(track.marshal === (try container.resolve(TrackMarshal.self)))
        }

        @Test func factoriesReplaceClassRegistration() throws {
            var builder = ContainerBuilder()
            builder.register((any RaceCarModel).self, name: "fast") { _ in FastRaceCar(topSpeed: 200) }
            builder.register((any RaceCarModel).self, name: "slow") { _ in SlowRaceCar(leatherPlushiness: 11) }
            let container = try builder.build()

            let raceCars = try container.resolveAll((any RaceCarModel).self)  // a fast one, then a slow one

            #expect(raceCars.map(\.topSpeed) == [200, 90])
        }

        @Test func protocolsHideTheConcreteClass() throws {
            var builder = ContainerBuilder()
            builder.register(RCEngine.self, lifetime: .singleton) { _ in RCEngine() }
            builder.alias((any Engine).self, to: RCEngine.self)
            builder.alias((any Diagnosable).self, to: RCEngine.self)
            let container = try builder.build()

            let engine = try container.resolve((any Engine).self)
            let diagnosable = try container.resolve((any Diagnosable).self)

            #expect(engine as AnyObject === diagnosable as AnyObject)  // one engine, two faces
            #expect(diagnosable.diagnose() == "all cylinders firing")
        }

        @Test func aComponentSaysWhatItNeedsFromTheApp() {
            var builder = ContainerBuilder()
            builder.install(RaceCarModule())  // and no RadioFrequency

            let error = #expect(throws: GraftError.self) { try builder.build() }

            #expect(builder.validate().map(\.code) == [.unmetRequirement])
            #expect(
                error?.description.contains("RaceCarModule requires RadioFrequency, which nothing registers") == true
            )
            #expect(error?.description.contains("RaceCar needs it too") == true)
        }

        @Test func dictionaryInjectionWithItsTwoFlawsFixed() throws {
            let settings = try ScreenSettings(injecting: [
                "title": "Qualifying", "laps": 3, "view.backgroundColor": "red",
            ])
            #expect(settings.laps == 3)
            #expect(settings.view.backgroundColor == "red")

            let missing = #expect(throws: GraftError.self) {
                try ScreenSettings(injecting: ["laps": 3])
            }
            #expect(missing?.description.contains("ScreenSettings is missing required key \"title\"") == true)

            let misspelt = #expect(throws: GraftError.self) {
                try ScreenSettings(injecting: ["title": "Qualifying", "view.backgroundColour": "red"])
            }
            #expect(misspelt?.description.contains("did you mean \"view.backgroundColor\"") == true)
        }

        @Test func lifetimesAreInjectSwiftsAddTransientAddSingletonAddScoped() throws {
            var builder = ContainerBuilder()
            builder.register((any Greeting).self, lifetime: .transient) { _ in Hello() }  // AddTransient
            builder.register(Telemetry.self, lifetime: .singleton, using: Telemetry.init)  // AddSingleton
            builder.register(Session.self, lifetime: .scoped, using: Session.init)  // AddScoped
            let container = try builder.build()

            let (first, second) = try container.withScope { scope in
                (try scope.resolve(Session.self), try scope.resolve(Session.self))  // one per scope
            }
            #expect(first === second)
            #expect(try container.resolve(Telemetry.self) === (try container.resolve(Telemetry.self)))
            let greeting = try container.resolve((any Greeting).self)
            #expect(try container.resolve((any Greeting).self) !== greeting)  // a new one every time
            #expect(try container.withScope { try $0.resolve(Session.self) } !== first)

            let spanish = try container.overriding { builder in  // instead of an optional initializer parameter
                builder.register((any Greeting).self) { _ in Hola() }
            }
            #expect(try spanish.resolve((any Greeting).self).text == "hola")
            #expect(try container.resolve((any Greeting).self).text == "hello")
        }
    }
}
