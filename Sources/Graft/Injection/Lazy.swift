/// A dependency created on first access, at most once: the fire extinguisher of
/// <doc:SeedsTour>, made only when there is a fire.
///
/// Ask for `Lazy<T>` wherever `T` is registered; it needs no registration of its own. The
/// value follows `T`'s lifetime (a lazy singleton is still the singleton) and is created once
/// even when several threads read it at the same time.
///
/// ```swift
/// final class RaceCar: Sendable {
///     let extinguisher: Lazy<FireExtinguisher>
///     func putOutFire() throws { try extinguisher.get().spray() }
/// }
/// ```
///
/// A `Lazy` holds its container weakly, so it never keeps the container alive.
public final class Lazy<Value: Sendable>: Sendable {
    private let once: CreatedOnce<Value>

    init(_ link: DeferredLink) {
        once = CreatedOnce(link)
    }

    /// The value, created by the first access: the same as ``get()-90sf4``.
    ///
    /// - Throws: ``GraftError`` when the factory behind it throws; the next access tries again.
    public var value: Value {
        get throws(GraftError) { try get() }
    }

    /// The value, created by the first call.
    ///
    /// Read it as a ``Provider`` and a ``Factory`` are called: `try lazy.get()` in
    /// synchronous code, `try await lazy.get()` where the service, or anything it needs, has an
    /// `async` factory. Concurrent first calls wait for one creation and all receive its result;
    /// a `Lazy` read again while its own value is being created is a cycle, reported as an error.
    ///
    /// - Returns: The value, the same one every time.
    /// - Throws: ``GraftError`` when the factory behind it throws; the next call tries again.
    public func get() throws(GraftError) -> Value {
        do {
            return try once.value(of: self)
        } catch {
            // A service that needs `await` is read with the async `get()`, which the hint names.
            throw DeferredReadHints.rewording(
                error,
                of: ServiceKey(Value.self),
                wrapper: "Lazy<\(ServiceKey(Value.self).typeName)>",
                asyncSpelling: "try await lazy.get()"
            )
        }
    }

    /// The value, created by the first call, awaiting an async factory; suspends instead of
    /// blocking while another caller creates it.
    ///
    /// - Returns: The value, the same one every time.
    /// - Throws: ``GraftError`` when the factory behind it throws; the next call tries again.
    public func get() async throws(GraftError) -> Value {
        try await once.value(of: self)
    }

    /// Whether the value has been created.
    public var isCreated: Bool { once.isCreated }
}

extension Lazy: DeferredForm {
    static var dependency: Dependency {
        Dependency(key: ServiceKey(Value.self), kind: .deferred)
    }
}
