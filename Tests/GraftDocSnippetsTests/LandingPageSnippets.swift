import Graft
import Testing

// The code of the catalog's landing page (Docs.docc/index.md), compiled and run.

enum LandingPage {
    struct RadioFrequency: Sendable {
        let megahertz: Int
    }

    protocol Engine: Sendable {}
    final class RCEngine: Engine {}

    final class RaceCar: Sendable {
        let engine: any Engine
        let radio: RadioFrequency

        init(engine: any Engine, radio: RadioFrequency) {
            self.engine = engine
            self.radio = radio
        }
    }
}

extension LandingPage {
    @Suite struct Snippets {
        @Test func describeFreezeResolve() throws {
            var builder = ContainerBuilder()
            builder.register(RadioFrequency.self, instance: RadioFrequency(megahertz: 433))
            builder.register((any Engine).self, lifetime: .singleton) { _ in RCEngine() }
            builder.register(RaceCar.self, using: RaceCar.init(engine:radio:))

            let container = try builder.build()
            let car = try container.resolve(RaceCar.self)

            #expect(car.engine is RCEngine)
            #expect(car.radio.megahertz == 433)
        }
    }
}
