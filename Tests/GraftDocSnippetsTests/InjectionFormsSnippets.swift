import Graft
import Testing

// The code of the article "Lazy, Provider and property injection", compiled and run.

final class FireExtinguisher: Sendable {
    init() {}
}

final class Wheel: Sendable {
    init() {}
}

final class Car: Sendable {
    let wheels: [Wheel]
    let spareWheel: Provider<Wheel>
    let extinguisher: Lazy<FireExtinguisher>

    init(wheels: Provider<Wheel>, extinguisher: Lazy<FireExtinguisher>) throws {
        self.wheels = try (0..<4).map { _ in try wheels.get() }  // four wheels now
        self.spareWheel = wheels  // and the factory kept for a spare later
        self.extinguisher = extinguisher  // made on first use, if ever
    }

    func recoverFromCrash() throws {
        _ = try extinguisher.value
    }
}

final class RaceTrack {
    @Injected var extinguisher: FireExtinguisher  // made by code we cannot change

    init() {}
}

@Suite struct InjectionFormsSnippets {
    @Test func lazyAndProviderDeferCreation() throws {
        var builder = ContainerBuilder()
        builder.register(Wheel.self, using: Wheel.init)
        builder.register(FireExtinguisher.self, lifetime: .singleton, using: FireExtinguisher.init)
        builder.register(Car.self, using: Car.init(wheels:extinguisher:))
        let container = try builder.build()

        let car = try container.resolve(Car.self)
        #expect(car.extinguisher.isCreated == false)
        try car.recoverFromCrash()
        #expect(car.extinguisher.isCreated)
        #expect(try car.spareWheel.get() !== car.wheels[0])

        let track = RaceTrack()  // made by someone else
        container.injectProperties(into: track)
        #expect(track.extinguisher === (try car.extinguisher.value))
    }
}
