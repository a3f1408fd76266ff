import Graft
import Testing

// The first-day forms of a closure factory, exactly as a user writes them: the closure calls a
// helper that takes the resolver, so Swift sees a closure from `any Resolver` to the service,
// which an autowiring overload would also accept. Each must be a closure factory: if one were
// autowired, build() would report "no registration for Resolver" and the test would fail.

private struct Crew: Sendable {
    let name: String
}

private struct Garage: Sendable {
    let crew: Crew
}

private struct Receipt: Sendable {
    let crew: Crew
    let id: Int
}

private final class Depot: Sendable {
    let crew: Crew

    init(crew: Crew) async {
        await Task.yield()
        self.crew = crew
    }
}

private struct BadDay: Error, CustomStringConvertible {
    var description: String { "the garage is closed today" }
}

private func makeGarage(_ r: any Resolver) throws -> Garage { Garage(crew: try r.resolve(Crew.self)) }

private func makeClosedGarage(_ r: any Resolver) throws -> Garage { throw BadDay() }

private func makeReceipt(_ r: any Resolver, _ id: Int) throws -> Receipt {
    Receipt(crew: try r.resolve(Crew.self), id: id)
}

private func makeDepot(_ r: any Resolver) async throws -> Depot { await Depot(crew: try r.resolve(Crew.self)) }

private func makeDepotReceipt(_ r: any Resolver, _ id: Int) async throws -> Receipt {
    Receipt(crew: try await makeDepot(r).crew, id: id)
}

private func makeResource(_ r: any Resolver, log: EventLog) throws -> Resource {
    _ = try r.resolve(Crew.self)
    return Resource("resource", log: log)
}

private func crewBuilder() -> ContainerBuilder {
    var builder = ContainerBuilder()
    builder.register(Crew.self) { _ in Crew(name: "pit") }
    return builder
}

/// A closure whose first parameter is the resolver is a closure factory, whatever its body
/// calls, with or without a type annotation, runtime arguments or `async`.
@Suite struct ClosureFactoryFormTests {
    @Test func aClosureCallingAHelperIsAClosureFactory() throws {
        var builder = crewBuilder()
        builder.register(Garage.self) { r in try makeGarage(r) }
        let container = try builder.build()

        #expect(try container.resolve(Garage.self).crew.name == "pit")
    }

    @Test func anAnnotatedClosureCallingAHelperIsAClosureFactory() throws {
        var builder = crewBuilder()
        builder.register(Garage.self, lifetime: .singleton) { (r: any Resolver) in try makeGarage(r) }
        let container = try builder.build()

        #expect(try container.resolve(Garage.self).crew.name == "pit")
    }

    @Test func aClosureFactoryWithANameAndALifetimeCallingAHelperIsAClosureFactory() throws {
        var builder = crewBuilder()
        builder.register(Garage.self, name: "north", lifetime: .scoped) { r in try makeGarage(r) }
        let container = try builder.build()

        #expect(try container.withScope { try $0.resolve(Garage.self, name: "north") }.crew.name == "pit")
    }

    @Test func aThrowingHelperThrowsFromTheClosureFactory() throws {
        var builder = crewBuilder()
        builder.register(Garage.self) { r in try makeClosedGarage(r) }
        let container = try builder.build()

        let error = #expect(throws: GraftError.self) { try container.resolve(Garage.self) }
        #expect(error?.code == .factoryFailed)
        #expect(error?.underlyingError is BadDay)
        #expect(error?.description.hasPrefix("Graft: factory of Garage threw: the garage is closed today") == true)
    }

    @Test func aClosureCallingAHelperWithRuntimeArgumentsIsAClosureFactory() throws {
        var builder = crewBuilder()
        builder.register(Receipt.self, arguments: Int.self) { r, id in try makeReceipt(r, id) }
        builder.register(Receipt.self, name: "annotated", arguments: Int.self) { (r: any Resolver, id: Int) in
            try makeReceipt(r, id)
        }
        let container = try builder.build()

        let receipt = try container.resolve(Receipt.self, arguments: 7)
        #expect(receipt.id == 7 && receipt.crew.name == "pit")
        #expect(try container.resolve(Receipt.self, name: "annotated", arguments: 8).id == 8)
    }

    @Test func anAsyncClosureCallingAHelperIsAClosureFactory() async throws {
        var builder = crewBuilder()
        builder.register(Depot.self, lifetime: .singleton) { r in try await makeDepot(r) }
        builder.register(Depot.self, name: "annotated") { (r: any Resolver) async throws in try await makeDepot(r) }
        let container = try await builder.build()

        #expect(try await container.resolve(Depot.self).crew.name == "pit")
        #expect(try await container.resolve(Depot.self, name: "annotated").crew.name == "pit")
    }

    @Test func anAsyncEagerSingletonCallingAHelperIsAClosureFactory() async throws {
        var builder = crewBuilder()
        builder.register(Depot.self, lifetime: .eagerSingleton) { r in try await makeDepot(r) }
        let container = try await builder.build()

        #expect(try await container.resolve(Depot.self).crew.name == "pit")
    }

    @Test func anAsyncClosureCallingAHelperWithRuntimeArgumentsIsAClosureFactory() async throws {
        var builder = crewBuilder()
        builder.register(Receipt.self, arguments: Int.self) { r, id in try await makeDepotReceipt(r, id) }
        let container = try await builder.build()

        #expect(try await container.resolve(Receipt.self, arguments: 9).id == 9)
    }

    @Test func aDisposableServiceMadeByAHelperIsAClosureFactoryAndIsDisposed() throws {
        let log = EventLog()
        var builder = crewBuilder()
        builder.register(Resource.self, lifetime: .scoped) { r in try makeResource(r, log: log) }
        let container = try builder.build()

        _ = try container.withScope { try $0.resolve(Resource.self) }

        #expect(log.entries == ["resource"])
    }

    /// The control: a trailing closure whose parameter is a dependency, not the resolver, is
    /// still autowired, so build() sees (and here reports) what it needs.
    @Test func aClosureWhoseParameterIsNotTheResolverIsStillAutowired() {
        var builder = ContainerBuilder()
        builder.register(Garage.self) { (crew: Crew) in Garage(crew: crew) }

        let error = #expect(throws: GraftError.self) { try builder.build() }

        #expect(
            error?.problems.map(\.description).first?.hasPrefix(
                """
                Graft: no registration for Crew, which Garage needs
                  resolving: Garage → Crew
                """
            ) == true
        )
    }
}
