import Graft
import Testing

// The code of the article "Getting started" (GettingStarted.md), compiled and run. Its types live
// in an enum so they do not collide with other articles' race cars.

enum GettingStartedArticle {
    struct RadioFrequency: Sendable {
        let megahertz: Int
    }

    protocol Engine: Sendable {}
    final class RCEngine: Engine {}
    final class V12Engine: Engine {}

    final class Transmission: Sendable {}

    final class RaceCar: Sendable {
        let engine: any Engine
        let radio: RadioFrequency

        init(engine: any Engine, transmission: Transmission, radio: RadioFrequency) {
            self.engine = engine
            self.radio = radio
        }
    }

    final class PitStopOrder: Disposable {
        let car: RaceCar
        let disposals: Counter

        init(car: RaceCar) {
            self.car = car
            self.disposals = Counter()
        }

        func dispose() { disposals.add() }
    }
}

extension GettingStartedArticle {
    @Suite struct Snippets {
        @Test func describeBuildResolve() throws {
            var builder = ContainerBuilder()

            // An object that already exists: passed in, never reached for through a global.
            builder.register(RadioFrequency.self, instance: RadioFrequency(megahertz: 433))

            // A closure factory: the resolver hands it whatever it needs.
            builder.register((any Engine).self, lifetime: .singleton) { _ in RCEngine() }

            // Autowiring: the parameters of the initializer are the dependencies, so build() knows them.
            builder.register(Transmission.self, using: Transmission.init)
            builder.register(RaceCar.self, using: RaceCar.init(engine:transmission:radio:))
            builder.register(PitStopOrder.self, lifetime: .scoped, using: PitStopOrder.init(car:))

            // Named registrations tell several implementations apart.
            builder.register((any Engine).self, name: "v12") { _ in V12Engine() }

            let container = try builder.build()

            let car = try container.resolve(RaceCar.self)
            let v12 = try container.resolve((any Engine).self, name: "v12")
            let engines = try container.resolveAll((any Engine).self)  // every registration, in order
            let order = try container.withScope { scope in  // per request, screen or session
                try scope.resolve(PitStopOrder.self)
            }
            try container.shutdown()  // disposes singletons, newest first

            #expect(car.engine is RCEngine)
            #expect(car.radio.megahertz == 433)
            #expect(v12 is V12Engine)
            #expect(engines.count == 2 && engines[0] is RCEngine && engines[1] is V12Engine)
            #expect(order.disposals.value == 1)  // the scope closed when the body ended
        }

        @Test func buildReportsEveryProblemAndValidateReturnsThem() {
            var builder = ContainerBuilder()
            let line = #line + 1
            builder.register(RaceCar.self, using: RaceCar.init(engine:transmission:radio:))
            let problems = builder.validate()
            let error = #expect(throws: GraftError.self) { try builder.build() }
            #expect(problems.count == 3)
            #expect(error?.problems.map(\.description) == problems.map(\.description))
            #expect(
                error?.description == """
                    Graft: build() found 3 problems
                      1. no registration for Engine, which RaceCar needs
                         resolving: RaceCar → Engine
                         register it, made by a type that conforms to Engine: builder.register((any Engine).self, using: <ConformingType>.init)
                         RaceCar was registered at GraftDocSnippetsTests/GettingStartedSnippets.swift:\(line)
                      2. no registration for Transmission, which RaceCar needs
                         resolving: RaceCar → Transmission
                         register it, autowiring its initializer: builder.register(Transmission.self, using: Transmission.init), or as a value: builder.register(Transmission.self, instance: Transmission(...))
                         RaceCar was registered at GraftDocSnippetsTests/GettingStartedSnippets.swift:\(line)
                      3. no registration for RadioFrequency, which RaceCar needs
                         resolving: RaceCar → RadioFrequency
                         register it, autowiring its initializer: builder.register(RadioFrequency.self, using: RadioFrequency.init), or as a value: builder.register(RadioFrequency.self, instance: RadioFrequency(...))
                         RaceCar was registered at GraftDocSnippetsTests/GettingStartedSnippets.swift:\(line)
                    """
            )
        }
    }
}
