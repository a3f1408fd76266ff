import Graft
import Testing

private enum V12: ServiceName {
    static let name = "v12"
}

private enum V10: ServiceName {
    static let name = "v10"
}

private protocol Motor: Sendable {
    var cylinders: Int { get }
}

private final class BigMotor: Motor {
    let cylinders = 12
}

private final class SmallMotor: Motor {
    let cylinders = 4
}

private final class Roadster: Sendable {
    let engine: any Motor
    init(engine: Named<any Motor, V12>) { self.engine = engine.value }
}

private final class Pit: Sendable {
    init(car: Roadster) {}
}

@Suite struct NamedDependencyTests {
    private func carBuilder() -> ContainerBuilder {
        var builder = ContainerBuilder()
        builder.register((any Motor).self) { _ in SmallMotor() }
        builder.register((any Motor).self, name: V12.name, lifetime: .singleton) { _ in BigMotor() }
        builder.register(Roadster.self, using: Roadster.init(engine:))
        return builder
    }

    @Test func autowiredParameterReceivesTheNamedRegistration() throws {
        let container = try carBuilder().build()

        let car = try container.resolve(Roadster.self)

        #expect(car.engine.cylinders == 12)
        #expect(car.engine as AnyObject === (try container.resolve((any Motor).self, name: "v12")) as AnyObject)
    }

    @Test func worksWhenTheNamedServiceNeedsAwait() async throws {
        var builder = ContainerBuilder()
        builder.register((any Motor).self, name: V12.name) { _ async in BigMotor() }
        builder.register(Roadster.self, using: Roadster.init(engine:))

        let car = try await builder.build().resolve(Roadster.self)

        #expect(car.engine.cylinders == 12)
    }

    @Test func closureFactoryDeclaresANamedReference() throws {
        var builder = carBuilder()
        builder.register(Int.self, dependencies: [Requirement(Named<any Motor, V12>.self)]) { r in
            try r.resolve(Named<any Motor, V12>.self).value.cylinders
        }

        #expect(try builder.build().resolve(Int.self) == 12)
    }

    @Test func missingNamedRegistrationIsReportedForTheHolder() {
        var builder = ContainerBuilder()
        builder.register((any Motor).self, name: V10.name) { _ in SmallMotor() }
        builder.register(Roadster.self, using: Roadster.init(engine:))
        builder.register(Pit.self, using: Pit.init(car:))

        let error = #expect(throws: GraftError.self) { try builder.build() }

        let problem = error?.problems.first
        #expect(error?.problems.count == 1)
        #expect(problem?.code == .missingDependency)
        #expect(problem?.summary == "no registration for Motor (name: \"v12\"), which Roadster needs")
        #expect(problem?.path == ["Roadster", "Motor[\"v12\"]"])
        #expect(problem?.hints.first == "did you mean Motor[\"v10\"]?")
        #expect(
            problem?.hints.contains(
                "Roadster asks for it with Named<Motor, V12>: register Motor with name: V12.name (\"v12\")"
            ) == true
        )
    }

    @Test func missingNamedRegistrationMessageReadsAsTheArticleShows() {
        var builder = ContainerBuilder()
        builder.register((any Motor).self) { _ in SmallMotor() }
        builder.register(Roadster.self, using: Roadster.init(engine:))

        let error = #expect(throws: GraftError.self) { try builder.build() }

        #expect(
            error?.description.hasPrefix(
                """
                Graft: build() found 1 problem
                  1. no registration for Motor (name: "v12"), which Roadster needs
                     resolving: Roadster → Motor["v12"]
                     registered for Motor: Motor
                     Roadster asks for it with Named<Motor, V12>: register Motor with name: V12.name ("v12")
                     Roadster was registered at GraftTests/NamedDependencyTests.swift:
                """
            ) == true
        )
    }

    @Test func cycleThroughANamedReferenceIsReported() {
        var builder = ContainerBuilder()
        let line = #line + 1
        builder.register((any Motor).self, name: V12.name, using: { (_: Pit) in BigMotor() })
        builder.register(Roadster.self, using: Roadster.init(engine:))
        builder.register(Pit.self, using: Pit.init(car:))

        let problems = builder.validate()

        #expect(problems.map(\.code) == [.cycle])
        // The cycle starts where a Lazy can break it: never right after the named reference.
        #expect(
            problems.first?.summary == "dependency cycle: Pit → Roadster → Named<Motor, V12> → Motor[\"v12\"] → Pit"
        )
        #expect(
            problems.first?.hints == [
                #"break it with Lazy<Pit> or Provider<Pit> in Motor["v12"]"#,
                #"Motor["v12"] was registered at GraftTests/NamedDependencyTests.swift:"# + "\(line)",
            ]
        )
    }

    @Test func singletonHoldingANamedScopedServiceIsCaptive() {
        var builder = ContainerBuilder()
        builder.register((any Motor).self, name: V12.name, lifetime: .scoped) { _ in BigMotor() }
        builder.register(Roadster.self, lifetime: .singleton, using: Roadster.init(engine:))

        let problems = builder.validate()

        #expect(problems.map(\.code) == [.captiveDependency])
        #expect(problems.first?.path == ["Roadster", "Named<Motor, V12>", "Motor[\"v12\"]"])
    }

    @Test func graphExportShowsTheNamedReference() throws {
        let dot = try carBuilder().build().exportGraph(as: .dot)

        #expect(dot.contains("Named<Motor, V12>\\n.transient, named"))
        #expect(dot.contains("n3 -> n1"))
    }
}
