import Graft
import Synchronization
import Testing

private final class Extinguisher: Sendable {}

private final class Tyre: Sendable {}

private final class Kart: Sendable {
    let extinguisher: Lazy<Extinguisher>
    let tyres: Provider<Tyre>
    let sponsor: Sponsor?

    init(extinguisher: Lazy<Extinguisher>, tyres: Provider<Tyre>, sponsor: Sponsor?) {
        self.extinguisher = extinguisher
        self.tyres = tyres
        self.sponsor = sponsor
    }
}

private final class Sponsor: Sendable {}

private struct Boom: Error, CustomStringConvertible {
    var description: String { "boom" }
}

@Suite struct LazyTests {
    @Test func lazyCreatesOnFirstAccessOnly() throws {
        var builder = ContainerBuilder()
        let created = Atomic(0)
        builder.register(Tyre.self) { _ in
            created.add(1, ordering: .relaxed)
            return Tyre()
        }
        let container = try builder.build()
        let lazy = try container.resolve(Lazy<Tyre>.self)
        #expect(created.load(ordering: .relaxed) == 0)
        #expect(!lazy.isCreated)
        let first = try lazy.value
        let second = try lazy.value
        #expect(first === second)
        #expect(created.load(ordering: .relaxed) == 1)
    }

    @Test func lazyIsReadWithGetAsProviderIsSyncAndAsync() async throws {
        var builder = ContainerBuilder()
        let created = Atomic(0)
        builder.register(Tyre.self) { _ async in
            created.add(1, ordering: .relaxed)
            return Tyre()
        }
        let container = try await builder.build()
        let lazy = try await container.resolve(Lazy<Tyre>.self)

        let awaited = try await lazy.get()
        // Created once: the synchronous spellings (a synchronous closure picks them) read what
        // the first call made.
        let readSynchronously = { () throws(GraftError) -> (Tyre, Tyre) in (try lazy.get(), try lazy.value) }
        let (got, value) = try readSynchronously()
        #expect(got === awaited)
        #expect(value === awaited)
        #expect(created.load(ordering: .relaxed) == 1)
    }

    @Test func aLazyOfAnAsyncServiceReadSynchronouslyBeforeItExistsSaysToAwait() async throws {
        var builder = ContainerBuilder()
        builder.register(Tyre.self) { _ async in Tyre() }
        let container = try await builder.build()
        let lazy = try await container.resolve(Lazy<Tyre>.self)

        let error = #expect(throws: GraftError.self) { try lazy.get() }

        #expect(error?.code == .needsAwait)
        #expect(!lazy.isCreated)
        _ = try await lazy.get()
        #expect(lazy.isCreated)
    }

    @Test func lazySingletonIsTheSingleton() throws {
        var builder = ContainerBuilder()
        builder.register(Tyre.self, lifetime: .singleton) { _ in Tyre() }
        let container = try builder.build()
        let lazy = try container.resolve(Lazy<Tyre>.self)
        #expect(try lazy.value === container.resolve(Tyre.self))
    }

    @Test func lazyOfUnregisteredServiceThrowsNotRegistered() throws {
        let container = try ContainerBuilder().build()
        let error = #expect(throws: GraftError.self) { try container.resolve(Lazy<Tyre>.self) }
        #expect(error?.code == .notRegistered)
        #expect(
            error?.description == """
                Graft: no registration for Tyre
                  register it, autowiring its initializer: builder.register(Tyre.self, using: Tyre.init), or as a value: builder.register(Tyre.self, instance: Tyre(...))
                """
        )
    }

    @Test func lazyRethrowsFactoryErrorAndRetriesNextTime() throws {
        var builder = ContainerBuilder()
        let failures = Atomic(1)
        builder.register(Tyre.self) { _ in
            if failures.subtract(1, ordering: .relaxed).oldValue > 0 { throw Boom() }
            return Tyre()
        }
        let container = try builder.build()
        let lazy = try container.resolve(Lazy<Tyre>.self)
        let error = #expect(throws: GraftError.self) { try lazy.value }
        #expect(error?.code == .factoryFailed)
        #expect(error?.underlyingError is Boom)
        #expect(!lazy.isCreated)
        _ = try lazy.value
        #expect(lazy.isCreated)
    }

    @Test(.timeLimit(.minutes(1))) func lazyIsCreatedOnceUnderContention() async throws {
        var builder = ContainerBuilder()
        let created = Atomic(0)
        builder.register(Tyre.self) { _ in
            created.add(1, ordering: .relaxed)
            return Tyre()
        }
        let container = try await builder.build()
        let lazy = try await container.resolve(Lazy<Tyre>.self)
        let identities = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<1_000 {
                group.addTask { ObjectIdentifier(try lazy.value) }
            }
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(identities.count == 1)
        #expect(created.load(ordering: .relaxed) == 1)
    }

    @Test func lazyDoesNotKeepTheContainerAlive() throws {
        weak var weakContainer: Container?
        var lazy: Lazy<Tyre>?
        do {
            var builder = ContainerBuilder()
            builder.register(Tyre.self, lifetime: .singleton) { _ in Tyre() }
            let container = try builder.build()
            weakContainer = container
            lazy = try container.resolve(Lazy<Tyre>.self)
        }
        #expect(weakContainer == nil)
        let error = #expect(throws: GraftError.self) { try lazy?.value }
        #expect(error?.code == .closed)
        #expect(
            error?.description == """
                Graft: cannot resolve Tyre: the container it came from no longer exists
                  keep the Container alive while Lazy, Provider or @Injected values from it are in use
                """
        )
    }
}

@Suite struct ProviderTests {
    @Test func providerResolvesAnewEachTime() throws {
        var builder = ContainerBuilder()
        builder.register(Tyre.self, using: Tyre.init)
        let container = try builder.build()
        let provider = try container.resolve(Provider<Tyre>.self)
        let tyres = try (0..<5).map { _ in try provider.get() }
        #expect(Set(tyres.map(ObjectIdentifier.init)).count == 5)
    }

    @Test func providerFollowsTheLifetime() throws {
        var builder = ContainerBuilder()
        builder.register(Tyre.self, lifetime: .singleton, using: Tyre.init)
        let container = try builder.build()
        let provider = try container.resolve(Provider<Tyre>.self)
        #expect(try provider.get() === provider.get())
    }

    @Test func asyncGetAwaitsTheFactoryAnewEachTime() async throws {
        let made = Atomic(0)
        var builder = ContainerBuilder()
        builder.register(Tyre.self) { _ async in
            await Task.yield()
            made.add(1, ordering: .relaxed)
            return Tyre()
        }
        let container = try await builder.build()
        let provider = try await container.resolve(Provider<Tyre>.self)
        #expect(made.load(ordering: .relaxed) == 0)

        let first = try await provider.get()
        let second = try await provider.get()

        #expect(first !== second)
        #expect(made.load(ordering: .relaxed) == 2)
        let error = #expect(throws: GraftError.self) { try provider.get() }
        #expect(
            error?.description
                == """
                Graft: Tyre needs await to be created: its factory is async
                  this runs inside a task, but Swift picked the synchronous get()
                  in an async function, write `try await provider.get()` (a synchronous function or closure must become async first)
                  in top-level code (main.swift) Swift picks the synchronous overload even after `await`: move the code into an async function or an `@main` type's `static func main() async`
                """
        )
    }

    @Test func asyncGetFollowsTheLifetime() async throws {
        var builder = ContainerBuilder()
        builder.register(Tyre.self, lifetime: .singleton) { _ async in Tyre() }
        let container = try await builder.build()
        let provider = try await container.resolve(Provider<Tyre>.self)

        #expect(try await provider.get() === container.resolve(Tyre.self))
        #expect(try await provider.get() === provider.get())
    }

    @Test func providerFromAScopeResolvesScopedServicesOfThatScope() throws {
        var builder = ContainerBuilder()
        builder.register(Tyre.self, lifetime: .scoped, using: Tyre.init)
        let container = try builder.build()
        try container.withScope { scope in
            let provider = try scope.resolve(Provider<Tyre>.self)
            #expect(try provider.get() === scope.resolve(Tyre.self))
        }
    }
}

@Suite struct AutowiredWrapperTests {
    @Test func autowiredInitializerReceivesLazyProviderAndOptional() throws {
        var builder = ContainerBuilder()
        builder.register(Extinguisher.self, lifetime: .singleton, using: Extinguisher.init)
        builder.register(Tyre.self, using: Tyre.init)
        builder.register(Kart.self, using: Kart.init(extinguisher:tyres:sponsor:))
        let container = try builder.build()
        let kart = try container.resolve(Kart.self)
        #expect(kart.sponsor == nil)
        #expect(!kart.extinguisher.isCreated)
        #expect(try kart.extinguisher.value === container.resolve(Extinguisher.self))
        #expect(kart.extinguisher.isCreated)
        #expect(try kart.tyres.get() !== kart.tyres.get())
    }

    @Test func optionalParameterReceivesTheServiceWhenRegistered() throws {
        var builder = ContainerBuilder()
        builder.register(Extinguisher.self, using: Extinguisher.init)
        builder.register(Tyre.self, using: Tyre.init)
        builder.register(Sponsor.self, lifetime: .singleton, using: Sponsor.init)
        builder.register(Kart.self, using: Kart.init(extinguisher:tyres:sponsor:))
        let container = try builder.build()
        #expect(try container.resolve(Kart.self).sponsor === container.resolve(Sponsor.self))
    }

    @Test func optionalResolvesToNilWhenUnregistered() throws {
        let container = try ContainerBuilder().build()
        #expect(try container.resolve(Sponsor?.self) == nil)
    }

    @Test func lazyParameterOfMissingServiceFailsTheBuild() throws {
        var builder = ContainerBuilder()
        builder.register(Tyre.self, using: Tyre.init)
        builder.register(Kart.self, using: Kart.init(extinguisher:tyres:sponsor:))
        let error = #expect(throws: GraftError.self) { try builder.build() }
        #expect(error?.problems.map(\.code) == [.missingDependency])
        #expect(error?.problems.first?.summary == "no registration for Extinguisher, which Kart needs")
    }
}
