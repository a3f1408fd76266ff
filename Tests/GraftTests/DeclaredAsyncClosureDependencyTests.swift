import Graft
import Testing

// An `async` closure factory declares what it resolves (`dependencies:`) as a synchronous one
// does, so build() checks it before anything runs.

private final class Pump: Sendable {}

private final class Boiler: Sendable {
    let pump: Pump
    init(pump: Pump) { self.pump = pump }
}

private final class Valve: Disposable {
    func dispose() throws {}
}

private final class Tank: AsyncDisposable {
    func dispose() async throws {}
}

private struct Gauge: Sendable {
    let reading: Int
}

/// Each `async` closure form, declaring a dependency on the `main` pump, which nobody registers.
enum AsyncClosureForm: String, CaseIterable, Sendable {
    case plain, disposable, asyncDisposable, runtimeArguments

    /// The registered service, as messages name it.
    var service: String {
        switch self {
        case .plain: "Boiler"
        case .disposable: "Valve"
        case .asyncDisposable: "Tank"
        case .runtimeArguments: "Gauge"
        }
    }

    /// Registers the form; returns the line of the `register` call.
    func register(in builder: inout ContainerBuilder) -> Int {
        let main = [Requirement(Pump.self, name: "main")]
        switch self {
        case .plain:
            builder.register(Boiler.self, dependencies: main) { r async throws in
                Boiler(pump: try await r.resolve(Pump.self, name: "main"))
            }
            return #line - 3
        case .disposable:
            builder.register(Valve.self, dependencies: main) { r async throws in
                _ = try await r.resolve(Pump.self, name: "main")
                return Valve()
            }
            return #line - 4
        case .asyncDisposable:
            builder.register(Tank.self, dependencies: main) { r async throws in
                _ = try await r.resolve(Pump.self, name: "main")
                return Tank()
            }
            return #line - 4
        case .runtimeArguments:
            builder.register(Gauge.self, arguments: Int.self, dependencies: main) { r, reading async throws in
                _ = try await r.resolve(Pump.self, name: "main")
                return Gauge(reading: reading)
            }
            return #line - 4
        }
    }
}

/// What the synchronous `validate()` finds: a synchronous function, so an async test reaches it.
private func problems(of builder: ContainerBuilder) -> [GraftError] {
    builder.validate()
}

@Suite struct DeclaredAsyncClosureDependencyTests {
    @Test(arguments: AsyncClosureForm.allCases)
    func aMissingDeclaredDependencyIsReportedByBuild(_ form: AsyncClosureForm) async {
        var builder = ContainerBuilder()
        builder.register(Pump.self) { _ in Pump() }
        let line = form.register(in: &builder)

        let error = await #expect(throws: GraftError.self) { try await builder.build() }

        #expect(error?.code == .invalidGraph)
        #expect(
            error?.problems.map(\.description) == [
                """
                Graft: no registration for Pump (name: "main"), which \(form.service) needs
                  resolving: \(form.service) → Pump["main"]
                  registered for Pump: Pump
                  register it, autowiring its initializer: builder.register(Pump.self, name: "main", using: Pump.init), or as a value: builder.register(Pump.self, name: "main", instance: Pump(...))
                  \(form.service) was registered at GraftTests/DeclaredAsyncClosureDependencyTests.swift:\(line)
                """
            ]
        )
        // The synchronous build() checks the same graph.
        #expect(problems(of: builder).map(\.code) == [.missingDependency])
    }

    @Test func aDeclaredDependencyResolves() async throws {
        var builder = ContainerBuilder()
        builder.register(Pump.self, lifetime: .singleton) { _ in Pump() }
        builder.register(Pump.self, name: "main", lifetime: .singleton) { _ in Pump() }
        _ = AsyncClosureForm.plain.register(in: &builder)
        #expect(problems(of: builder).isEmpty)
        let container = try await builder.build()

        let boiler = try await container.resolve(Boiler.self)

        #expect(try await boiler.pump === container.resolve(Pump.self, name: "main"))
        #expect(try await boiler.pump !== container.resolve(Pump.self))
    }

    @Test func aCycleThroughADeclaredDependencyIsFoundByBuild() async {
        var builder = ContainerBuilder()
        builder.register(Pump.self, dependencies: [Requirement(Boiler.self)]) { r async throws in
            _ = try await r.resolve(Boiler.self)
            return Pump()
        }
        builder.register(Boiler.self, using: Boiler.init(pump:))

        let error = await #expect(throws: GraftError.self) { try await builder.build() }

        #expect(error?.problems.map(\.summary) == ["dependency cycle: Pump → Boiler → Pump"])
    }
}
