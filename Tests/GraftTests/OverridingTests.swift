import Graft
import GraftTesting
import Testing

private protocol Motor: Sendable {
    var sound: String { get }
}

private final class RealMotor: Motor {
    let sound = "vroom"
}

private final class MockMotor: Motor {
    let sound = "beep"
}

private final class Buggy: Sendable {
    let motor: any Motor

    init(motor: any Motor) {
        self.motor = motor
    }
}

private struct Frequency: Sendable, Equatable {
    let megahertz: Int
}

private func appContainer() throws -> Container {
    var builder = ContainerBuilder()
    builder.register((any Motor).self, lifetime: .singleton) { _ in RealMotor() }
    builder.register(Buggy.self, lifetime: .singleton, using: Buggy.init(motor:))
    builder.register(Frequency.self, instance: Frequency(megahertz: 433))
    return try builder.build()
}

@Suite struct OverridingTests {
    @Test func overridingSwapsTheEngineForAMock() throws {
        let app = try appContainer()
        let test = try app.overriding { $0.register((any Motor).self) { _ in MockMotor() } }
        #expect(try test.resolve(Buggy.self).motor.sound == "beep")
        #expect(try app.resolve(Buggy.self).motor.sound == "vroom")
    }

    @Test func overridingHasItsOwnSingletons() throws {
        let app = try appContainer()
        let test = try app.overriding { _ in }
        #expect(try test.resolve(Buggy.self) !== app.resolve(Buggy.self))
    }

    @Test func overridingReplacesEveryRegistrationOfTheKey() throws {
        let app = try appContainer()
        let test = try app.overriding { $0.register((any Motor).self) { _ in MockMotor() } }
        #expect(try test.resolveAll((any Motor).self).map(\.sound) == ["beep"])
    }

    @Test func overridingSharesInstanceRegistrations() throws {
        let app = try appContainer()
        let test = try app.overriding { _ in }
        #expect(try test.resolve(Frequency.self) == app.resolve(Frequency.self))
    }

    @Test func overridingValidatesAgain() throws {
        let app = try appContainer()
        let error = #expect(throws: GraftError.self) {
            try app.overriding { builder in
                builder.register(Buggy.self, using: { (motor: any Motor, _: Double) in Buggy(motor: motor) })
            }
        }
        #expect(error?.code == .invalidGraph)
        #expect(error?.problems.first?.summary == "no registration for Double, which Buggy needs")
    }

    @Test(.container(try appContainer()) { $0.register((any Motor).self) { _ in MockMotor() } })
    func containerTraitGivesTheTestAnOverriddenContainer() throws {
        #expect(try TestContainer.current.resolve(Buggy.self).motor.sound == "beep")
    }

    @Test func testWithoutTraitHasNoContainer() {
        let error = #expect(throws: GraftError.self) { try TestContainer.current }
        #expect(error?.code == .closed)
        #expect(
            error?.description == """
                Graft: this test has no container
                  add the trait: @Test(.container(appContainer) { ... })
                """
        )
    }
}
