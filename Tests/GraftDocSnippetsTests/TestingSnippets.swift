import Graft
import GraftTesting
import Testing

// The code of the article "Testing" (Testing.md), compiled and run.

enum TestingArticle {
    protocol Engine: Sendable {}
    final class RCEngine: Engine {}
    final class MockEngine: Engine {}

    final class Telemetry: Sendable {}

    final class RaceCar: Sendable {
        let engine: any Engine
        let telemetry: Telemetry
        init(engine: any Engine, telemetry: Telemetry) {
            self.engine = engine
            self.telemetry = telemetry
        }
    }

    /// The app's wiring, as an app would keep it: one place that describes the graph.
    enum AppContainer {
        static func builder() -> ContainerBuilder {
            var builder = ContainerBuilder()
            builder.register((any Engine).self, lifetime: .singleton) { _ in RCEngine() }
            builder.register(Telemetry.self, lifetime: .singleton, using: Telemetry.init)
            builder.register(RaceCar.self, using: RaceCar.init(engine:telemetry:))
            return builder
        }

        static func make() throws -> Container { try builder().build() }
    }
}

extension TestingArticle {
    @Suite struct Snippets {
        @Test func overridingReplacesWithoutTouchingTheOriginal() throws {
            let container = try AppContainer.make()
            let testContainer = try container.overriding { $0.register((any Engine).self) { _ in MockEngine() } }
            #expect(try testContainer.resolve(RaceCar.self).engine is MockEngine)
            #expect(try container.resolve(RaceCar.self).engine is RCEngine)
            // The copy has singletons of its own.
            #expect(try testContainer.resolve(Telemetry.self) !== container.resolve(Telemetry.self))
        }

        @Test(.container(try AppContainer.make()) { $0.register((any Engine).self) { _ in MockEngine() } })
        func carUsesTheMockEngine() throws {
            let car = try TestContainer.current.resolve(RaceCar.self)
            #expect(car.engine is MockEngine)
        }

        @Test func appGraphIsValid() {
            #expect(AppContainer.builder().validate().isEmpty)
        }

        @Test func aReplacementThatChangesTheLifetimeCanBeMadeABuildProblem() {
            var builder = AppContainer.builder()
            builder.rejectsLifetimeChangingReplacements = true
            builder.register(Telemetry.self, using: Telemetry.init)  // was a singleton
            #expect(builder.replacements.count == 1)
            #expect(builder.validate().map(\.code) == [.lifetimeReplaced])
        }
    }
}
