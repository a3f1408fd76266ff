import Graft
import Testing

private struct Crew: Sendable {}

private struct Garage: Sendable {
    let crew: Crew
}

/// A type whose initializer takes the resolver, as a service locator would.
private struct Locator: Sendable {
    init(resolver: any Resolver) {}

    init(optionalResolver: (any Resolver)?) {}
}

private func makeGarage(_ r: any Resolver) throws -> Garage { Garage(crew: try r.resolve(Crew.self)) }

private struct NeedsResolverModule: Module {
    var requirements: [Requirement] { [Requirement((any Resolver).self)] }

    func register(in builder: inout ContainerBuilder) {
        builder.register(Crew.self) { _ in Crew() }
    }
}

/// `Resolver` is what a closure factory receives, never a service: every message about it says
/// what to write instead, and none suggests registering it.
@Suite struct ResolverAsDependencyTests {
    @Test func anAutowiredFunctionTakingAResolverSaysToUseAClosureFactory() {
        var builder = ContainerBuilder()
        builder.register(Crew.self) { _ in Crew() }
        let line = #line + 1
        builder.register(Garage.self, using: makeGarage)

        let error = #expect(throws: GraftError.self) { try builder.build() }

        #expect(error?.problems.map(\.code) == [.missingDependency])
        #expect(
            error?.problems.map(\.description) == [
                """
                Graft: the initializer of Garage takes a Resolver, which autowiring does not supply
                  resolving: Garage → Resolver
                  register Garage with a closure factory, which receives the resolver: builder.register(Garage.self) { r in ... }
                  or make what it resolves the initializer's parameters (Lazy<T> or Provider<T> for what it needs later), so build() checks them
                  Garage was registered at GraftTests/ResolverAsDependencyTests.swift:\(line)
                """
            ]
        )
    }

    @Test func aNamedAutowiredInitializerTakingAResolverNamesTheRegistration() {
        var builder = ContainerBuilder()
        let line = #line + 1
        builder.register(Locator.self, name: "main", using: Locator.init(resolver:))

        let error = #expect(throws: GraftError.self) { try builder.build() }

        #expect(
            error?.problems.map(\.description) == [
                """
                Graft: the initializer of Locator (name: "main") takes a Resolver, which autowiring does not supply
                  resolving: Locator["main"] → Resolver
                  register Locator with a closure factory, which receives the resolver: builder.register(Locator.self, name: "main") { r in ... }
                  or make what it resolves the initializer's parameters (Lazy<T> or Provider<T> for what it needs later), so build() checks them
                  Locator["main"] was registered at GraftTests/ResolverAsDependencyTests.swift:\(line)
                """
            ]
        )
    }

    /// An optional parameter would silently receive `nil`; it is reported like a plain one.
    @Test func anOptionalResolverParameterIsReportedNotSilentlyNil() {
        var builder = ContainerBuilder()
        builder.register(Locator.self, using: Locator.init(optionalResolver:))

        let error = #expect(throws: GraftError.self) { try builder.build() }

        #expect(
            error?.problems.map(\.description).first?.hasPrefix(
                "Graft: the initializer of Locator takes a Resolver, which autowiring does not supply"
            ) == true
        )
    }

    @Test func aClosureFactoryListingResolverAsADependencySaysToRemoveIt() {
        var builder = ContainerBuilder()
        builder.register(Crew.self) { _ in Crew() }
        let line = #line + 1
        builder.register(Garage.self, dependencies: [Requirement((any Resolver).self)]) { r in try makeGarage(r) }

        let error = #expect(throws: GraftError.self) { try builder.build() }

        #expect(
            error?.problems.map(\.description) == [
                """
                Graft: Garage lists Resolver among its dependencies, but Resolver is not a service
                  resolving: Garage → Resolver
                  remove it from `dependencies:`: the closure receives the resolver as its first parameter
                  Garage was registered at GraftTests/ResolverAsDependencyTests.swift:\(line)
                """
            ]
        )
    }

    @Test func aModuleRequiringResolverSaysToRemoveTheRequirement() {
        var builder = ContainerBuilder()
        builder.install(NeedsResolverModule())

        let error = #expect(throws: GraftError.self) { try builder.build() }

        #expect(
            error?.problems.map(\.description) == [
                """
                Graft: NeedsResolverModule requires Resolver, which nothing registers
                  resolving: NeedsResolverModule → Resolver
                  Resolver is not a service: remove the requirement; closure factories receive the resolver
                """
            ]
        )
    }

    @Test func resolvingResolverSaysToUseTheOneTheFactoryReceived() throws {
        var builder = ContainerBuilder()
        builder.register(Crew.self) { r in
            _ = try r.resolve((any Resolver).self)
            return Crew()
        }
        let container = try builder.build()

        let error = #expect(throws: GraftError.self) { try container.resolve(Crew.self) }

        #expect(error?.code == .notRegistered)
        #expect(
            error?.description
                == """
                Graft: no registration for Resolver
                  resolving: Crew → Resolver
                  Resolver is not a service: a closure factory receives the resolver as its first parameter (`{ r in ... }`); resolve through that one
                """
        )
    }
}
