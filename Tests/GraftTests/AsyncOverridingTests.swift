import Graft
import GraftTesting
import Testing

/// Needs the pool opened at start-up.
private final class Starter: Sendable {
    init(pool: Pool) {}
}

/// A container whose connection pool is opened at start-up: an `.eagerSingleton` whose factory
/// is async. Every pool it makes writes "real" to `log` when disposed.
private func startupContainer(log: EventLog = EventLog()) async throws -> Container {
    var builder = ContainerBuilder()
    builder.register(Pool.self, lifetime: .eagerSingleton) { _ async in await Pool(opening: "real", log: log) }
    return try await builder.build()
}

private struct TestFailure: Error {}

@Suite struct AsyncOverridingTests {
    @Test func asyncOverridingCreatesEagerSingletonsThatNeedAwait() async throws {
        let app = try await startupContainer()
        let test = try await app.overriding { builder in
            builder.register(Pool.self, lifetime: .eagerSingleton) { _ async in await Pool(opening: "mock") }
        }
        #expect(try await test.resolve(Pool.self).label == "mock")
        #expect(try await app.resolve(Pool.self).label == "real")
        #expect(try await test.resolve(Pool.self) !== app.resolve(Pool.self))
    }

    @Test func synchronousOverridingReportsTheEagerSingletonThatNeedsAwait() async throws {
        let app = try await startupContainer()
        let error = #expect(throws: GraftError.self) { try app.overriding { _ in } }
        #expect(error?.problems.map(\.code) == [.needsAwait])
        // The hint names build(), which overriding(_:) runs for the test container.
        #expect(
            error?.problems.map(\.description) == [
                """
                Graft: eager singleton Pool needs await to be created: its factory is async
                  this runs inside a task, but Swift picked the synchronous build() (or validate())
                  in an async function, write `try await builder.build()` (a synchronous function or closure must become async first)
                  in top-level code (main.swift) Swift picks the synchronous overload even after `await`: move the code into an async function or an `@main` type's `static func main() async`
                """
            ]
        )
    }

    @Test func containerTraitShutsDownWhenTheTestThrows() async throws {
        let log = EventLog()
        let app = try await startupContainer(log: log)
        let trait = ContainerTrait.container(app)
        let test = try #require(Test.current)
        let resolved = Guarded<Pool?>(nil)
        await #expect(throws: TestFailure.self) {
            try await trait.provideScope(for: test, testCase: nil) {
                let pool = try await TestContainer.current.resolve(Pool.self)
                resolved.withLock { $0 = pool }
                throw TestFailure()
            }
        }
        // The trait's own container (not `app`) made a pool and disposed it, awaiting it.
        let traitPool = try #require(resolved.current)
        #expect(traitPool.isDisposed)
        #expect(log.entries == ["real"])
        let appPool = try await app.resolve(Pool.self)
        #expect(appPool !== traitPool)
        #expect(!appPool.isDisposed)
    }

    @Test func containerTraitWorksWithAnAsyncEagerSingleton() async throws {
        let app = try await startupContainer()
        let trait = ContainerTrait.container(app) { builder in
            builder.register(Starter.self, using: Starter.init(pool:))
        }
        let test = try #require(Test.current)
        let resolved = Guarded(false)
        try await trait.provideScope(for: test, testCase: nil) {
            _ = try await TestContainer.current.resolve(Starter.self)
            resolved.withLock { $0 = true }
        }
        #expect(resolved.current)
    }
}

/// A registration added to random graphs: an async factory, so that the sync and the async
/// `build()` disagree whenever an eager singleton needs it.
private final class AsyncStart: Sendable {
    init() async {}
}

private final class EagerStarter: Sendable {
    init(start: AsyncStart) {}
}

/// The random graphs, some with an eager singleton that needs `await` (directly, or through a
/// dependency), some with an async singleton nothing eager needs.
private func builderWithAsync(seed: UInt64) -> ContainerBuilder {
    var builder = makeBuilder(ModelGraph(seed: seed))
    switch seed % 4 {
    case 0:
        builder.register(AsyncStart.self, lifetime: .eagerSingleton) { _ async in await AsyncStart() }
    case 1:
        builder.register(AsyncStart.self, lifetime: .singleton) { _ async in await AsyncStart() }
        builder.register(EagerStarter.self, lifetime: .eagerSingleton, using: EagerStarter.init(start:))
    case 2:
        builder.register(AsyncStart.self, lifetime: .singleton) { _ async in await AsyncStart() }
    default:
        break
    }
    return builder
}

/// What the synchronous `build()` throws and the synchronous `validate()` reports: a
/// synchronous function, since an async one picks the async overloads.
private func synchronousReports(_ builder: ContainerBuilder) -> (build: [String], validate: [String]) {
    let built: [String]
    do {
        try builder.build().shutdown()
        built = []
    } catch {
        built = error.problems.map(\.description)
    }
    return (built, builder.validate().map(\.description))
}

@Suite struct ValidateMatchesBuildTests {
    @Test("validate() reports exactly what build() throws, over 2,000 random graphs with async factories")
    func validateMatchesBuild() async {
        var disagreements: [String] = []
        var syncOnlyProblems = 0
        for seed in UInt64(1)...2_000 {
            let builder = builderWithAsync(seed: seed)
            let (syncProblems, validated) = synchronousReports(builder)
            let asyncProblems: [String]
            do {
                try await builder.build().shutdown()
                asyncProblems = []
            } catch {
                asyncProblems = error.problems.map(\.description)
            }
            let awaitedValidated = await builder.validate().map(\.description)
            if validated != syncProblems {
                disagreements.append("seed \(seed): validate() \(validated), build() \(syncProblems)")
            }
            if awaitedValidated != asyncProblems {
                disagreements.append("seed \(seed): await validate() \(awaitedValidated), build() \(asyncProblems)")
            }
            syncOnlyProblems += validated.count > awaitedValidated.count ? 1 : 0
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
        // Half the graphs have an eager singleton that needs `await`, so the forms must differ.
        #expect(syncOnlyProblems >= 900)
    }
}
