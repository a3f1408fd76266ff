import Graft
import Testing

// A short tour of the core API and the first program of Getting started, compiled and run, and
// README.md's quoted error checked against the message Graft prints.

enum ReadmeTour {
    struct RadioFrequency: Sendable {
        let megahertz: Int
    }

    protocol Engine: Sendable {}
    protocol Diagnosable: Sendable {
        var healthy: Bool { get }
    }

    final class RCEngine: Engine, Diagnosable {
        var healthy: Bool { true }
    }

    final class V12Engine: Engine {}
    final class Transmission: Sendable {}
    final class Wheel: Sendable {}

    final class FireExtinguisher: Sendable {
        let made = Counter()
        init() { made.add() }
    }

    final class RaceCar: Sendable {
        let engine: any Engine
        let wheels: [Wheel]
        let extinguisher: Lazy<FireExtinguisher>

        init(
            engine: any Engine,
            transmission: Transmission,
            wheels: Provider<Wheel>,
            extinguisher: Lazy<FireExtinguisher>,
            radio: RadioFrequency
        ) throws {
            self.engine = engine
            self.wheels = try (0..<5).map { _ in try wheels.get() }  // four and a spare
            self.extinguisher = extinguisher
        }
    }

    final class PitStopOrder: Disposable {
        let car: RaceCar
        let disposals = Counter()

        init(car: RaceCar) { self.car = car }

        func dispose() { disposals.add() }
    }

    struct Lap: Sendable {
        let number: Int
    }

    final class PitStop: Sendable {
        let lap: Lap

        init(lap: Lap, car: RaceCar, radio: RadioFrequency) { self.lap = lap }
    }

    struct Greeting: Sendable {
        let text: String
    }

    final class PitRadio: Sendable {
        init(frequency: RadioFrequency) {}
    }
}

extension ReadmeTour {
    @Suite struct Snippets {
        @Test func theShortTour() throws {
            var builder = ContainerBuilder()

            // A "system singleton" is passed in, never reached for.
            builder.register(RadioFrequency.self, instance: RadioFrequency(megahertz: 433))

            // Closure factories; one instance can answer for several protocols.
            builder.register(RCEngine.self, lifetime: .singleton) { _ in RCEngine() }
            builder.alias((any Engine).self, to: RCEngine.self)
            builder.alias((any Diagnosable).self, to: RCEngine.self)
            builder.register((any Engine).self, name: "v12") { _ in V12Engine() }

            // Autowiring: dependencies come from the initializer's signature, so build() checks them.
            // Lazy<T> is made on first use; Provider<T> resolves again on each get() (a new transient each time).
            builder.register(Transmission.self, using: Transmission.init)
            builder.register(Wheel.self, using: Wheel.init)
            builder.register(FireExtinguisher.self, lifetime: .singleton, using: FireExtinguisher.init)
            builder.register(RaceCar.self, using: RaceCar.init(engine:transmission:wheels:extinguisher:radio:))
            builder.register(PitStopOrder.self, lifetime: .scoped, using: PitStopOrder.init(car:))
            builder.register(PitStop.self, arguments: Lap.self, using: PitStop.init(lap:car:radio:))

            let container = try builder.build()  // one error listing every problem, or a container
            let car = try container.resolve(RaceCar.self)
            let v12 = try container.resolve((any Engine).self, name: "v12")

            let order = try container.withScope { scope in  // scoped services live here; the scope closes,
                try scope.resolve(PitStopOrder.self)  // disposing what it made, when the body ends
            }
            let stop = try container.resolve(PitStop.self, arguments: Lap(number: 18))  // or a Factory<PitStop, Lap>

            // One RCEngine answers for both protocols.
            #expect((car.engine as AnyObject) === (try container.resolve((any Diagnosable).self) as AnyObject))
            #expect(v12 is V12Engine)
            #expect(Set(car.wheels.map(ObjectIdentifier.init)).count == 5)
            let extinguisher = try container.resolve(FireExtinguisher.self)
            #expect(extinguisher.made.value == 1)  // made now: the car's Lazy did not make it
            #expect(try car.extinguisher.value === extinguisher)
            #expect(order.disposals.value == 1)
            #expect(stop.lap.number == 18)
            try container.shutdown()
        }

        @Test func usingGraftInYourPackage() throws {
            var builder = ContainerBuilder()
            builder.register(Greeting.self) { _ in Greeting(text: "grafted") }
            let container = try builder.build()
            print(try container.resolve(Greeting.self).text)
            #expect(try container.resolve(Greeting.self).text == "grafted")
        }

        /// The README quotes the message of a forgotten registration; this is it, word for word.
        @Test func theQuotedMistakeIsTheMessageGraftPrints() throws {
            let readme = try DocumentedCodeTests.document("README.md")
            let quoted = try #require(
                DocumentedCodeTests.plainBlocks(of: readme).first { $0.contains("which PitRadio needs") }
            )
            var builder = ContainerBuilder()
            // Where the README's app registered it.
            builder.register(PitRadio.self, fileID: "RaceCar/Wiring.swift", line: 24, using: PitRadio.init(frequency:))
            let error = #expect(throws: GraftError.self) { try builder.build() }
            #expect(error.map { "\($0)" } == quoted)
        }
    }
}
