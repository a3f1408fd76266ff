import Dispatch
import Graft
import Testing

/// A scoped service that says which scope made it.
private final class Visit: Sendable {}

/// A transient whose factory keeps the resolver it was handed, to resolve with it later.
private final class Errand: Sendable {
    let resolver: any Resolver

    init(resolver: any Resolver) { self.resolver = resolver }
}

/// A resolver a closure factory keeps goes on working after the factory returned: it answers
/// from the scope the factory ran in, and no later factory is handed the same one.
@Suite struct KeptResolverTests {
    private func makeContainer() throws -> Container {
        var builder = ContainerBuilder()
        builder.register(Visit.self, lifetime: .scoped) { _ in Visit() }
        // Two statements: a one-expression closure that passes only the resolver on is taken
        // for autowiring (issue 25 tracks that trap).
        builder.register(Errand.self) { r in
            let kept = r
            return Errand(resolver: kept)
        }
        return try builder.build()
    }

    @Test func aKeptResolverResolvesFromTheScopeItsFactoryRanIn() throws {
        let container = try makeContainer()
        let first = container.makeScope()
        let second = container.makeScope()
        let errand = try first.resolve(Errand.self)
        // Factories that run after it, on the same thread, in another scope.
        for _ in 0..<50 { _ = try second.resolve(Errand.self) }
        #expect(try errand.resolver.resolve(Visit.self) === (try first.resolve(Visit.self)))
        #expect(try errand.resolver.resolve(Visit.self) !== (try second.resolve(Visit.self)))
    }

    @Test func everyFactoryIsHandedAResolverNoOtherFactoryKept() throws {
        let container = try makeContainer()
        let scopes = (0..<20).map { _ in container.makeScope() }
        let errands = try scopes.map { try $0.resolve(Errand.self) }
        for (scope, errand) in zip(scopes, errands) {
            #expect(try errand.resolver.resolve(Visit.self) === (try scope.resolve(Visit.self)))
        }
        let distinct = Set(errands.map { ObjectIdentifier($0.resolver as AnyObject) })
        #expect(distinct.count == errands.count)
    }

    @Test func aKeptResolverKeepsItsContainerAlive() throws {
        weak var weakContainer: Container?
        let errand: Errand
        do {
            let container = try makeContainer()
            weakContainer = container
            errand = try container.makeScope().resolve(Errand.self)
        }
        #expect(weakContainer == nil)
        // The container object is gone; the engine behind it is not, and answers.
        _ = try errand.resolver.resolve(Visit.self)
    }

    @Test func aKeptResolverThatIsDroppedLeavesLaterFactoriesTheirOwnScope() throws {
        let container = try makeContainer()
        let scope = container.makeScope()
        do {
            let dropped = try container.makeScope().resolve(Errand.self)
            _ = dropped
        }
        let errand = try scope.resolve(Errand.self)
        #expect(try errand.resolver.resolve(Visit.self) === (try scope.resolve(Visit.self)))
    }

    @Test func resolversKeptOnManyThreadsEachAnswerFromTheirOwnScope() throws {
        let container = try makeContainer()
        let mismatches = Counter()
        let checked = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<200 {
                let scope = container.makeScope()
                guard let errand = try? scope.resolve(Errand.self),
                    let kept = try? errand.resolver.resolve(Visit.self),
                    let own = try? scope.resolve(Visit.self)
                else {
                    mismatches.increment()
                    continue
                }
                if kept !== own { mismatches.increment() }
                checked.increment()
                try? scope.close()
            }
        }
        #expect(checked.value == 1_600)
        #expect(mismatches.value == 0)
    }

    @Test func aResolverHandedToAnotherThreadDuringItsFactoryResolvesThere() throws {
        var builder = ContainerBuilder()
        builder.register(Visit.self, lifetime: .scoped) { _ in Visit() }
        builder.register(Errand.self) { r in
            let resolved = Guarded<Visit?>(nil)
            let thread = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                resolved.withLock { $0 = try? r.resolve(Visit.self) }
                thread.signal()
            }
            thread.wait()
            #expect(resolved.current != nil)
            return Errand(resolver: r)
        }
        let container = try builder.build()
        let scope = container.makeScope()
        let errand = try scope.resolve(Errand.self)
        #expect(try errand.resolver.resolve(Visit.self) === (try scope.resolve(Visit.self)))
    }
}
