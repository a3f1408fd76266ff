/// A dependency a registration declares ahead of time, so `build()` can check it.
@usableFromInline
struct Dependency: Sendable {
    @usableFromInline
    enum Kind: Sendable {
        /// Resolved before the dependent is created.
        case direct
        /// Resolved before the dependent is created when registered; `nil` otherwise.
        case optional
        /// Handed over as a ``Lazy`` or ``Provider`` and resolved later, so it forms no cycle.
        case deferred
    }

    @usableFromInline let key: ServiceKey
    @usableFromInline let kind: Kind
    /// For a `.deferred` dependency, how to wrap the link in a `Lazy` or `Provider`.
    @usableFromInline let wrapper: DependencyWrapper?

    /// The dependency on a parameter of type `Parameter`: its own type, or the service a
    /// `Lazy`, `Provider` or `Optional` wraps.
    init<Parameter: Sendable>(parameter: Parameter.Type) {
        if let wrapping = Parameter.self as? any WrappedDependency.Type {
            self = wrapping.dependency
        } else {
            self.init(key: ServiceKey(Parameter.self), kind: .direct, wrapper: nil)
        }
    }

    init(key: ServiceKey, kind: Kind, wrapper: DependencyWrapper?) {
        self.key = key
        self.kind = kind
        self.wrapper = wrapper
    }

    /// Whether the dependent cannot be created before this dependency is.
    @usableFromInline var isImmediate: Bool { kind != .deferred }
}

/// Makes a `Lazy<T>` or `Provider<T>` that resolves the wrapped service through a link.
@usableFromInline
typealias DependencyWrapper = @Sendable (DeferredLink) -> any Sendable

/// A type that wraps another service as a dependency: `Lazy<T>`, `Provider<T>`, `T?`.
///
/// Asking for one needs no registration of its own; it works whenever the wrapped service is
/// registered (or, for `Optional`, is not).
protocol WrappedDependency {
    static var dependency: Dependency { get }
}

extension Optional: WrappedDependency {
    static var dependency: Dependency {
        Dependency(key: ServiceKey(Wrapped.self), kind: .optional, wrapper: nil)
    }
}

/// A type with a value meaning "absent": what an unregistered optional dependency receives.
protocol AbsentRepresentable {
    static var absent: Self { get }
}

extension Optional: AbsentRepresentable {
    static var absent: Self { nil }
}

/// The typed `nil` of `type`, when `type` is an `Optional`.
func absentValue<Value>(of type: Value.Type) -> Value? {
    (Value.self as? any AbsentRepresentable.Type)?.absent as? Value
}
