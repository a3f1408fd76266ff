import Foundation
import Graft
import Synchronization
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

final class Garage: Sendable {
    let crew: PitCrew
    init(crew: PitCrew) async { self.crew = crew }  // opens with `await`
}

final class PitCrew: Sendable {
    let garage: Lazy<Garage>  // the cycle Garage → PitCrew → Garage, broken here
    init(garage: Lazy<Garage>) { self.garage = garage }

    func openUp() async throws -> Garage {
        try await garage.get()  // async: the garage needs `await` to be made
    }
}

func pits() async throws -> Garage {
    var builder = ContainerBuilder()
    builder.register(Garage.self, lifetime: .singleton, using: Garage.init(crew:))
    builder.register(PitCrew.self, using: PitCrew.init(garage:))
    let container = try await builder.build()
    return try await container.resolve(PitCrew.self).openUp()
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

    @Test func anAsyncLazyBreakingACycleIsReadWithAwait() async throws {
        let garage = try await pits()
        #expect(garage.crew.garage.isCreated == false)  // the garage's own crew has not read it
    }

    /// The article quotes what the synchronous read says; this is it, word for word (read outside
    /// any task, as a synchronous program's code runs).
    @Test func theQuotedSynchronousReadIsTheMessageGraftPrints() throws {
        let article = try DocumentedCodeTests.document(DocumentedCodeTests.articles + "InjectionForms.md")
        let quoted = try #require(DocumentedCodeTests.plainBlocks(of: article).first { $0.contains("lazy.get()") })
        var builder = ContainerBuilder()
        builder.register(Garage.self, lifetime: .singleton, using: Garage.init(crew:))
        builder.register(PitCrew.self, using: PitCrew.init(garage:))
        let container = try builder.build()
        let crew = try container.resolve(PitCrew.self)
        let message = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            do {
                _ = try crew.garage.get()
            } catch {
                message.withLock { $0 = "\(error)" }
            }
            done.signal()
        }
        thread.start()
        done.wait()
        #expect(message.withLock { $0 } == quoted)
    }
}
