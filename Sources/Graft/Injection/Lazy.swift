/// A dependency created on first access, at most once: the seeds' fire extinguisher, made
/// only when there is a fire.
///
/// Ask for `Lazy<T>` wherever `T` is registered; it needs no registration of its own. The
/// value follows `T`'s lifetime (a lazy singleton is still the singleton) and is created once
/// even when several threads read it at the same time.
///
/// ```swift
/// final class RaceCar: Sendable {
///     let extinguisher: Lazy<FireExtinguisher>
///     func putOutFire() throws { try extinguisher.value.spray() }
/// }
/// ```
///
/// A `Lazy` holds its container weakly, so it never keeps the container alive.
public final class Lazy<Value: Sendable>: Sendable {
    private let link: DeferredLink
    private let cached = Locked<Value?>(nil)
    private let creation = Locked<Void>(())

    init(_ link: DeferredLink) {
        self.link = link
    }

    /// The value, created by the first access.
    ///
    /// - Throws: ``GraftError`` when the factory behind it throws; the next access tries again.
    public var value: Value {
        get throws(GraftError) {
            if let value = cached.withLock({ $0 }) { return value }
            return try creation.withLock { _ throws(GraftError) -> Value in
                if let value = cached.withLock({ $0 }) { return value }
                let value = try link.resolve(Value.self)
                cached.withLock { $0 = value }
                return value
            }
        }
    }

    /// The value, created by the first access, awaiting an async factory.
    ///
    /// - Throws: ``GraftError`` when the factory behind it throws.
    public var asyncValue: Value {
        get async throws(GraftError) {
            if let value = cached.withLock({ $0 }) { return value }
            let value = try await link.resolveAsync(Value.self)
            return cached.withLock { cached in
                if let existing = cached { return existing }
                cached = value
                return value
            }
        }
    }

    /// Whether the value has been created.
    public var isCreated: Bool { cached.withLock { $0 != nil } }
}

extension Lazy: WrappedDependency {
    static var dependency: Dependency {
        Dependency(key: ServiceKey(Value.self), kind: .deferred, wrapper: { Lazy($0) })
    }
}
