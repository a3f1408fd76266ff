/// An injected factory: each `get()` resolves the service anew, following its lifetime.
///
/// The wheel factory of <doc:SeedsTour>: four wheels now and a spare later, for a car that
/// cannot know in its initializer how many it will need. Ask for `Provider<T>` wherever `T` is
/// registered.
///
/// ```swift
/// final class RaceCar: Sendable {
///     init(wheels: Provider<Wheel>) throws {
///         self.wheels = try (0..<4).map { _ in try wheels.get() }
///         self.spare = wheels
///     }
/// }
/// ```
///
/// A `Provider` holds its container weakly, so it never keeps the container alive.
public struct Provider<Value: Sendable>: Sendable {
    private let link: DeferredLink

    init(_ link: DeferredLink) {
        self.link = link
    }

    /// Resolves the service.
    ///
    /// - Returns: A new instance for transients, the shared one for other lifetimes.
    /// - Throws: ``GraftError`` when the factory behind it throws.
    public func get() throws(GraftError) -> Value {
        do {
            return try link.resolve(Value.self)
        } catch {
            // A service that needs `await` is resolved with the async `get()`, which the hint names.
            throw DeferredReadHints.rewording(
                error,
                of: link.key,
                wrapper: "Provider<\(link.key.typeName)>",
                asyncSpelling: "try await provider.get()"
            )
        }
    }

    /// Resolves the service, awaiting an async factory.
    ///
    /// - Returns: A new instance for transients, the shared one for other lifetimes.
    /// - Throws: ``GraftError`` when the factory behind it throws.
    public func get() async throws(GraftError) -> Value {
        try await link.resolveAsync(Value.self)
    }
}

extension Provider: DeferredForm {
    static var dependency: Dependency {
        Dependency(key: ServiceKey(Value.self), kind: .deferred)
    }
}
