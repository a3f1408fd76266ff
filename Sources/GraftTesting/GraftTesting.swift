public import Graft
public import Testing

/// A Swift Testing trait that gives a test its own container: `base` with some registrations
/// replaced, isolated from tests running in parallel.
///
/// ```swift
/// @Test(.container(App.container) { $0.register((any Engine).self) { _ in MockEngine() } })
/// func carStartsWithMockEngine() throws {
///     let car = try TestContainer.current.resolve(RaceCar.self)
///     #expect(car.engine is MockEngine)
/// }
/// ```
///
/// The container is built with the async `build()` (so `.eagerSingleton`s that need `await`
/// work) and always shut down when the test ends, also when it throws, awaiting async disposals.
public struct ContainerTrait: TestTrait, SuiteTrait, TestScoping {
    let base: @Sendable () throws -> Container
    let changes: @Sendable (inout ContainerBuilder) -> Void

    /// Whether child tests of a suite get their own container each.
    public var isRecursive: Bool { true }

    /// Runs `function` with its own container as ``TestContainer/current``, then shuts that
    /// container down, however the test ended.
    ///
    /// Swift Testing calls this for each test the trait applies to; a test does not call it.
    ///
    /// - Parameters:
    ///   - test: The test, or the suite, the trait is applied to.
    ///   - testCase: The test case, for a parameterized test; `nil` for a suite.
    ///   - function: The test's body.
    /// - Throws: The error the test threw; otherwise what making the container threw (the
    ///   `base` closure, or a `GraftError` from `overriding`), or a `GraftError` listing the
    ///   disposals that failed at shutdown.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        // The async forms: they create eager singletons that need `await` and await async
        // disposals.
        let container = try await base().overriding(changes)
        let outcome: Result<Void, any Error>
        do {
            try await TestContainer.$scoped.withValue(container) {
                try await function()
            }
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        // Shut down however the test ended; the test's own error comes first, and a disposal
        // failure after it is recorded rather than lost.
        do {
            try await container.shutdown()
        } catch {
            if case .failure = outcome { Issue.record(error) } else { throw error }
        }
        try outcome.get()
    }
}

extension Trait where Self == ContainerTrait {
    /// Runs the test with a copy of `base` in which `changes` replace registrations.
    ///
    /// - Parameters:
    ///   - base: The app's container, or a closure that builds it.
    ///   - changes: Registrations that replace the app's ones for this test.
    /// - Returns: The trait.
    public static func container(
        _ base: @autoclosure @escaping @Sendable () throws -> Container,
        _ changes: @escaping @Sendable (inout ContainerBuilder) -> Void = { _ in }
    ) -> Self {
        ContainerTrait(base: base, changes: changes)
    }
}

/// The container a ``ContainerTrait`` made for the running test.
public enum TestContainer {
    @TaskLocal static var scoped: Container?

    /// The running test's container.
    ///
    /// - Throws: `GraftError` when the test has no `.container` trait.
    public static var current: Container {
        get throws(GraftError) {
            guard let scoped else {
                throw GraftError(
                    .closed,
                    "this test has no container",
                    hints: ["add the trait: @Test(.container(appContainer) { ... })"]
                )
            }
            return scoped
        }
    }
}
